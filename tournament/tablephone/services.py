"""The table's phone writes its own scoresheet (issue 16).

The table code is the phone's only credential: it opens one sheet, with the permissions of
``TABLE_PERMISSIONS`` and no account, until the sheet is signed, the match is drawn again or the
referee renews the code. Every write goes through the same services as the desk (same scoring,
same messages, same history), recorded as "Tisch 7 (Handy)".

Every write the phone sends carries a key the phone made for it. The answer is kept under that
key in the same transaction as the write, so a write resent after a lost connection is carried
out once and answered the same way each time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from django import forms as django_forms
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import Contract, Suit
from scoring.entries import sitting_out
from scoring.hands import check_hand

from ..errors import ServiceError
from ..participants.models import Substitution
from ..prepared import Prepared, Update, insert
from ..problems import problem_messages
from ..results import services as sheet_service
from ..results import signing
from ..results.forms import typed_game
from ..results.models import CODE_LENGTH, Approval, Scoresheet, Signature, new_table_code
from ..results.sheet import Known
from ..results.store import locked_sheet
from ..results.text import saved_text
from ..tournaments.audit import record, record_sheet
from ..tournaments.permissions import Perm, require
from .models import ApprovalCall, PhoneReceipt

OVERDUE = timedelta(minutes=3)  # a call unanswered this long is shown as overdue
OFFLINE = timedelta(minutes=3)  # a table's phone silent this long is shown as offline
SEEN_EVERY = timedelta(seconds=60)  # how often the phone's last contact is written
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


class TableActor:
    """Whoever holds the table code: the players at that table, with no account."""

    is_authenticated = False
    is_active = True
    is_superuser = False
    pk = None

    def __init__(self, sheet: Scoresheet) -> None:
        self.sheet_scope = sheet

    def get_username(self) -> str:
        # The history's name for the table's phone, as the players and the referee say it.
        return f"Tisch {self.sheet_scope.table.number} (Handy)"


class CodeRefused(Exception):
    """The code opens nothing (``status`` 404) or no longer (410); ``message`` says why."""

    def __init__(self, status: int, message: str, sheet: Scoresheet | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.sheet = sheet  # a signed sheet, shown with its totals as the players signed them


def normalized(code: str) -> str:
    """The code as typed or scanned: case, spaces and dashes do not matter."""
    return re.sub(r"[^a-z0-9]", "", (code or "").lower())[:40]


def formatted(code: str) -> str:
    """The code as printed: two groups of five, e.g. ``k7m2p-x9qrt``."""
    return f"{code[:5]}-{code[5:]}"


def _by_code(lock: bool = False, write: bool = False):
    def build(code: str, key: str = ""):
        found = Scoresheet.objects.select_related("match__tournament", "table").filter(code=code)
        # The poll asks whether the sheet has calls (none: their states need no reading).
        found = found.annotate(any_calls=Exists(ApprovalCall.objects.filter(scoresheet=OuterRef("pk"))))
        if lock:
            found = found.select_for_update(of=("self",))
        if write:
            # What a write needs to know besides: the answer it got if it was sent before
            # (its receipt), and which rows its answer need not read (results.sheet.read_sheet):
            # none there. (Under a lock PostgreSQL reads these as they were before it waited:
            # a receipt stored meanwhile is caught by its unique key, and nothing that decides
            # a write is taken from the others.)
            found = found.annotate(
                receipt=Subquery(
                    PhoneReceipt.objects.filter(scoresheet=OuterRef("pk"), key=key).values("answer")[:1]
                ),
                any_signatures=Exists(Signature.objects.filter(scoresheet=OuterRef("pk"))),
                any_substitutes=Exists(
                    Substitution.objects.filter(participant__seats__table_id=OuterRef("table_id"))
                ),
            )
        return found.order_by()  # no ORDER BY (the sheets' ordering joins the tables)

    return build


# Every request of a table's phone starts here: compiled once (tournament.prepared).
_BY_CODE = Prepared(_by_code(), str)
_FOR_WRITE_BY_CODE = Prepared(_by_code(write=True), str, str)
_LOCKED_BY_CODE = Prepared(_by_code(lock=True, write=True), str, str)


def _renewed(code: str) -> Scoresheet | None:
    """The sheet whose code this was until the referee renewed it (of a draw still in use)."""
    if len(code) != CODE_LENGTH:
        return None
    return (
        Scoresheet.objects.filter(previous_code=code, match__discarded_at__isnull=True)
        .select_related("match", "table")
        .order_by()
        .first()
    )


def sheet_for_code(code: str, lock: bool = False, key: str | None = None) -> Scoresheet:
    """The sheet the code opens, or ``CodeRefused`` saying why not. ``lock``: locked for the
    rest of the transaction, as ``store.locked_sheet`` locks it (its row only). With the ``key``
    of a write: with that write's ``receipt`` (its answer, or None)."""
    code = normalized(code)
    if lock:
        sheet = _LOCKED_BY_CODE.first(code, key or "")
    elif key is not None:
        sheet = _FOR_WRITE_BY_CODE.first(code, key)
    else:
        sheet = _BY_CODE.first(code)
    if sheet is None:
        renewed = _renewed(code)
        if renewed is not None:
            raise CodeRefused(
                410,
                _(
                    "The referee renewed the code of table %(table)s in match %(match)s: this one no "
                    "longer works. Ask the referee for the new code."
                )
                % {"table": renewed.table.number, "match": renewed.match.number},
            )
        raise CodeRefused(
            404,
            _(
                "This table code is unknown: it may be mistyped or renewed by the referee. "
                "Scan the code on your table card or ask the referee."
            ),
        )
    values = {"table": sheet.table.number, "match": sheet.match.number}
    if sheet.match.is_discarded:
        raise CodeRefused(
            410,
            _(
                "Match %(match)s was drawn again: this code of table %(table)s no longer works. "
                "Scan the code on your new table card."
            )
            % values,
        )
    if sheet.status == Scoresheet.Status.SIGNED:
        raise CodeRefused(
            410,
            _(
                "The scoresheet of table %(table)s in match %(match)s is signed and locked: "
                "it takes no more entries. Only the supervisor can correct it (5.3.4)."
            )
            % values,
            sheet,
        )
    if sheet.status == Scoresheet.Status.VOID:
        raise CodeRefused(
            410,
            _("The scoresheet of table %(table)s in match %(match)s was declared void (5.3.6).") % values,
        )
    return sheet


