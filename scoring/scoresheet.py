"""One table's scoresheet in one match: points per game, running totals, round checksums
(5.3.3, RULINGS 11), match totals, tie-break counts and the list of problems.

A table of five has five columns, rounds of five games and a match of ``games_for(5)`` games;
the dealer sits out the game he dealt with 0 points (tables of five, README readings)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .entries import Entry, Points, dealer, round_of, seats_of, zero
from .outcome import Scored, score_entry
from .problems import Code, Problem
from .profiles import RuleProfile
from .ranking import Tally, total_tally

# dealer and round_of live in entries, where describing an entry needs them too.
__all__ = ["RoundTotal", "Row", "Sheet", "add", "dealer", "round_of", "score_sheet"]


def add(a: Points, b: Points) -> Points:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class Row:
    scored: Scored
    running: Points  # totals after this game
    seats: int = 4

    @property
    def number(self) -> int:
        return self.scored.number

    @property
    def dealer(self) -> int:
        return dealer(self.scored.number, self.seats)


@dataclass(frozen=True)
class RoundTotal:
    number: int
    subtotal: Points  # the round's games alone
    running: Points  # totals after the round
    games_entered: int
    seats: int = 4

    @property
    def checksum(self) -> int:
        return sum(self.running)

    @property
    def complete(self) -> bool:
        """Each seat has dealt once (2.4.15): four games, five at a table of five."""
        return self.games_entered == self.seats


@dataclass(frozen=True)
class Sheet:
    profile: RuleProfile
    rows: tuple[Row, ...]
    rounds: tuple[RoundTotal, ...]
    totals: Points
    tallies: tuple[Tally, ...]  # one per seat
    problems: tuple[Problem, ...]
    missing: tuple[int, ...]  # game numbers not yet entered
    seats: int = 4

    @property
    def complete(self) -> bool:
        """Every game entered and every checksum zero: ready to be signed (5.3.2, RULINGS 11)."""
        return not self.missing and not self.problems

    @property
    def checksum(self) -> int:
        return sum(self.totals)

    def row(self, number: int) -> Row | None:
        return next((row for row in self.rows if row.number == number), None)


def score_sheet(entries: Iterable[Entry], profile: RuleProfile, seats: int = 4) -> Sheet:
    problems: list[Problem] = []
    by_number: dict[int, Entry] = {}
    for entry in entries:
        if entry.number in by_number:
            problems.append(Problem(Code.GAME_NUMBER_TWICE, game=entry.number, field="game"))
        else:
            by_number[entry.number] = entry

    scored: list[Scored] = []
    for number in sorted(by_number):
        result = score_entry(by_number[number], profile, scored, seats)
        problems += result.problems
        scored.append(result)

    rows: list[Row] = []
    running = zero(seats)
    for result in scored:
        running = add(running, result.points)
        rows.append(Row(result, running, seats))

    games_in_match = profile.games_for(seats)
    in_range = [s for s in scored if 1 <= s.number <= games_in_match]
    rounds: list[RoundTotal] = []
    running = zero(seats)
    last_round = round_of(max((s.number for s in in_range), default=0), seats) if in_range else 0
    for number in range(1, last_round + 1):
        games = [s for s in in_range if round_of(s.number, seats) == number]
        subtotal = zero(seats)
        for result in games:
            subtotal = add(subtotal, result.points)
        running = add(running, subtotal)
        total = RoundTotal(number, subtotal, running, len(games), seats)
        if total.checksum:
            problems.append(Problem(Code.ROUND_CHECKSUM_NOT_ZERO, round=number, value=total.checksum))
        rounds.append(total)

    totals = rows[-1].running if rows else zero(seats)
    if sum(totals):
        problems.append(Problem(Code.MATCH_CHECKSUM_NOT_ZERO, value=sum(totals)))
    entered = {s.number for s in scored}
    missing = tuple(n for n in range(1, games_in_match + 1) if n not in entered)
    highest = max((s.number for s in in_range), default=0)
    problems += [Problem(Code.GAME_MISSING, game=n) for n in missing if n < highest]
    # A game counts only in its declarer's tally (RULINGS 13).
    declared: dict[int, list[Tally]] = {seat: [] for seat in seats_of(seats)}
    for result in scored:
        if result.counted and result.kind is not None and result.kind.declarer in declared:
            declared[result.kind.declarer].append(result.tally(result.kind.declarer))
    tallies = tuple(total_tally(declared[seat]) for seat in seats_of(seats))
    return Sheet(
        profile=profile,
        rows=tuple(rows),
        rounds=tuple(rounds),
        totals=totals,
        tallies=tallies,
        problems=tuple(problems),
        missing=missing,
        seats=seats,
    )
