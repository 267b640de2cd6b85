"""Entering, changing and deleting games, approvals and sanctions on a scoresheet.

Every write locks the sheet, checks the version the page was loaded with (a stale page is
refused with what is now stored), scores the whole sheet again through the rules engine (an
approval or a changed game can strike or restore a later one), stores the computed points, and
records the change with who, when, before and after."""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext as _

from scoring import Code, Contract, Game, Sanction, Suit, Transcribed, score_sheet
from scoring.entries import Entry, family_of
from scoring.hands import check_hand
from scoring.outcome import Scored
from scoring.transcription import transcribe

from ..draw.models import Seat
from ..errors import ServiceError
from ..problems import problem_messages
from ..tournaments.permissions import Perm, require
from .models import Approval, EntryHistory, GameEntry, Scoresheet
from .text import describe_entry, points_text


class StaleSheet(ServiceError):
    """The page was loaded before somebody else saved this sheet."""


def _approvals(sheet: Scoresheet) -> dict[int, str]:
    return dict(sheet.approvals.values_list("number", "contract"))


def to_engine(entry: GameEntry, approvals: dict[int, str], rules) -> Entry:
    """The stored entry as the rules engine reads it; approvals come from their own records."""
    if entry.kind == GameEntry.Kind.SANCTION:
        return Sanction(entry.number, Contract(entry.contract), entry.declarer, entry.liable, entry.partner)
    if entry.kind == GameEntry.Kind.TRANSCRIBED:
        plain: Entry = Transcribed(entry.number, tuple(entry.written or ()), entry.declarer)
    else:
        plain = Game(
            entry.number,
            Contract(entry.contract),
            entry.declarer,
            suit=entry.suit or None,
            partner=entry.partner,
            result=entry.result or None,
            schneider=entry.schneider,
            schwarz=entry.schwarz,
            declarer_points=entry.declarer_points,
            invalid_announcement=entry.invalid_announcement,
        )
    return with_approval(plain, approvals, rules)


def with_approval(entry: Entry, approvals: dict[int, str], rules) -> Entry:
    """The same entry, approved as the records say: a described game by an approval of its
    contract, a paper row by an approval of a contract that scores as the row does."""
    approval = approvals.get(entry.number)
    if isinstance(entry, Game):
        return replace(entry, approved=approval == entry.contract)
    if isinstance(entry, Transcribed):
        kind = transcribe(entry, rules).kind if approval else None
        approved = kind is not None and family_of(Contract(approval)) is kind.family
        return replace(entry, approved=approved)
    return entry


def fields_of(entry: Entry) -> dict:
    """The GameEntry fields that describe an engine entry."""
    blank = {
        "contract": "",
        "suit": "",
        "declarer": None,
        "partner": None,
        "result": "",
        "schneider": False,
        "schwarz": False,
        "declarer_points": None,
        "invalid_announcement": False,
        "liable": None,
        "written": None,
    }
    if isinstance(entry, Sanction):
        return {
            **blank,
            "kind": GameEntry.Kind.SANCTION,
            "contract": entry.contract.value,
            "declarer": entry.declarer,
            "partner": entry.partner,
            "liable": entry.liable,
        }
    if isinstance(entry, Transcribed):
        return {
            **blank,
            "kind": GameEntry.Kind.TRANSCRIBED,
            "declarer": entry.declarer,
            "written": list(entry.points),
        }
    return {
        **blank,
        "kind": GameEntry.Kind.GAME,
        "contract": entry.contract.value,
        "suit": entry.suit.value if entry.suit else "",
        "declarer": entry.declarer,
        "partner": entry.partner,
        "result": entry.result.value if entry.result else "",
        "schneider": entry.schneider,
        "schwarz": entry.schwarz,
        "declarer_points": entry.declarer_points,
        "invalid_announcement": entry.invalid_announcement,
    }


def score(sheet: Scoresheet, entries: list[GameEntry] | None = None, approvals: dict[int, str] | None = None):
    """The rules engine's view of the stored sheet (entries and approvals read unless given)."""
    rules = sheet.match.tournament.rules
    approvals = _approvals(sheet) if approvals is None else approvals
    stored = entries if entries is not None else list(sheet.entries.all())
    return score_sheet([to_engine(e, approvals, rules) for e in stored], rules)


def locked_sheet(sheet: Scoresheet) -> Scoresheet:
    """The sheet read afresh and locked for the rest of the transaction, with its match,
    tournament and table."""
    return (
        Scoresheet.objects.select_for_update().select_related("match__tournament", "table").get(pk=sheet.pk)
    )


