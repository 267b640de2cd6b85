"""The one way a scoresheet is read for showing (issue 26): the desk, the table's phone, the
public pages, the printed sheet, the workbook and ``verify`` all read a sheet through ``load``
(one sheet) or ``load_many`` (many, in batches), and get a ``LoadedSheet``: the sheet with its
entries, approvals, seats (with their players and substitutes), signatures and corrections, and
the engine's score of it. ``locked_sheet`` reads one for a write.

What a caller already knows about the sheet comes in as values (``Known``: what a write just
wrote; ``SheetFacts``: what the table code's lookup counted), never as annotations on the model
object. Each kind of row is read by one plain query (compiled once for one sheet,
tournament.prepared; grouped per batch for many): Django's prefetches cost several times as
much for a single sheet and build a queryset for each of thousands of objects for many."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from scoring.profiles import RuleProfile
from scoring.scoresheet import Sheet, score_sheet

from ..draw.models import Seat
from ..participants.models import Substitution
from ..prepared import Prepared
from .models import Approval, Correction, GameEntry, Scoresheet, Signature
from .sheet import Known, SheetView, sheet_view
from .store import approvals_of_sheet, entries_of, locked_sheet, seats_of, to_engine

__all__ = ["BATCH", "LoadedSheet", "SheetFacts", "load", "load_many", "locked_sheet"]

BATCH = 100  # sheets loaded at once: SQLite refuses the SQL of much larger queries


@dataclass(frozen=True)
class SheetFacts:
    """What a caller already knows about a sheet without reading it (the table code's lookup
    counts them in the same query): None where it does not know."""

    calls_waiting: bool | None = None  # approval calls of the table still waiting
    substitutes: bool | None = None  # whether any player at the table has a substitute
    signatures: int | None = None  # how many signatures the sheet has

    @classmethod
    def from_absent(cls, absent: Iterable[str]) -> SheetFacts:
        """The facts a list of the kinds of row known to be absent tells ("calls",
        "substitutes", "signatures")."""
        absent = set(absent)
        return cls(
            calls_waiting=False if "calls" in absent else None,
            substitutes=False if "substitutes" in absent else None,
            signatures=0 if "signatures" in absent else None,
        )


@dataclass(frozen=True)
class LoadedSheet:
    """One sheet with everything a view of it shows, and its score (computed once, or the
    write's own where a write just scored exactly these rows)."""

    sheet: Scoresheet
    entries: list[GameEntry]  # in game order
    approvals: list[Approval]  # in game order
    seats: list[Seat]  # by position, with their participants and the participants' substitutes
    signatures: list[Signature]  # by position; empty where not read (``signing`` off)
    rules: RuleProfile
    known_score: Sheet | None = None

    @cached_property
    def score(self) -> Sheet:
        if self.known_score is not None:
            return self.known_score
        contracts = {approval.number: approval.contract for approval in self.approvals}
        size = self.sheet.size
        return score_sheet(
            [to_engine(e, contracts, self.rules, size) for e in self.entries], self.rules, seats=size
        )

    @cached_property
    def view(self) -> SheetView:
        return sheet_view(self.sheet, self.entries, self.approvals, self.seats, self.rules, self.score)


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


def load(
    pk: int, known: Known | None = None, facts: SheetFacts | None = None, rules: RuleProfile | None = None
) -> LoadedSheet:
    """The sheet ``pk`` with its rows: a few plain queries in each row's own order, the
    corrections only where a signed sheet has them. What a write ``known`` has just written is
    taken from it, not read again, and so are the kinds of row ``facts`` say it has none of
    (a game written adds none)."""
    if known is not None:
        sheet, seats = known.sheet, known.seats
    else:
        sheet = _SHEET(pk)[0]
        seats = seats_of(sheet.table_id)
    facts = facts if facts is not None and known is not None else SheetFacts()
    substitutes = (
        {} if facts.substitutes is False else _grouped(_SUBSTITUTES(sheet.table_id), "participant_id")
    )
    for seat in seats:
        seat.participant.known_substitutions = substitutes.get(seat.participant_id, [])
    # Corrections only where the sheet was ever signed (it has a digest, 5.3.4): voided since too.
    sheet.prefetched_corrections = _CORRECTIONS(sheet.pk) if sheet.digest else []
    signatures = [] if facts.signatures == 0 else _SIGNATURES(sheet.pk)
    rules = rules or sheet.match.tournament.rules
    if known is not None:
        return LoadedSheet(sheet, known.entries, known.approvals, seats, signatures, rules, known.score)
    return LoadedSheet(sheet, entries_of(sheet), approvals_of_sheet(sheet), seats, signatures, rules)


def load_many(
    sheets: Iterable[Scoresheet], rules: RuleProfile | None = None, signing: bool = True
) -> Iterator[LoadedSheet]:
    """Each sheet loaded, in their order, in batches of ``BATCH``: one plain query per kind of
    row and batch, grouped here. ``signing`` off (the workbook): no signatures read."""
    ids = [sheet.pk for sheet in sheets]
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        found = Scoresheet.objects.filter(pk__in=batch).select_related("table", "match__tournament")
        by_id = {sheet.pk: sheet for sheet in found}
        seats = _grouped(
            Seat.objects.filter(table__scoresheet__in=batch).select_related("participant").order_by(),
            "table_id",
        )
        seated = [seat for group in seats.values() for seat in group]
        substitutes = _grouped(
            Substitution.objects.filter(participant__in={seat.participant_id for seat in seated}).order_by(
                "from_match", "from_game", "id"
            ),
            "participant_id",
        )
        for seat in seated:  # each seat has its own instance of the participant
            seat.participant.known_substitutions = substitutes.get(seat.participant_id, [])
        entries = _grouped(GameEntry.objects.filter(scoresheet__in=batch).order_by("number"), "scoresheet_id")
        approvals = _grouped(
            Approval.objects.filter(scoresheet__in=batch).order_by("number"), "scoresheet_id"
        )
        corrections = _grouped(Correction.objects.filter(scoresheet__in=batch), "scoresheet_id")
        signatures = (
            _grouped(Signature.objects.filter(scoresheet__in=batch).order_by("position"), "scoresheet_id")
            if signing
            else {}
        )
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
                signatures.get(pk, []),
                rules or sheet.match.tournament.rules,
            )


def _grouped(queryset, key: str) -> dict:
    groups: dict = {}
    for item in queryset:
        groups.setdefault(getattr(item, key), []).append(item)
    return groups