def seen(sheet: Scoresheet) -> None:
    """The table's phone was heard from now (written at most every few seconds)."""
    now = timezone.now()
    if sheet.phone_seen is None or now - sheet.phone_seen >= SEEN_EVERY:
        Scoresheet.objects.filter(pk=sheet.pk).update(phone_seen=now)
        sheet.phone_seen = now


@transaction.atomic
def renew_code(user, sheet: Scoresheet) -> str:
    """The referee gives the table a new code: the old one stops working at once."""
    require(user, sheet.match.tournament, Perm.ENTER_RESULTS)
    if getattr(user, "sheet_scope", None) is not None:
        raise PermissionDenied("only staff renew a table code")
    sheet = locked_sheet(sheet)
    sheet.previous_code, sheet.code = sheet.code, new_table_code()
    sheet.save(update_fields=["code", "previous_code"])
    record_sheet(
        user,
        sheet,
        "sheet.code_renew",
    )
    return sheet.code


# What the phone sends


@dataclass(frozen=True)
class Reply:
    """What a write answers beyond its message: the sheet as it left it (``Known``), so that the
    page sent back is drawn without reading the sheet again."""

    message: str
    known: Known | None = None


@dataclass(frozen=True)
class Sent:
    """The answer kept under the write's key, the sheet written to, and the sheet as the write
    left it (only where this request carried the write out and the write knows it)."""

    answer: dict
    sheet: Scoresheet
    known: Known | None = None


