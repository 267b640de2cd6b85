"""Entering, changing and deleting games, approvals and sanctions on a scoresheet.

Every write locks the sheet, checks the version the page was loaded with (a stale page is
refused with what is now stored), scores the whole sheet again through the rules engine (an
approval or a changed game can strike or restore a later one) and hands the sheet scored before
and after to ``writing.rewrite``: it stores the computed points, records the change with who,
when, before and after and a line for every other game it changed, and returns all of it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from scoring import Code, Contract, Sanction, Suit, score_sheet
from scoring.approvals import Need, approval_need
from scoring.entries import Entry
from scoring.hands import HandCheck, check_hand
from scoring.scoresheet import Sheet

from ..draw.models import Seat
from ..errors import ServiceError
from ..names import person_name
from ..problems import problem_messages
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require, within_scope
from .effects import Cause
from .load import Known
from .models import Approval, GameEntry, Scoresheet
from .store import (
    approvals_of_sheet,
    entries_of,
    locked_sheet,
    seats_of,
    store_scored,
    to_engine,
    with_approval,
)
from .text import describe_entry, points_text
from .writing import Written, rewrite


class StaleSheet(ServiceError):
    """The page was loaded before somebody else saved this sheet."""


def approvals_of(sheet: Scoresheet) -> dict[int, str]:
    """The approved contract of each game number."""
    # order_by(): the default ordering would join the sheet, its match, table and tournament
    return dict(Approval.objects.filter(scoresheet=sheet).order_by().values_list("number", "contract"))


def score(sheet: Scoresheet, entries: list[GameEntry] | None = None, approvals: dict[int, str] | None = None):
    """The rules engine's view of the stored sheet (entries and approvals read unless given)."""
    rules = sheet.match.tournament.rules
    approvals = approvals_of(sheet) if approvals is None else approvals
    stored = entries if entries is not None else list(sheet.entries.all())
    seats = sheet.size
    return score_sheet([to_engine(e, approvals, rules, seats) for e in stored], rules, seats=seats)


def _lock(
    sheet: Scoresheet,
    expected_version: int | None,
    correction: bool = False,
    user=None,
    locked: bool = False,
) -> Scoresheet:
    """The sheet locked (``locked``: the caller locked it with ``locked_sheet`` in this same
    transaction) and checked: open for the write and at the version the page was loaded with."""
    within_scope(user, sheet)
    if not locked:
        sheet = locked_sheet(sheet)
    _check(sheet, expected_version, correction, user)
    return sheet


def _check(sheet: Scoresheet, expected_version: int | None, correction: bool = False, user=None) -> None:
    """The sheet as read takes the write: its own (a table's phone), open, at the version the
    page was loaded with."""
    within_scope(user, sheet)
    if sheet.status == Scoresheet.Status.VOID:
        raise ServiceError(_("This scoresheet is void: nothing can be entered."))
    if sheet.status == Scoresheet.Status.SIGNED and not correction:
        raise ServiceError(
            _(
                "This scoresheet is signed and locked: only a supervisor can "
                "correct it, with a reason (5.3.4)."
            )
        )
    check_version(sheet, expected_version)


def check_version(sheet: Scoresheet, expected_version: int | None) -> None:
    """A page loaded before somebody else saved the sheet is refused, whatever it sends."""
    if expected_version is not None and expected_version != sheet.version:
        raise StaleSheet(
            _(
                "Somebody else has saved this scoresheet meanwhile: please check what "
                "is stored now and enter again."
            )
        )


def _stale_message(sheet: Scoresheet, number: int) -> str:
    stored = sheet.entries.filter(number=number).first()
    if stored is None:
        return _("Game %(game)s: nothing is stored for it now.") % {"game": number}
    return _("Game %(game)s now holds: %(entry)s (%(points)s).") % {
        "game": number,
        "entry": describe_entry(stored),
        "points": points_text(stored.points),
    }


