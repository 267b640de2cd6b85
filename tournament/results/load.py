"""One way to read scoresheets for showing them (issue 26, item 5): the desk, the public page,
the printed sheets, the workbook, the check of signed sheets and the table's phone all get a
``LoadedSheet`` (the sheet with its rows, each kind read by one query per batch) and draw it
through ``LoadedSheet.view``.

Two ways in, one result: ``load_sheets`` for many (in batches, with or without the signatures)
and ``load_sheet`` for the one sheet a table's phone shows after every write and poll, where
what a write has just stored (``Known``) and what the code's lookup already told about the sheet
(``SheetFacts``) are not read again."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db.models import Prefetch

from scoring.profiles import RuleProfile
from scoring.scoresheet import Sheet

from ..draw.models import Seat
from ..participants.models import Substitution
from ..prepared import Prepared
from .models import Approval, Correction, GameEntry, Scoresheet, Signature
from .sheet import SheetView, sheet_view
from .store import approvals_of_sheet, entries_of, seats_of

BATCH = 100  # sheets loaded at once: SQLite refuses the SQL of much larger prefetches


@dataclass(frozen=True)
class SheetFacts:
    """What a lookup of the sheet already told about its rows (the table code's lookup tells it
    in the same query): whether it has calls, how many signed it, whether its table has
    substitutes. A kind it has none of is not read."""

    calls: bool = True
    signed: int = 0
    substitutes: bool = True

    @property
    def absent(self) -> frozenset[str]:
        kinds = {"calls": not self.calls, "signatures": not self.signed, "substitutes": not self.substitutes}
        return frozenset(kind for kind, none in kinds.items() if none)


@dataclass(frozen=True)
class Known:
    """A sheet as a write has just left it, in the write's transaction: the sheet (locked, at
    its new version), its entries and approvals in game order, and the engine's score of them."""

    sheet: Scoresheet
    entries: list[GameEntry]
    approvals: list[Approval]
    score: Sheet
    seats: list[Seat]  # by position, with their participants


@dataclass(frozen=True)
class LoadedSheet:
    """One sheet with what a view of it shows: its entries and approvals in game order, its
    seats (with their participants and the participants' substitutes), its signatures (none
    where they were not asked for) and, where the write that read the rows has it, the score."""

    sheet: Scoresheet
    entries: list[GameEntry]
    approvals: list[Approval]
    seats: list[Seat]
    signatures: list[Signature]
    score: Sheet | None = None

    def view(self, rules: RuleProfile | None = None) -> SheetView:
        return sheet_view(self.sheet, self.entries, self.approvals, self.seats, rules, self.score)


def load_sheets(sheets: Iterable[Scoresheet], signing: bool = True) -> Iterator[LoadedSheet]:
    """The sheets, in their order, loaded in batches: entries, approvals, corrections, seats
    with their participants and substitutes, and unless ``signing`` is off the signatures.
    With ``signing`` the sheet objects keep what was read as their own related rows (the desk's
    page, the printed sheet and the digest of a signed sheet read them from there); without it
    (the workbook of a whole tournament, the public pages) the rows are read with one plain
    query per kind and batch and grouped here: prefetch_related would build a queryset for each
    of thousands of objects."""
    ids = [sheet.pk for sheet in sheets]
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        yield from (_prefetched(batch) if signing else _grouped_batch(batch))


def _prefetched(batch: list[int]) -> Iterator[LoadedSheet]:
    # Each in its own order: the models' default orderings go through the sheet, its match and
    # the tournament (a join of four tables for every read of one sheet's rows).
    seats = Prefetch(
        "table__seats", queryset=Seat.objects.select_related("participant").order_by("table_id", "position")
    )
    substitutes = Prefetch(
        "table__seats__participant__substitutions",
        queryset=Substitution.objects.order_by("participant_id", "from_match", "from_game"),
    )
    # The corrections always: a corrected row is marked wherever a sheet is shown (5.3.4).
    corrections = Prefetch("log", queryset=Correction.objects.all(), to_attr="prefetched_corrections")
    related = [
        seats,
        substitutes,
        Prefetch("entries", queryset=GameEntry.objects.order_by("scoresheet_id", "number")),
        Prefetch("approvals", queryset=Approval.objects.order_by("scoresheet_id", "number")),
        corrections,
        Prefetch("signatures", queryset=Signature.objects.order_by("scoresheet_id", "position")),
    ]
    found = {
        s.pk: s
        for s in Scoresheet.objects.filter(pk__in=batch)
        .select_related("table", "match__tournament")
        .prefetch_related(*related)
    }
    for pk in batch:
        sheet = found[pk]
        yield LoadedSheet(
            sheet,
            list(sheet.entries.all()),
            list(sheet.approvals.all()),
            list(sheet.table.seats.all()),
            list(sheet.signatures.all()),
        )