def _lock(sheet: Scoresheet, expected_version: int | None, correction: bool = False) -> Scoresheet:
    sheet = locked_sheet(sheet)
    if sheet.status == Scoresheet.Status.VOID:
        raise ServiceError(_("This scoresheet is void: nothing can be entered."))
    if sheet.status == Scoresheet.Status.SIGNED and not correction:
        raise ServiceError(
            _(
                "This scoresheet is signed and locked: only a supervisor can "
                "correct it, with a reason (5.3.4)."
            )
        )
    if expected_version is not None and expected_version != sheet.version:
        raise StaleSheet(
            _(
                "Somebody else has saved this scoresheet meanwhile: please check what "
                "is stored now and enter again."
            )
        )
    return sheet


def _stale_message(sheet: Scoresheet, number: int) -> str:
    stored = sheet.entries.filter(number=number).first()
    if stored is None:
        return _("Game %(game)s: nothing is stored for it now.") % {"game": number}
    return _("Game %(game)s now holds: %(entry)s (%(points)s).") % {
        "game": number,
        "entry": describe_entry(stored),
        "points": points_text(stored.points),
    }


def _scored_fields(result: Scored) -> dict:
    """What the rules engine decided about an entry, as stored beside it."""
    return {
        "points_1": result.points[0],
        "points_2": result.points[1],
        "points_3": result.points[2],
        "points_4": result.points[3],
        "struck": result.struck,
        "downgraded": result.downgraded,
        "approved": result.needs_approval and not result.struck,
    }


def stored_entry(sheet: Scoresheet, scored: Scored) -> GameEntry:
    """A new GameEntry for an entry as the rules engine scored it (bulk writers use this)."""
    return GameEntry(
        scoresheet=sheet, number=scored.number, **fields_of(scored.entry), **_scored_fields(scored)
    )


def _store_scores(sheet: Scoresheet, scored: dict[int, Scored]) -> None:
    """Write the engine's points and flags to every entry whose values changed."""
    changed = []
    for entry in sheet.entries.all():
        values = _scored_fields(scored[entry.number])
        if any(getattr(entry, k) != v for k, v in values.items()):
            for key, value in values.items():
                setattr(entry, key, value)
            changed.append(entry)
    if changed:
        GameEntry.objects.bulk_update(
            changed,
            [
                "points_1",
                "points_2",
                "points_3",
                "points_4",
                "struck",
                "downgraded",
                "approved",
            ],
        )


TALLY_FIELDS = ("sie", "tout_won", "tout_played", "solo_won", "solo_played")


def seat_totals(sheet_score, seats) -> list:
    """The seats of a sheet with what each scored on it: points and tie-break counts."""
    for seat in seats:
        seat.points = sheet_score.totals[seat.position - 1]
        tally = sheet_score.tallies[seat.position - 1]
        for field in TALLY_FIELDS:
            setattr(seat, field, getattr(tally, field))
    return seats


def _finish(sheet: Scoresheet, sheet_score) -> Scoresheet:
    _store_scores(sheet, {row.number: row.scored for row in sheet_score.rows})
    Seat.objects.bulk_update(
        seat_totals(sheet_score, list(sheet.table.seats.all())), ["points", *TALLY_FIELDS]
    )
    if sheet.status != Scoresheet.Status.SIGNED:  # a correction keeps the sheet signed
        sheet.status = Scoresheet.Status.COMPLETE if sheet_score.complete else Scoresheet.Status.OPEN
    sheet.version += 1
    sheet.save(update_fields=["status", "version"])
    sheet.match.tournament.results_changed()
    return sheet


def _history(sheet, user, number, action, before=None, after=None) -> None:
    EntryHistory.objects.create(
        scoresheet=sheet,
        number=number,
        action=action,
        user=user if getattr(user, "pk", None) else None,
        user_name=user.get_username() if hasattr(user, "get_username") else "",
        before=before,
        after=after,
    )


def _required_permission(entry: Entry | GameEntry) -> Perm:
    is_sanction = isinstance(entry, Sanction) or getattr(entry, "kind", "") == "sanction"
    return Perm.SANCTION if is_sanction else Perm.ENTER_RESULTS  # 3.4.17: supervisor only


