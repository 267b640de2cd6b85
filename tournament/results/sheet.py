"""One view of a scoresheet, built from the rules engine, for everything that shows a sheet: the
referee's page, a participant's public page, the printed sheet and the Excel workbook.

``scoring.score_sheet`` computes every game's points, the running totals, the round checksums
(5.3.3), the circled soloist and which games are struck or downgraded; nothing here computes
them again."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from django.utils.translation import gettext as _

from scoring.entries import Points
from scoring.profiles import RuleProfile
from scoring.scoresheet import RoundTotal, Row, Sheet, dealer, score_sheet

from ..draw.models import Seat
from .models import Approval, GameEntry, Scoresheet
from .store import to_engine
from .text import describe_entry, short_entry


def note_text(struck: bool, downgraded: bool, approved: bool, corrected: bool = False) -> str:
    """The mark after a game's result on paper."""
    if corrected:
        return _("corrected")  # 5.3.4: the correction itself is listed under the grid
    if struck:
        return _("struck")  # 5.2.17
    if downgraded:
        return _("plain in game 1")  # 5.2.15
    if approved:
        return _("approved")  # 5.2.14, 5.2.16
    return ""


@dataclass(frozen=True)
class SeatLine:
    position: int
    number: int
    name: str  # who plays the seat from game 1 (5.2.11)
    later: tuple[tuple[int, str], ...]  # (from game, name) of a substitute within the match

    def name_at(self, game: int) -> str:
        """Who plays the seat in game ``game`` (5.2.11)."""
        name = self.name
        for first, later in self.later:
            if first <= game:
                name = later
        return name

    @property
    def signer(self) -> str:
        """Who signs for the seat: who plays its last game (5.2.11, 5.3.2), as the server records."""
        return self.later[-1][1] if self.later else self.name


@dataclass(frozen=True)
class RoundLine:
    """The line after a round's fourth game: its totals, or None while it has no game."""

    number: int
    total: RoundTotal | None
    kind = "round"


@dataclass(frozen=True)
class GameLine:
    """Game ``number`` of the sheet, entered or not."""

    number: int
    entry: GameEntry | None
    row: Row | None
    approval: Approval | None
    corrected: bool = False  # changed after signing (5.3.4)
    seats: int = 4  # at a table of five the dealer sits his game out (README readings)
    kind = "game"

    @property
    def dealer(self) -> int:
        return dealer(self.number, self.seats)

    @property
    def points(self) -> Points | None:
        return self.row.scored.points if self.row else None

    @property
    def running(self) -> Points | None:
        return self.row.running if self.row else None

    @property
    def struck(self) -> bool:
        return bool(self.row and self.row.scored.struck)

    @property
    def downgraded(self) -> bool:
        return bool(self.row and self.row.scored.downgraded)

    @property
    def approved(self) -> bool:
        """Needed the supervisor's approval and had it (5.2.14, 5.2.16)."""
        return bool(self.row and self.row.scored.needs_approval and not self.row.scored.struck)

    @property
    def circled(self) -> int | None:
        """The seat whose number is circled on the paper list: the soloist's (5.3.3)."""
        if self.row is None or self.row.scored.struck:
            return None
        return self.row.scored.soloist

    @property
    def note(self) -> str:
        return note_text(self.struck, self.downgraded, self.approved, self.corrected)

    @cached_property
    def text(self) -> str:
        return describe_entry(self.entry) if self.entry else ""

    @cached_property
    def short(self) -> tuple[str, str, str]:
        """(contract, players, result) in the usual German short forms."""
        return short_entry(self.entry) if self.entry else ("", "", "")


@dataclass(frozen=True)
class SheetView:
    sheet: Scoresheet
    rules: RuleProfile
    score: Sheet
    seats: tuple[SeatLine, ...]
    games: tuple[GameLine, ...]  # every game number of the match

    @property
    def size(self) -> int:
        """Four seats, or five where the dealer sits out (README readings)."""
        return self.score.seats

    @property
    def void(self) -> bool:
        """Declared void (5.3.6): its games count for nothing."""
        return self.sheet.status == Scoresheet.Status.VOID

    @property
    def rounds(self) -> tuple[RoundTotal, ...]:
        return self.score.rounds

    @property
    def totals(self) -> Points:
        return self.score.totals

    @property
    def entered(self) -> list[GameLine]:
        return [game for game in self.games if game.entry is not None]

    def lines(self) -> list[GameLine | RoundLine]:
        """The games in order, each round's line after its last game: the fourth (2.4.15), or
        the fifth at a table of five."""
        by_round = {total.number: total for total in self.score.rounds}
        size = self.size
        lines: list[GameLine | RoundLine] = []
        for game in self.games:
            lines.append(game)
            if game.number % size == 0:
                lines.append(RoundLine(game.number // size, by_round.get(game.number // size)))
        return lines

    def counted_points(self, position: int) -> list[tuple[GameLine, int, int]]:
        """Each entered game with what ``position`` scored in it and his running total, as the
        standings count them: nothing on a void sheet."""
        total, result = 0, []
        for game in self.entered:
            points = 0 if self.void or game.points is None else game.points[position - 1]
            total += points
            result.append((game, points, total))
        return result


def seat_lines(sheet: Scoresheet, seats: Iterable[Seat] | None = None) -> tuple[SeatLine, ...]:
    match = sheet.match.number
    if seats is None:
        seats = sheet.table.seats.select_related("participant").prefetch_related("participant__substitutions")
    lines = []
    for seat in seats:
        participant = seat.participant
        later = tuple(
            (s.from_game, s.name)
            for s in participant.substitutes
            if s.from_match == match and s.from_game > 1
        )
        lines.append(SeatLine(seat.position, participant.number, participant.player_name(match, 1), later))
    return tuple(sorted(lines, key=lambda line: line.position))


def sheet_view(
    sheet: Scoresheet,
    entries: Iterable[GameEntry] | None = None,
    approvals: Iterable[Approval] | None = None,
    seats: Iterable[Seat] | None = None,
    rules: RuleProfile | None = None,
    score: Sheet | None = None,
) -> SheetView:
    """The sheet as the engine scores it; entries, approvals and seats are read unless given
    (prefetched, say), and the score is computed unless given with them (by the write that
    scored exactly these entries and approvals)."""
    rules = rules or sheet.match.tournament.rules
    size = sheet.size
    entries = {e.number: e for e in (sheet.entries.all() if entries is None else entries)}
    approvals = {a.number: a for a in (sheet.approvals.all() if approvals is None else approvals)}
    if score is None:
        contracts = {number: approval.contract for number, approval in approvals.items()}
        score = score_sheet(
            [to_engine(e, contracts, rules, size) for e in entries.values()], rules, seats=size
        )
    rows = {row.number: row for row in score.rows}
    corrected = {c.number for c in sheet.corrections} if sheet.status == Scoresheet.Status.SIGNED else set()
    games = tuple(
        GameLine(
            number, entries.get(number), rows.get(number), approvals.get(number), number in corrected, size
        )
        for number in range(1, rules.games_for(size) + 1)
    )
    lines = seat_lines(sheet, seats)
    if sheet.status == Scoresheet.Status.SIGNED and sheet.signed_as:
        # A signed sheet shows the players as they signed, whatever was renamed since.
        signed = {seat["seat"]: seat["name"] for seat in sheet.signed_as.get("seats", [])}
        lines = tuple(
            replace(line, name=signed.get(line.position, line.name)) if not line.later else line
            for line in lines
        )
    return SheetView(sheet, rules, score, lines, games)
