"""The supervisor's side of the table phones: the calls for approval from every table, the one-tap
answer to a call (5.2.14, 5.2.16), and a table's new code."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import Contract

from ..errors import ServiceError
from ..names import person_name
from ..results import services as sheet_service
from ..results.models import Approval, GameEntry, Scoresheet, new_table_code
from ..results.store import locked_sheet
from ..tournaments.audit import record, record_sheet
from ..tournaments.permissions import Perm, require
from .models import ApprovalCall
from .phone_state import call_note
from .table import close_calls

OVERDUE = timedelta(minutes=3)  # a call unanswered this long is shown as overdue


@transaction.atomic
def renew_code(user, sheet: Scoresheet) -> str:
    """The referee gives the table a new code: the old one stops working at once."""
    require(user, sheet.match.tournament, Perm.ENTER_RESULTS)
    if getattr(user, "sheet_scope", None) is not None:
        raise PermissionDenied("only staff renew a table code")
    sheet = locked_sheet(sheet)
    sheet.previous_code, sheet.code = sheet.code, new_table_code()
    sheet.save(update_fields=["code", "previous_code"])
    record_sheet(user, sheet, "sheet.code_renew")
    return sheet.code


@dataclass(frozen=True)
class Answered:
    """A call answered: the call as it stands now; ``entered``: the game entered meanwhile (the
    call is closed, not answered); ``approval``: the approval an approving answer gave (with its
    hand check), and whose signatures it withdrew."""

    call: ApprovalCall
    entered: GameEntry | None = None
    approval: Approval | None = None
    withdrawn: list[str] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)  # every other game the approval changed

    @property
    def warnings(self) -> list[str]:
        """The hand check's warnings of an approval given (advice: the supervisor decided)."""
        return (self.approval.hand_check or {}).get("problems", []) if self.approval else []


@transaction.atomic
def answer_call(user, call: ApprovalCall, approve: bool, reason: str = "") -> Answered:
    """The supervisor approves or refuses a table's call with one tap. An approval is the
    sheet's approval of that game, as one given at the desk (hand check included)."""
    sheet = call.scoresheet
    tournament = sheet.match.tournament
    require(user, tournament, Perm.APPROVE)
    sheet = locked_sheet(sheet)
    call = ApprovalCall.objects.select_for_update().get(pk=call.pk)
    if call.status != ApprovalCall.Status.WAITING:
        raise ServiceError(
            _("Table %(table)s, game %(game)s: this call was already answered (%(status)s).")
            % {"table": sheet.table.number, "game": call.number, "status": call.get_status_display()}
        )
    entered = sheet.entries.filter(number=call.number).first()
    if entered is not None:
        # Entered meanwhile (at the desk, say): played without waiting. The call is closed, not
        # answered; the view says so (an approval would be attached to a game it was not for).
        close_calls(sheet, call.number)
        call.refresh_from_db()
        return Answered(call, entered=entered)
    approval, withdrawn, effects = None, [], []
    if approve:
        approval = Approval.objects.filter(scoresheet=sheet, number=call.number).first()
        if approval is None or approval.contract != call.contract:
            approval = sheet_service.approve(
                user, sheet, call.number, call.contract, call.hand, call.suit or None
            )
            withdrawn, effects = approval.written.withdrawn, approval.written.texts
        call.status = ApprovalCall.Status.APPROVED
    else:
        call.status = ApprovalCall.Status.REFUSED
        call.reason = reason.strip()[:200]
        record(
            tournament,
            user,
            "approval.refuse",
            scoresheet=sheet,
            game=call.number,
            after={"contract": call.contract, "reason": call.reason},
        )
    call.answered = timezone.now()
    call.answered_by = user if getattr(user, "pk", None) else None
    call.answered_by_name = person_name(user)
    call.save(update_fields=["status", "reason", "answered", "answered_by", "answered_by_name"])
    return Answered(call, approval=approval, withdrawn=withdrawn, effects=effects)


def calls_context(tournament, match: str | None = None) -> dict:
    """The calls of a tournament's current draws (of one match where given): those waiting,
    oldest first, with whether each is overdue and the declarer's seat; the last ten answered."""
    calls = ApprovalCall.objects.filter(
        scoresheet__match__tournament=tournament, scoresheet__match__discarded_at__isnull=True
    ).select_related("scoresheet__table", "scoresheet__match")
    if match and str(match).isdigit():
        calls = calls.filter(scoresheet__match__number=int(match))
    waiting = list(calls.filter(status=ApprovalCall.Status.WAITING).order_by("created"))
    answered = list(
        calls.exclude(status=ApprovalCall.Status.WAITING)
        .exclude(status=ApprovalCall.Status.WITHDRAWN)
        .order_by("-answered")[:10]
    )
    now = timezone.now()
    seats = {}
    for call in waiting:
        seats[call.pk] = (
            call.scoresheet.table.seats.select_related("participant").filter(position=call.declarer).first()
        )
    rules = tournament.rules
    return {
        # each with why it cannot count or needs no approval (issue 28, item 4), and who plays
        # the seat in that game (a substitute from the game he took over, 5.2.11)
        "waiting": [
            (
                call,
                now - call.created > OVERDUE,
                seats.get(call.pk),
                call_note(Contract(call.contract), call.number, rules, call.scoresheet.size),
                seats[call.pk].participant.player_name(call.scoresheet.match.number, call.number)
                if seats.get(call.pk)
                else "",
            )
            for call in waiting
        ],
        "answered": answered,
        "match_filter": match if match and str(match).isdigit() else "",
    }