@transaction.atomic
def save_entry(
    user,
    sheet: Scoresheet,
    entry: Entry,
    expected_version: int | None,
    replace: bool = False,
    correction: bool = False,
) -> GameEntry:
    """Enter game ``entry.number``, or change it when ``replace``. Refused with the game and
    the reason when the rules engine finds a problem in it; nothing is saved then. A signed
    sheet takes only a supervisor's ``correction`` (through ``signing.correct``)."""
    tournament = sheet.match.tournament
    require(user, tournament, _required_permission(entry))
    try:
        sheet = _lock(sheet, expected_version, correction)
    except StaleSheet as error:
        raise StaleSheet(error.message, details=[_stale_message(sheet, entry.number)]) from None
    number = entry.number
    stored = {e.number: e for e in sheet.entries.all()}
    existing = stored.get(number)
    if existing is not None and not replace:
        raise ServiceError(
            _("Game %(game)s is already entered: %(entry)s. Change it instead.")
            % {"game": number, "entry": describe_entry(existing)}
        )
    if existing is None and replace:
        raise ServiceError(_("Game %(game)s is not entered: there is nothing to change.") % {"game": number})
    if existing is not None:
        require(user, tournament, _required_permission(existing))
    rules = tournament.rules
    approvals = _approvals(sheet)
    engine_entries = [to_engine(e, approvals, rules) for n, e in stored.items() if n != number]
    engine_entries.append(with_approval(entry, approvals, rules))
    sheet_score = score_sheet(engine_entries, rules)
    own = [p for p in sheet_score.problems if p.game == number and p.code != Code.GAME_MISSING]
    if correction and not own and not sheet_score.complete:
        own = list(sheet_score.problems)  # a signed sheet stays complete
    if own:
        raise ServiceError(problem_messages(own)[0], details=problem_messages(own)[1:])
    fields = fields_of(entry)
    if existing is None:
        saved = GameEntry(scoresheet=sheet, number=number, **fields)
        before = None
    else:
        before = existing.as_record()
        saved = existing
        for key, value in fields.items():
            setattr(saved, key, value)
    for key, value in _scored_fields(sheet_score.row(number).scored).items():
        setattr(saved, key, value)
    saved.save()
    _finish(sheet, sheet_score)
    _history(
        sheet,
        user,
        number,
        EntryHistory.Action.UPDATE if before else EntryHistory.Action.CREATE,
        before=before,
        after=saved.as_record(),
    )
    return saved


@transaction.atomic
def delete_entry(user, sheet: Scoresheet, number: int, expected_version: int | None) -> None:
    tournament = sheet.match.tournament
    try:
        sheet = _lock(sheet, expected_version)
    except StaleSheet as error:
        raise StaleSheet(error.message, details=[_stale_message(sheet, number)]) from None
    entry = sheet.entries.filter(number=number).first()
    if entry is None:
        raise ServiceError(_("Game %(game)s is not entered: there is nothing to delete.") % {"game": number})
    require(user, tournament, _required_permission(entry))
    before = entry.as_record()
    entry.delete()
    _finish(sheet, score(sheet))
    _history(sheet, user, number, EntryHistory.Action.DELETE, before=before)


@transaction.atomic
def approve(
    user,
    sheet: Scoresheet,
    number: int,
    contract: str,
    hand: list[str] | None = None,
    suit: str | None = None,
) -> Approval:
    """The supervisor approves a Tout, a Sie or a late Solo/Wenz for game ``number``
    (5.2.14, 5.2.16), with the hand check when the cards were entered."""
    tournament = sheet.match.tournament
    require(user, tournament, Perm.APPROVE)
    sheet = _lock(sheet, None)
    rules = tournament.rules
    if not 1 <= number <= rules.games_per_match:
        raise ServiceError(
            _("Game %(game)s does not exist: a match has %(count)s games.")
            % {"game": number, "count": rules.games_per_match}
        )
    contract_value = Contract(contract)
    if contract_value is Contract.RUFER:
        raise ServiceError(_("A Sauspiel needs no approval."))
    check = None
    if hand:
        result = check_hand(hand, contract_value, Suit(suit) if suit else None)
        check = {
            "is_sie": result.is_sie,
            "runners": result.runners,
            "requirements_met": result.requirements_met,
            "criteria": [
                {
                    "criterion": c.criterion.value,
                    "met": c.met,
                    "failing_suits": [s.value for s in c.failing_suits],
                }
                for c in result.criteria
            ],
            "problems": problem_messages(result.problems),
        }
    approval, _created = Approval.objects.update_or_create(
        scoresheet=sheet,
        number=number,
        defaults={
            "contract": contract_value.value,
            "approved_by": user if getattr(user, "pk", None) else None,
            "approved_by_name": user.get_username(),
            "hand": hand or None,
            "hand_check": check,
        },
    )
    _finish(sheet, score(sheet))
    _history(
        sheet,
        user,
        number,
        EntryHistory.Action.APPROVE,
        after={"contract": contract_value.value, "hand": hand or None},
    )
    return approval


@transaction.atomic
def withdraw_approval(user, sheet: Scoresheet, number: int) -> None:
    tournament = sheet.match.tournament
    require(user, tournament, Perm.APPROVE)
    sheet = _lock(sheet, None)
    approval = sheet.approvals.filter(number=number).first()
    if approval is None:
        raise ServiceError(_("Game %(game)s has no approval.") % {"game": number})
    before = {"contract": approval.contract, "approved_by": approval.approved_by_name}
    approval.delete()
    _finish(sheet, score(sheet))
    _history(sheet, user, number, EntryHistory.Action.REVOKE, before=before)