def hand_check_record(result: HandCheck) -> dict:
    """The hand check as the approval stores it and the hand checker shows it (5.2.14)."""
    return {
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


def require_game(rules, number, seats: int = 4) -> int:
    """``number`` when it is a game of a match under ``rules`` at a table of ``seats``; a
    refusal naming it otherwise."""
    count = rules.games_for(seats)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
        if seats == 5:
            raise ServiceError(
                _("Game %(game)s does not exist: a match at a table of five has %(count)s games.")
                % {"game": number, "count": count}
            )
        raise ServiceError(
            _("Game %(game)s does not exist: a match has %(count)s games.") % {"game": number, "count": count}
        )
    return number


def _required_permission(entry: Entry | GameEntry) -> Perm:
    is_sanction = isinstance(entry, Sanction) or getattr(entry, "kind", "") == "sanction"
    return Perm.SANCTION if is_sanction else Perm.ENTER_RESULTS  # 3.4.17: supervisor only


@dataclass(frozen=True)
class Entered:
    """What entering a game wrote: the stored entry, and the sheet as the write left it (its
    rows and score, for the answer to whoever entered it: nothing needs reading again), and
    everything the write changed (``written``: the other games it struck or restored, the
    signatures it withdrew)."""

    saved: GameEntry
    sheet: Known
    written: Written

    @property
    def withdrawn(self) -> list[str]:
        return self.written.withdrawn


def withdrawn_text(names: list[str]) -> str:
    """What the table and the desk are told when a change withdrew signatures."""
    return _("The sheet changed after %(names)s signed: the signatures are withdrawn, please sign again.") % {
        "names": ", ".join(names)
    }


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
    return enter(user, sheet, entry, expected_version, replace, correction).saved


@transaction.atomic
def enter(
    user,
    sheet: Scoresheet,
    entry: Entry,
    expected_version: int | None,
    replace: bool = False,
    correction: bool = False,
) -> Entered:
    """``save_entry``, answering with what the write did besides (signatures withdrawn)."""
    sheet = locked_sheet(sheet)
    return apply_entry(plan_entry(user, sheet, entry, expected_version, replace, correction))


@dataclass
class EntryPlan:
    """Game ``number`` entered (or changed) on ``sheet``, checked and scored but not yet
    written: the rows it was scored from (read with the sheet at ``sheet.version``) and what
    the write will store. ``apply_entry`` writes it, in a transaction that holds the sheet at
    that same version."""

    user: object
    sheet: Scoresheet
    number: int
    stored_entries: list[GameEntry]
    approvals: list[Approval]
    seats: list[Seat]
    score: Sheet
    before: dict | None
    correction: bool
    signed: bool | None = None  # whether the sheet had signatures when read (None: not known)
    previous: Sheet | None = None  # the sheet as scored before the write (its effects)
    sanction: bool = False  # the game written is a sanction

    def write(self) -> Entered:
        """The plan written (``apply_entry``): ``writing.carry_out`` calls it under the lock."""
        return apply_entry(self)


def plan_entry(
    user,
    sheet: Scoresheet,
    entry: Entry,
    expected_version: int | None,
    replace: bool = False,
    correction: bool = False,
    signed: bool | None = None,
) -> EntryPlan:
    """Everything ``save_entry`` checks and computes before it writes, on ``sheet`` as read
    (with its match, tournament and table): the same refusals, nothing written. Locked or not:
    ``apply_entry`` writes the plan only while the sheet is still at the version it was read at
    (``tablephone``'s entries plan outside the write lock; the desk plans under it)."""
    tournament = sheet.match.tournament
    require(user, tournament, _required_permission(entry))
    try:
        _check(sheet, expected_version, correction, user)
    except StaleSheet as error:
        raise StaleSheet(error.message, details=[_stale_message(sheet, entry.number)]) from None
    number = entry.number
    stored_entries = entries_of(sheet)
    stored = {e.number: e for e in stored_entries}
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
    approval_rows = approvals_of_sheet(sheet)
    approvals = {approval.number: approval.contract for approval in approval_rows}
    seats = sheet.size
    engine = {n: to_engine(e, approvals, rules, seats) for n, e in stored.items()}
    previous = score_sheet(engine.values(), rules, seats=seats)  # in memory: what the write changes
    engine[number] = with_approval(entry, approvals, rules, seats)
    sheet_score = score_sheet(engine.values(), rules, seats=seats)
    own = [p for p in sheet_score.problems if p.game == number and p.code != Code.GAME_MISSING]
    if correction and not own and not sheet_score.complete:
        own = list(sheet_score.problems)  # a signed sheet stays complete
    if own:
        raise ServiceError(problem_messages(own)[0], details=problem_messages(own)[1:])
    before = existing.as_record() if existing is not None else None
    # The seats with their players: the points are stored on them, the answer names them.
    table_seats = seats_of(sheet.table_id)
    return EntryPlan(
        user,
        sheet,
        number,
        stored_entries,
        approval_rows,
        table_seats,
        sheet_score,
        before,
        correction,
        signed,
        previous,
        isinstance(entry, Sanction),
    )


def apply_entry(plan: EntryPlan) -> Entered:
    """Write a plan (``plan_entry``) through ``writing.rewrite``: the scored sheet stored, the
    change and every other game it changed in the history. Call in the transaction that holds
    the sheet at the version the plan read."""
    sheet, number = plan.sheet, plan.number
    if plan.correction:
        cause = Cause.CORRECTED
    elif plan.sanction:
        cause = Cause.SANCTION
    else:
        cause = Cause.CHANGED if plan.before else Cause.ENTERED
    before = plan.previous if plan.previous is not None else plan.score
    stored_before = plan.before
    written = rewrite(
        plan.user,
        sheet,
        before,
        plan.score,
        cause=cause,
        game=number,
        # a correction's one log line is its own, with the reason (signing.correct)
        action=None if plan.correction else ("entry.update" if stored_before else "entry.create"),
        data=lambda saved: {"before": stored_before, "after": saved.as_record()},
        game_before=stored_before,  # a game entered again as it was changes nothing signed
        withdraw=not plan.correction,  # a correction is of a signed sheet (5.3.4): they stay
        signed=plan.signed,
        stored_entries=plan.stored_entries,
        seats=plan.seats,
    )
    entries = sorted(written.stored.values(), key=lambda e: e.number)
    known = Known(sheet, entries, plan.approvals, plan.score, plan.seats)
    return Entered(written.stored[number], known, written)


@transaction.atomic
def delete_entry(
    user, sheet: Scoresheet, number: int, expected_version: int | None, locked: bool = False
) -> Written:
    """Delete game ``number``; ``locked``: the caller locked ``sheet`` in this transaction.
    Returns what it changed: the later games it made count again or struck, the names of those
    whose signatures the deletion withdrew."""
    tournament = sheet.match.tournament
    try:
        sheet = _lock(sheet, expected_version, user=user, locked=locked)
    except StaleSheet as error:
        raise StaleSheet(error.message, details=[_stale_message(sheet, number)]) from None
    entries = entries_of(sheet)
    entry = next((e for e in entries if e.number == number), None)
    if entry is None:
        raise ServiceError(_("Game %(game)s is not entered: there is nothing to delete.") % {"game": number})
    require(user, tournament, _required_permission(entry))
    approvals = approvals_of(sheet)
    before = score(sheet, entries, approvals)
    after = score(sheet, [e for e in entries if e.number != number], approvals)
    record_before = entry.as_record()
    return rewrite(
        user,
        sheet,
        before,
        after,
        cause=Cause.DELETED,
        game=number,
        action="entry.delete",
        data={"before": record_before},
        stored_entries=entries,
    )


@transaction.atomic
def approve(
    user,
    sheet: Scoresheet,
    number: int,
    contract: str,
    hand: list[str] | None = None,
    suit: str | None = None,
    expected_version: int | None = None,
) -> Approval:
    """The supervisor approves a Tout, a Sie or a late Solo/Wenz for game ``number``
    (5.2.14, 5.2.16), with the hand check when the cards were entered. The approval carries
    ``withdrawn``: the names of those whose signatures it withdrew."""
    tournament = sheet.match.tournament
    require(user, tournament, Perm.APPROVE)
    sheet = _lock(sheet, expected_version)
    rules = tournament.rules
    require_game(rules, number, sheet.size)
    contract_value = Contract(contract)
    if contract_value is Contract.RUFER:
        raise ServiceError(_("A Sauspiel needs no approval."))
    need, problem = approval_need(contract_value, number, 0, rules, sheet.size)
    if need is Need.REFUSED and problem is not None:  # a Sie in game 1 cannot count (RULINGS 5)
        raise ServiceError(problem_messages([problem])[0])
    existing = sheet.approvals.filter(number=number).first()
    replaced = {"contract": existing.contract, "approved_by": existing.approved_by_name} if existing else None
    if existing and existing.contract == contract_value.value and (not hand or hand == existing.hand):
        # Called in twice (from the table and at the board, say): once is enough.
        raise ServiceError(
            _("Game %(game)s is already approved: %(contract)s, by %(who)s at %(time)s.")
            % {
                "game": number,
                "contract": existing.get_contract_display(),
                "who": existing.approved_by_name,
                "time": localtime(existing.created).strftime("%H:%M"),
            }
        )
    check = None
    if hand:
        check = hand_check_record(check_hand(hand, contract_value, Suit(suit) if suit else None))
    entries = entries_of(sheet)
    before = score(sheet, entries)
    approval, _created = Approval.objects.update_or_create(
        scoresheet=sheet,
        number=number,
        defaults={
            "contract": contract_value.value,
            "approved_by": user if getattr(user, "pk", None) else None,
            "approved_by_name": person_name(user),
            "hand": hand or None,
            "hand_check": check,
        },
    )
    written = rewrite(
        user,
        sheet,
        before,
        score(sheet, entries),
        cause=Cause.APPROVED,
        game=number,
        action="approval.grant",
        data={"before": replaced, "after": {"contract": contract_value.value, "hand": hand or None}},
        stored_entries=entries,
    )
    approval.written = written  # what it changed, for the supervisor's message
    approval.withdrawn = written.withdrawn  # whose signatures it withdrew
    return approval


@transaction.atomic
def withdraw_approval(user, sheet: Scoresheet, number: int, expected_version: int | None = None) -> Written:
    """Withdraw the approval of game ``number``: what it changed (the game struck again, a later
    Solo counting again) and whose signatures it withdrew."""
    tournament = sheet.match.tournament
    require(user, tournament, Perm.APPROVE)
    sheet = _lock(sheet, expected_version)
    approval = sheet.approvals.filter(number=number).first()
    if approval is None:
        raise ServiceError(_("Game %(game)s has no approval.") % {"game": number})
    replaced = {"contract": approval.contract, "approved_by": approval.approved_by_name}
    entries = entries_of(sheet)
    before = score(sheet, entries)
    approval.delete()
    return rewrite(
        user,
        sheet,
        before,
        score(sheet, entries),
        cause=Cause.APPROVAL_WITHDRAWN,
        game=number,
        action="approval.withdraw",
        data={"before": replaced},
        stored_entries=entries,
    )


@transaction.atomic
def fill_sheets(
    user,
    tournament: Tournament,
    played: list[tuple[Scoresheet, list[Entry], dict[int, str]]],
    approved_by_name: str = "",
) -> int:
    """Write whole sheets at once, each with its games and the contracts the supervisor
    approved by game number: the generator of demo and benchmark tournaments. Every sheet must
    still be empty and every game valid; nothing is written otherwise. Returns the games."""
    require(user, tournament, Perm.ENTER_RESULTS)
    if any(approvals for _sheet, _entries, approvals in played):
        require(user, tournament, Perm.APPROVE)
    rules = tournament.rules
    ids = [sheet.pk for sheet, _entries, _approvals in played]
    locked = {
        s.pk: s for s in Scoresheet.objects.select_for_update().select_related("table").filter(pk__in=ids)
    }
    filled = set(
        GameEntry.objects.filter(scoresheet__in=ids).values_list("scoresheet__table__number", flat=True)
    )
    if filled:
        raise ServiceError(
            _("Table %(table)s already has games: only empty scoresheets are filled.")
            % {"table": min(filled)}
        )
    new_approvals, scored = [], []
    for sheet, entries, approvals in played:
        sheet = locked[sheet.pk]
        if sheet.status != Scoresheet.Status.OPEN:
            raise ServiceError(_("Table %(table)s is not open for entries.") % {"table": sheet.table.number})
        new_approvals += [
            Approval(
                scoresheet=sheet,
                number=number,
                contract=contract,
                approved_by=user if getattr(user, "pk", None) else None,
                approved_by_name=approved_by_name or person_name(user),
            )
            for number, contract in approvals.items()
        ]
        seats = sheet.size
        sheet_score = score_sheet(
            [with_approval(e, approvals, rules, seats) for e in entries], rules, seats=seats
        )
        problems = [p for p in sheet_score.problems if p.code != Code.GAME_MISSING]
        if problems:
            raise ServiceError(
                _("Table %(table)s: %(problem)s")
                % {"table": sheet.table.number, "problem": problem_messages(problems)[0]}
            )
        scored.append((sheet, sheet_score))
    Approval.objects.bulk_create(new_approvals, batch_size=2000)
    store_scored(scored)
    games = sum(len(sheet_score.rows) for _sheet, sheet_score in scored)
    record(tournament, user, "results.fill", sheets=len(scored), games=games)
    return games
