"""Between the rules engine and the database: a stored entry as the engine reads it, and the one
function that stores a scored sheet.

Whoever writes results (entering a game at the desk, approving, importing a document, the
generator) scores the whole sheet through ``scoring`` and hands the result to ``store_scored``,
which writes the entries, the points and tie-break counts of the seats (the standings are
one aggregation over them, 5.4.1), the sheet's status and a new version; the write's record in
the log (``audit.record``) then raises the tournament's results version. Nothing else writes
those fields."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import Contract, Game, Sanction, Transcribed
from scoring.approvals import approval_covers
from scoring.entries import Entry
from scoring.outcome import Scored
from scoring.profiles import RuleProfile
from scoring.scoresheet import Sheet

from ..draw.models import Seat
from ..errors import ServiceError
from ..prepared import Prepared, Update, insert
from .models import Approval, GameEntry, Scoresheet

TALLY_FIELDS = ("sie", "tout_won", "tout_played", "solo_won", "solo_played")
POINT_FIELDS = ("points_1", "points_2", "points_3", "points_4", "points_5")  # seat 5 at a table of five
SCORED_FIELDS = (*POINT_FIELDS, "struck", "downgraded", "approved")
DESCRIBING_FIELDS = (
    "kind",
    "contract",
    "suit",
    "declarer",
    "partner",
    "result",
    "schneider",
    "schwarz",
    "declarer_points",
    "invalid_announcement",
    "liable",
    "written",
)
BATCH = 2000


def to_engine(entry: GameEntry, approvals: dict[int, str], rules: RuleProfile, seats: int = 4) -> Entry:
    """The stored entry as the rules engine reads it at a table of ``seats``; approvals come
    from their own records."""
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
    return with_approval(plain, approvals, rules, seats)


def with_approval(entry: Entry, approvals: dict[int, str], rules: RuleProfile, seats: int = 4) -> Entry:
    """The same entry, approved as the approval records say (scoring.approvals.approval_covers)."""
    if not isinstance(entry, Game | Transcribed):
        return entry
    contract = approvals.get(entry.number)
    covered = contract is not None and approval_covers(Contract(contract), entry, rules, seats=seats)
    return entry if entry.approved == covered else replace(entry, approved=covered)


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
    assert isinstance(entry, Game)
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


def scored_fields(scored: Scored) -> dict:
    """What the rules engine decided about an entry, as stored beside it."""
    points = (*scored.points, 0, 0, 0, 0, 0)  # a table of four leaves seat 5 at 0
    return {
        **{field: points[index] for index, field in enumerate(POINT_FIELDS)},
        "struck": scored.struck,
        "downgraded": scored.downgraded,
        "approved": scored.needs_approval and not scored.struck,
    }


def seat_totals(sheet_score: Sheet, seats: Iterable[Seat]) -> list[Seat]:
    """The seats of a sheet with what each scored on it: points and tie-break counts."""
    seats = list(seats)
    for seat in seats:
        seat.points = sheet_score.totals[seat.position - 1]
        tally = sheet_score.tallies[seat.position - 1]
        for field in TALLY_FIELDS:
            setattr(seat, field, getattr(tally, field))
    return seats


# The reads of one sheet that every entry makes (the desk's and the phones'), compiled once
# (tournament.prepared); each in its own order: the models' default orderings join the sheet,
# its match, table and tournament to sort.
_LOCKED = Prepared(
    lambda pk: (
        Scoresheet.objects.select_for_update(of=("self",))
        .select_related("match__tournament", "table")
        .filter(pk=pk)
        .order_by()
    ),
    int,
)
_ENTRIES = Prepared(lambda sheet: GameEntry.objects.filter(scoresheet_id=sheet).order_by("number"), int)
_APPROVALS = Prepared(lambda sheet: Approval.objects.filter(scoresheet_id=sheet).order_by("number"), int)
_SEATS = Prepared(
    lambda table: Seat.objects.filter(table_id=table).select_related("participant").order_by("position"), int
)


def entries_of(sheet: Scoresheet) -> list[GameEntry]:
    """The sheet's entries in game order, each knowing its sheet (its points read the table's
    size from it)."""
    entries = _ENTRIES(sheet.pk)
    for entry in entries:
        entry.scoresheet = sheet
    return entries


def approvals_of_sheet(sheet: Scoresheet) -> list[Approval]:
    """The sheet's approvals in game order."""
    approvals = _APPROVALS(sheet.pk)
    for approval in approvals:
        approval.scoresheet = sheet
    return approvals


def seats_of(table_id: int) -> list[Seat]:
    """A table's seats in order, with their participants."""
    return _SEATS(table_id)


def discarded() -> ServiceError:
    return ServiceError(
        _(
            "This scoresheet belongs to a draw that was discarded: it is kept as it was "
            "and takes nothing more."
        )
    )