def send(code: str, key: str, action: str, data: dict) -> Sent:
    """Carry out one write the table's phone sent to the sheet its ``code`` opens
    (``CodeRefused`` where it opens none), once: the answer (``ok``, ``message``, ``details``,
    the sheet's ``version`` after and the ``previous`` one) is kept under ``key`` and given
    again, unchanged, for the same key."""
    if action == "game" and isinstance(key, str) and KEY.fullmatch(key):
        sent = _send_game(code, key, data)
        if sent is not None:
            return sent
    try:
        with transaction.atomic():
            if not isinstance(key, str) or not KEY.fullmatch(key):
                sheet_for_code(code)  # a dead code is told as such, whatever came with it
                raise ServiceError(_("The entry came without a valid key: please reload the page."))
            # The code looked up, the sheet locked and the write's receipt looked for in one
            # query (a write refused before it is carried out writes nothing).
            sheet = sheet_for_code(code, lock=True, key=key)
            handler = ACTIONS.get(action)
            if handler is None:
                raise ServiceError(_("Unknown action."))
            return _send_once(sheet, key, handler, data)
    except IntegrityError:
        # The same key arrived twice at the same moment: the other one was carried out.
        receipt = PhoneReceipt.objects.filter(scoresheet__code=normalized(code), key=key).first()
        if receipt is None:
            raise
        return Sent({**receipt.answer, "repeated": True}, sheet=sheet_for_code(code))


# The sheet locked for a game planned outside the lock, and what tells whether it changed since
# (a renewed code does not raise its version).
_LOCKED_STATE = Prepared(
    lambda pk: (
        Scoresheet.objects.select_for_update(of=("self",))
        .filter(pk=pk)
        .order_by()
        .values_list("version", "status", "match__discarded_at", "code")
    ),
    int,
)


class _Changed(Exception):
    """The sheet was written between the plan and its write."""


def _send_game(code: str, key: str, data: dict) -> Sent | None:
    """A game from the table's phone, with the sheet's write lock held for the writes only: the
    game is checked and scored on the sheet as read (``plan_entry``), and written if the sheet
    is still at that version once locked. On SQLite the lock is the whole database's: with
    hundreds of phones the plan (reads and scoring) under it made every other table's game
    wait (issue 16). None where the game is to be carried out the usual way, under the lock
    from the start (``_send_once``): a refusal, which is kept under its key there, or a sheet
    written meanwhile (by another phone, the desk, a resend of this game)."""
    sheet = sheet_for_code(code, key=key)
    if sheet.receipt is not None:  # sent before: answered as then, nothing done again
        return Sent({**sheet.receipt, "repeated": True}, sheet=sheet)
    try:
        plan = plan_game(TableActor(sheet), sheet, data)
    except (ServiceError, django_forms.ValidationError, PermissionDenied):
        return None
    previous = sheet.version
    try:
        with transaction.atomic():
            if _LOCKED_STATE.first(sheet.pk) != (previous, sheet.status, None, sheet.code):
                raise _Changed  # written, signed or voided, its code renewed or its draw discarded
            entered = sheet_service.apply_entry(plan)
            close_calls(sheet, plan.number)
            answer = {
                "ok": True,
                "message": entered_text(entered),
                "details": [],
                "version": entered.sheet.sheet.version,
                "previous": previous,
            }
            insert(PhoneReceipt(scoresheet=sheet, key=key, answer=answer))
    except (_Changed, IntegrityError):
        return None
    return Sent(answer, sheet, entered.sheet)


def _send_once(sheet: Scoresheet, key: str, handler, data: dict) -> Sent:
    """The write, with ``sheet`` locked in this transaction: the handlers write through the
    services with it (``locked=True``)."""
    if sheet.receipt is not None:  # sent before: answered as then, nothing done again
        return Sent({**sheet.receipt, "repeated": True}, sheet=sheet)
    previous = sheet.version
    actor = TableActor(sheet)
    known = None
    try:
        with transaction.atomic():
            reply = handler(actor, sheet, data)
        if isinstance(reply, Reply):
            reply, known = reply.message, reply.known
        answer = {"ok": True, "message": reply, "details": []}
    except ServiceError as error:
        answer = {"ok": False, "message": str(error.message), "details": [str(d) for d in error.details]}
    except django_forms.ValidationError as error:
        answer = {"ok": False, "message": " ".join(error.messages), "details": []}
    except PermissionDenied:
        refusal = _("The table's phone cannot do this: ask the referee.")
        answer = {"ok": False, "message": refusal, "details": []}
    if known is not None:
        version = known.sheet.version  # the write's own sheet, at the version it stored
    else:
        version = Scoresheet.objects.filter(pk=sheet.pk).values_list("version", flat=True).get()
    answer.update(version=version, previous=previous)
    insert(PhoneReceipt(scoresheet=sheet, key=key, answer=answer))
    return Sent(answer, sheet, known)


def _number(data: dict, sheet: Scoresheet, name: str = "number") -> int:
    return sheet_service.require_game(sheet.match.tournament.rules, data.get(name), sheet.size)


