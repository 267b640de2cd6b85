"""Recognising a paper-list row (RULINGS 12).

Four numbers in seat order and, for a soloist game, the circled seat (5.3.3). The row is
accepted iff it sums to zero and exactly one kind of entry of the profile's point and sanction
tables gives these numbers for that declarer. Sanctions are written uncircled.

At a table of five the row has five numbers: the dealer's is 0, since he sits out the game he
dealt, and the other four are recognised as a row of four (tables of five, README readings).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from .describe import Described
from .entries import SEATS, Family, Kind, Level, Transcribed, playing, seats_of, sitting_out
from .points import points_of
from .problems import Code, Problem
from .profiles import RuleProfile


def candidate_kinds(declarer: int | None, players: Sequence[int] = SEATS) -> Iterator[Kind]:
    """Every kind a row may be: soloist kinds of the circled seat, or every uncircled kind of
    the four ``players``."""
    if declarer is not None:
        for won in (True, False):
            for level in Level:
                yield Kind(Family.SOLO, level=level, won=won, declarer=declarer)
            yield Kind(Family.TOUT, won=won, declarer=declarer)
        yield Kind(Family.SIE, won=True, declarer=declarer)
        return
    for pair in combinations(players, 2):
        for level in Level:
            yield Kind(Family.RUFER, level=level, winners=frozenset(pair))
    for liable in players:
        for other in players:
            if other != liable:
                yield Kind(Family.SANCTION_RUFER, liable=liable, liable_partner=other)
            for family in (Family.SANCTION_SOLO, Family.SANCTION_TOUT):
                yield Kind(family, liable=liable, declarer=other)


def _not_in_first_game(kind: Kind) -> Code | None:
    """RULINGS 5 and 6: in game 1 a paper list cannot hold a Sie, a Tout or a Schwarz Solo."""
    if kind.family is Family.SIE:
        return Code.SIE_IN_FIRST_GAME
    if kind.family in (Family.TOUT, Family.SANCTION_TOUT) or (
        kind.family is Family.SOLO and kind.level is Level.SCHWARZ
    ):
        return Code.TOUT_OR_SCHWARZ_IN_FIRST_GAME
    return None


def transcribe(row: Transcribed, profile: RuleProfile, seats: int = 4) -> Described:
    n = row.number
    problems: list[Problem] = []
    in_range = 1 <= n <= profile.games_for(seats)
    if not in_range:
        problems.append(Problem(Code.GAME_NUMBER_OUT_OF_RANGE, game=n, field="game", value=n))
    out = sitting_out(n, seats) if in_range else None
    if row.declarer is not None and row.declarer not in seats_of(seats):
        problems.append(
            Problem(Code.SEAT_OUT_OF_RANGE, game=n, field="declarer", value=row.declarer, seats=seats)
        )
    elif row.declarer is not None and row.declarer == out:
        problems.append(
            Problem(Code.SEAT_SITS_OUT, game=n, field="declarer", value=row.declarer, seats=seats)
        )
    numbers = row.points
    if len(numbers) != seats or any(isinstance(v, bool) or not isinstance(v, int) for v in numbers):
        problems.append(Problem(Code.POINTS_NOT_FOUR, game=n, field="points", seats=seats))
    elif out is not None and numbers[out - 1] != 0:
        problems.append(
            Problem(Code.DEALER_POINTS_NOT_ZERO, game=n, seat=out, field="points", value=numbers[out - 1])
        )
    elif sum(numbers) != 0:
        problems.append(
            Problem(Code.POINTS_DO_NOT_SUM_TO_ZERO, game=n, field="points", value=sum(numbers), seats=seats)
        )
    if problems:
        return Described(None, tuple(problems))
    matches = [
        k
        for k in candidate_kinds(row.declarer, playing(n, seats))
        if points_of(k, profile, seats, out) == tuple(numbers)
    ]
    if n == 1:
        refused = [(k, _not_in_first_game(k)) for k in matches]
        allowed = [k for k, code in refused if code is None]
        if not allowed and matches:
            code = refused[0][1]
            assert code is not None
            return Described(None, (Problem(code, game=n, field="points"),))
        matches = allowed
    if not matches:
        return Described(None, (Problem(Code.POINTS_MATCH_NOTHING, game=n, field="points"),))
    if len(matches) > 1:
        return Described(None, (Problem(Code.POINTS_AMBIGUOUS, game=n, field="points", value=len(matches)),))
    return Described(matches[0])