def _grouped_batch(batch: list[int]) -> Iterator[LoadedSheet]:
    found = Scoresheet.objects.filter(pk__in=batch).select_related("table", "match__tournament")
    by_id = {sheet.pk: sheet for sheet in found}
    seated_at = Seat.objects.filter(table__scoresheet__in=batch).select_related("participant")
    seats = _grouped(seated_at, "table_id")
    seated = [seat for group in seats.values() for seat in group]
    substitutes = _grouped(
        Substitution.objects.filter(participant__in={seat.participant_id for seat in seated}).order_by(
            "from_match", "from_game", "id"
        ),
        "participant_id",
    )
    for seat in seated:  # each seat has its own instance of the participant
        seat.participant.known_substitutions = substitutes.get(seat.participant_id, [])
    entries = _grouped(GameEntry.objects.filter(scoresheet__in=batch), "scoresheet_id")
    approvals = _grouped(Approval.objects.filter(scoresheet__in=batch), "scoresheet_id")
    corrections = _grouped(Correction.objects.filter(scoresheet__in=batch), "scoresheet_id")
    for pk in batch:
        sheet = by_id[pk]
        sheet.prefetched_corrections = corrections.get(pk, [])
        for entry in entries.get(pk, []):
            entry.scoresheet = sheet  # its points read the table's size from the sheet
        yield LoadedSheet(
            sheet,
            entries.get(pk, []),
            approvals.get(pk, []),
            sorted(seats.get(sheet.table_id, []), key=lambda seat: seat.position),
            [],
        )


_SHEET = Prepared(
    lambda pk: Scoresheet.objects.select_related("table", "match__tournament").filter(pk=pk).order_by(), int
)
_SUBSTITUTES = Prepared(
    lambda table: Substitution.objects.filter(participant__seats__table_id=table).order_by(
        "participant_id", "from_match", "from_game", "id"
    ),
    int,
)
_SIGNATURES = Prepared(lambda sheet: Signature.objects.filter(scoresheet_id=sheet).order_by("position"), int)
_CORRECTIONS = Prepared(lambda sheet: Correction.objects.filter(scoresheet_id=sheet), int)


def load_sheet(pk: int, known: Known | None = None, facts: SheetFacts | None = None) -> LoadedSheet:
    """The sheet ``pk`` with its rows, for the one sheet a table's phone shows after every
    write and poll: a few plain queries in each row's own order, compiled once
    (tournament.prepared; ``load_sheets``' prefetches cost several times as much for a single
    sheet), the corrections only where a signed sheet has them. What a write ``known`` has just
    written is taken from it, not read again, and so are the kinds of row the code's lookup
    found none of (``facts``; a game written adds none)."""
    if known is not None:
        sheet, seats = known.sheet, known.seats
    else:
        sheet = _SHEET(pk)[0]
        seats = seats_of(sheet.table_id)
    absent = facts.absent if known is not None and facts is not None else frozenset()
    substitutes = {} if "substitutes" in absent else _grouped(_SUBSTITUTES(sheet.table_id), "participant_id")
    for seat in seats:
        seat.participant.known_substitutions = substitutes.get(seat.participant_id, [])
    signed = sheet.status == Scoresheet.Status.SIGNED
    sheet.prefetched_corrections = _CORRECTIONS(sheet.pk) if signed else []
    signatures = [] if "signatures" in absent else _SIGNATURES(sheet.pk)
    if known is not None:
        return LoadedSheet(sheet, known.entries, known.approvals, seats, signatures, known.score)
    return LoadedSheet(sheet, entries_of(sheet), approvals_of_sheet(sheet), seats, signatures)


def _grouped(queryset, key: str) -> dict:
    groups: dict = {}
    for item in queryset:
        groups.setdefault(getattr(item, key), []).append(item)
    return groups