def locked_sheet(sheet: Scoresheet) -> Scoresheet:
    """The sheet read afresh and locked for the rest of the transaction, with its match,
    tournament and table. A sheet of a discarded draw is kept as it was: every write is refused.

    Only the sheet's row is locked: entries at other tables go on meanwhile (PostgreSQL would
    otherwise lock the shared match and tournament rows too). A new draw locks every sheet of the
    match before the tournament's row (``draw.services``), the order an entry takes them in: it
    waits for the entry, or the entry finds its draw discarded."""
    found = _LOCKED.first(sheet.pk)  # None: moved to the archived draw while the entry waited
    if found is None or found.match.is_discarded:
        raise discarded()
    return found


SEAT_FIELDS = ("points", *TALLY_FIELDS)


def _seat_values(seat: Seat) -> tuple:
    return tuple(getattr(seat, field) for field in SEAT_FIELDS)


_UPDATE_SEAT = Update(lambda pk: Seat.objects.filter(pk=pk), int, fields=SEAT_FIELDS)
_UPDATE_SHEET = Update(lambda pk: Scoresheet.objects.filter(pk=pk), int, fields=("status", "version"))


def _chunks(values: list, size: int = BATCH):
    for start in range(0, len(values), size):
        yield values[start : start + size]


def store_scored(
    scored_sheets: Iterable[tuple[Scoresheet, Sheet]],
    stored_entries: Iterable[GameEntry] | None = None,
    table_seats: Iterable[Seat] | None = None,
) -> dict[int, dict[int, GameEntry]]:
    """Store each sheet exactly as the engine scored it: its entries created, changed or removed
    to match the engine's rows, its seats' points and tie-break counts, its status (open or
    complete; a signed or void sheet stays so) and a new version. Call inside the transaction
    that locked the sheets, which then records the write (``audit.record``: its action raises
    the tournament's results version). Returns the stored entries by sheet and game number.
    ``stored_entries``: the entries of the sheets as just read in this transaction, when the
    caller has them (they are not read again). ``table_seats``: the seats of the one sheet's
    table as just read in this transaction, when the caller has them."""
    scored_sheets = list(scored_sheets)
    ids = [sheet.pk for sheet, _score in scored_sheets]
    existing: dict[int, dict[int, GameEntry]] = {pk: {} for pk in ids}
    seats: dict[int, list[Seat]] = {}
    # order_by(): the default orderings join the sheet, match, table and tournament to sort.
    if stored_entries is None:
        stored_entries = [
            e for chunk in _chunks(ids) for e in GameEntry.objects.filter(scoresheet_id__in=chunk).order_by()
        ]
    for entry in stored_entries:
        existing[entry.scoresheet_id][entry.number] = entry
    tables = [sheet.table_id for sheet, _score in scored_sheets]
    if table_seats is not None:
        (table,) = tables
        seats[table] = list(table_seats)
    else:
        for chunk in _chunks(tables):
            for seat in Seat.objects.filter(table_id__in=chunk).order_by():
                seats.setdefault(seat.table_id, []).append(seat)
    now = timezone.now()
    created, changed, removed, stored = [], [], [], {}
    changed_seats: list[Seat] = []
    for sheet, sheet_score in scored_sheets:
        before = existing[sheet.pk]
        after: dict[int, GameEntry] = {}
        for row in sheet_score.rows:
            values = {**fields_of(row.scored.entry), **scored_fields(row.scored)}
            entry = before.pop(row.number, None)
            if entry is None:
                entry = GameEntry(scoresheet=sheet, number=row.number, **values)
                created.append(entry)
            elif any(getattr(entry, key) != value for key, value in values.items()):
                for key, value in values.items():
                    setattr(entry, key, value)
                entry.updated = now
                changed.append(entry)
            after[row.number] = entry
        removed += [entry.pk for entry in before.values()]
        stored[sheet.pk] = after
        table = seats.get(sheet.table_id, [])
        was = {seat.pk: _seat_values(seat) for seat in table}
        changed_seats += [
            seat for seat in seat_totals(sheet_score, table) if _seat_values(seat) != was[seat.pk]
        ]
        if sheet.status not in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID):
            sheet.status = Scoresheet.Status.COMPLETE if sheet_score.complete else Scoresheet.Status.OPEN
        sheet.version += 1
    for chunk in _chunks(removed):
        GameEntry.objects.filter(pk__in=chunk).delete()
    GameEntry.objects.bulk_update(
        changed, [*DESCRIBING_FIELDS, *SCORED_FIELDS, "updated"], batch_size=BATCH // 4
    )
    if len(created) == 1:  # a game entered at a table: its INSERT compiled once
        insert(created[0])
    else:
        GameEntry.objects.bulk_create(created, batch_size=BATCH)
    # One statement each, executed for many rows (an entry at a table changes four or five
    # seats and one sheet; the ORM would build an UPDATE for each, or one CASE for all).
    _UPDATE_SEAT.many(
        [((seat.pk,), dict(zip(SEAT_FIELDS, _seat_values(seat), strict=True))) for seat in changed_seats]
    )
    _UPDATE_SHEET.many(
        [((sheet.pk,), {"status": sheet.status, "version": sheet.version}) for sheet, _score in scored_sheets]
    )
    return stored