def _base(data: dict) -> int | None:
    value = data.get("base")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat(data: dict, name: str, sheet: Scoresheet) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sheet.size:
        raise ServiceError(_("Seat %(seat)s does not exist.") % {"seat": value})
    return value


def plan_game(actor, sheet: Scoresheet, data: dict) -> sheet_service.EntryPlan:
    """A game from the phone, in the desk's short notation (the phone builds it from the taps),
    checked and scored on ``sheet`` as read. A new game needs only its number to be free; a
    change needs the sheet as the phone saw it (``base``): whatever the desk or another phone
    saved since is never overwritten unseen."""
    number = _number(data, sheet)
    replace = data.get("replace") is True
    # The desk's parser and messages, without a form around them: nothing else is typed here.
    game = typed_game(str(data.get("notation", ""))[:40], number, sheet.size)
    base = _base(data) if replace else None
    if replace and base is None:
        raise ServiceError(_("The change came without the sheet's version: please reload the page."))
    return sheet_service.plan_entry(actor, sheet, game, base, replace=replace)


def enter_game(actor, sheet: Scoresheet, data: dict) -> Reply:
    """A game from the phone (``plan_game``) on the sheet locked in this transaction."""
    plan = plan_game(actor, sheet, data)
    entered = sheet_service.apply_entry(plan)
    close_calls(sheet, plan.number)
    return Reply(entered_text(entered), entered.sheet)


def entered_text(entered: sheet_service.Entered) -> str:
    """What the table is told of a game stored: as the desk is, and whose signatures it withdrew."""
    text = saved_text(entered.saved)
    if entered.withdrawn:
        text += " " + sheet_service.withdrawn_text(entered.withdrawn)
    return text


def close_calls(sheet: Scoresheet, number: int) -> int:
    """A game entered closes the calls still waiting for it: it was played (an approval given
    later would be attached to a game it was not asked for). Every game a phone enters runs it,
    in the write lock: one UPDATE compiled once (the ORM's update() spent about 0.4 ms building it)."""
    return _CLOSE_CALLS(
        sheet.pk,
        number,
        ApprovalCall.Status.WAITING.value,
        status=ApprovalCall.Status.WITHDRAWN.value,
        answered=timezone.now(),
        reason=_("game entered"),
    )


_CLOSE_CALLS = Update(
    lambda sheet, number, waiting: ApprovalCall.objects.filter(
        scoresheet_id=sheet, number=number, status=waiting
    ),
    int,
    int,
    str,
    fields=("status", "answered", "reason"),
)


def delete_game(actor, sheet: Scoresheet, data: dict) -> str:
    number = _number(data, sheet)
    base = _base(data)
    if base is None:
        raise ServiceError(_("The change came without the sheet's version: please reload the page."))
    withdrawn = sheet_service.delete_entry(actor, sheet, number, base, locked=True)
    text = _("Game %(game)s was deleted; the history keeps it.") % {"game": number}
    return f"{text} {sheet_service.withdrawn_text(withdrawn)}" if withdrawn else text


