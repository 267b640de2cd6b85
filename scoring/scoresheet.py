"""One table's scoresheet in one match: points per game, running totals, round checksums
(5.3.3, RULINGS 11), match totals, tie-break counts and the list of problems."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .entries import SEATS, ZERO, Entry, Points
from .outcome import Scored, score_entry
from .problems import Code, Problem
from .profiles import RuleProfile
from .ranking import Tally, total_tally


def dealer(game_number: int) -> int:
    """Seat 1 deals game 1, then clockwise (2.2.2, RULINGS 1)."""
    return (game_number - 1) % 4 + 1


def round_of(game_number: int) -> int:
    """Games 1–4 are round 1 (2.4.15)."""
    return (game_number - 1) // 4 + 1


def add(a: Points, b: Points) -> Points:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class Row:
    scored: Scored
    running: Points  # totals after this game

    @property
    def number(self) -> int:
        return self.scored.number

    @property
    def dealer(self) -> int:
        return dealer(self.scored.number)


@dataclass(frozen=True)
class RoundTotal:
    number: int
    subtotal: Points  # the round's games alone
    running: Points  # totals after the round
    games_entered: int

    @property
    def checksum(self) -> int:
        return sum(self.running)

    @property
    def complete(self) -> bool:
        return self.games_entered == 4


@dataclass(frozen=True)
class Sheet:
    profile: RuleProfile
    rows: tuple[Row, ...]
    rounds: tuple[RoundTotal, ...]
    totals: Points
    tallies: tuple[Tally, Tally, Tally, Tally]  # seats 1–4
    problems: tuple[Problem, ...]
    missing: tuple[int, ...]  # game numbers not yet entered

    @property
    def complete(self) -> bool:
        """Every game entered and every checksum zero: ready to be signed (5.3.2, RULINGS 11)."""
        return not self.missing and not self.problems

    @property
    def checksum(self) -> int:
        return sum(self.totals)

    def row(self, number: int) -> Row | None:
        return next((row for row in self.rows if row.number == number), None)


def score_sheet(entries: Iterable[Entry], profile: RuleProfile) -> Sheet:
    problems: list[Problem] = []
    by_number: dict[int, Entry] = {}
    for entry in entries:
        if entry.number in by_number:
            problems.append(Problem(Code.GAME_NUMBER_TWICE, game=entry.number, field="game"))
        else:
            by_number[entry.number] = entry

    scored: list[Scored] = []
    for number in sorted(by_number):
        result = score_entry(by_number[number], profile, scored)
        problems += result.problems
        scored.append(result)

    rows: list[Row] = []
    running = ZERO
    for result in scored:
        running = add(running, result.points)
        rows.append(Row(result, running))

    in_range = [s for s in scored if 1 <= s.number <= profile.games_per_match]
    rounds: list[RoundTotal] = []
    running = ZERO
    last_round = round_of(max((s.number for s in in_range), default=0)) if in_range else 0
    for number in range(1, last_round + 1):
        games = [s for s in in_range if round_of(s.number) == number]
        subtotal = ZERO
        for result in games:
            subtotal = add(subtotal, result.points)
        running = add(running, subtotal)
        total = RoundTotal(number, subtotal, running, len(games))
        if total.checksum:
            problems.append(Problem(Code.ROUND_CHECKSUM_NOT_ZERO, round=number, value=total.checksum))
        rounds.append(total)

    totals = rows[-1].running if rows else ZERO
    if sum(totals):
        problems.append(Problem(Code.MATCH_CHECKSUM_NOT_ZERO, value=sum(totals)))
    entered = {s.number for s in scored}
    missing = tuple(n for n in range(1, profile.games_per_match + 1) if n not in entered)
    highest = max((s.number for s in in_range), default=0)
    problems += [Problem(Code.GAME_MISSING, game=n) for n in missing if n < highest]
    # A game counts only in its declarer's tally (RULINGS 13).
    declared: dict[int, list[Tally]] = {seat: [] for seat in SEATS}
    for result in scored:
        if result.counted and result.kind is not None and result.kind.declarer in declared:
            declared[result.kind.declarer].append(result.tally(result.kind.declarer))
    tallies = tuple(total_tally(declared[seat]) for seat in SEATS)
    return Sheet(
        profile=profile,
        rows=tuple(rows),
        rounds=tuple(rounds),
        totals=totals,
        tallies=tallies,  # type: ignore[arg-type]
        problems=tuple(problems),
        missing=missing,
    )