def call_supervisor(actor, sheet: Scoresheet, data: dict) -> str:
    """The table calls for approval before the game is played (5.2.14, 5.2.16)."""
    number = _number(data, sheet)
    declarer = _seat(data, "declarer", sheet)
    if declarer == sitting_out(number, sheet.size):  # tables of five (README readings)
        raise ServiceError(
            _("Seat %(seat)s deals game %(game)s and sits it out: he cannot play it.")
            % {"seat": declarer, "game": number}
        )
    try:
        contract = Contract(data.get("contract"))
        suit = Suit(data["suit"]) if data.get("suit") else None
    except ValueError:
        raise ServiceError(_("Unknown contract.")) from None
    if contract is Contract.RUFER:
        raise ServiceError(_("A Sauspiel needs no approval."))
    if contract in (Contract.SOLO, Contract.SOLO_TOUT) and suit is None:
        raise ServiceError(_("Name the trump suit of the Solo."))
    if sheet.entries.filter(number=number).exists():
        raise ServiceError(
            _("Game %(game)s is already entered: the approval is asked before the game is played.")
            % {"game": number}
        )
    approval = Approval.objects.filter(scoresheet=sheet, number=number).first()
    if approval is not None and approval.contract == contract.value:
        raise ServiceError(
            _("Game %(game)s is already approved: %(contract)s, by %(who)s.")
            % {"game": number, "contract": approval.get_contract_display(), "who": approval.approved_by_name}
        )
    hand = data.get("hand") or None
    if hand is not None:
        if not isinstance(hand, list) or not all(isinstance(card, str) for card in hand):
            raise ServiceError(_("The cards could not be read."))
        problems = check_hand(hand, contract, suit).problems
        if any(p.code.name.startswith("HAND_") for p in problems):
            raise ServiceError(problem_messages(problems)[0])
    waiting = ApprovalCall.objects.filter(scoresheet=sheet, number=number, status=ApprovalCall.Status.WAITING)
    waiting.update(status=ApprovalCall.Status.WITHDRAWN, answered=timezone.now())  # called anew
    call = ApprovalCall.objects.create(
        scoresheet=sheet,
        number=number,
        contract=contract.value,
        suit=suit.value if suit else "",
        declarer=declarer,
        hand=hand,
    )
    record(
        sheet.match.tournament,
        actor,
        "approval.call",
        scoresheet=sheet,
        game=number,
        after={"contract": contract.value, "suit": call.suit, "declarer": declarer, "hand": hand},
    )
    return _("Game %(game)s: the supervisor is called for the %(contract)s.") % {
        "game": number,
        "contract": call.label,
    }


def withdraw_call(actor, sheet: Scoresheet, data: dict) -> str:
    number = _number(data, sheet)
    withdrawn = ApprovalCall.objects.filter(
        scoresheet=sheet, number=number, status=ApprovalCall.Status.WAITING
    ).update(status=ApprovalCall.Status.WITHDRAWN, answered=timezone.now())
    if not withdrawn:
        raise ServiceError(_("Game %(game)s has no call waiting.") % {"game": number})
    return _("Game %(game)s: the call is withdrawn.") % {"game": number}


def sign(actor, sheet: Scoresheet, data: dict) -> str:
    """A player signs on the table's phone (5.3.2); the last signature (the fourth, or the fifth
    at a table of five) locks the sheet."""
    position = _seat(data, "position", sheet)
    signature = signing.sign_with_pad(actor, sheet, position, data.get("image", ""), _base(data))
    return _("%(name)s has signed.") % {"name": signature.name}


def change_scorekeeper(actor, sheet: Scoresheet, data: dict) -> str:
    """The table agrees on another scorekeeper (5.3.1)."""
    position = _seat(data, "position", sheet)
    sheet = locked_sheet(sheet)
    if sheet.status in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID):
        raise ServiceError(_("This scoresheet is signed and locked."))
    table = sheet.table
    before = table.scorekeeper
    table.scorekeeper = position
    table.save(update_fields=["scorekeeper"])
    seat = table.seats.select_related("participant").get(position=position)
    name = seat.participant.player_name(sheet.match.number, 1)
    record(
        sheet.match.tournament,
        actor,
        "table.scorekeeper",
        scoresheet=sheet,
        before={"seat": before},
        after={"seat": position, "name": name},
    )
    return _("%(name)s (seat %(seat)s) keeps the scoresheet now (5.3.1).") % {"name": name, "seat": position}


ACTIONS = {
    "game": enter_game,
    "delete": delete_game,
    "call": call_supervisor,
    "withdraw_call": withdraw_call,
    "sign": sign,
    "scorekeeper": change_scorekeeper,
}


# The supervisor's answer


@transaction.atomic
def answer_call(user, call: ApprovalCall, approve: bool, reason: str = "") -> ApprovalCall:
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
    if sheet.entries.filter(number=call.number).exists():
        # Entered meanwhile (at the desk, say): played without waiting. The call is closed, not
        # answered; the view says so (an approval would be attached to a game it was not for).
        close_calls(sheet, call.number)
        call.refresh_from_db()
        return call
    if approve:
        existing = Approval.objects.filter(scoresheet=sheet, number=call.number).first()
        if existing is None or existing.contract != call.contract:
            sheet_service.approve(user, sheet, call.number, call.contract, call.hand, call.suit or None)
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
    call.answered_by_name = user.get_username()
    call.save(update_fields=["status", "reason", "answered", "answered_by", "answered_by_name"])
    return call
