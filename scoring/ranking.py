"""Standings order: points, then the 5.4.2 tie-break, then lots (RULINGS 13)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Tally:
    """A participant's counts of games played as declarer, in the order of 5.4.2 a–e.
    Touts count in b and c only; plain Solo and Wenz in d and e (RULINGS 13)."""

    sie: int = 0
    tout_won: int = 0
    tout_played: int = 0
    solo_won: int = 0
    solo_played: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[int, int, int, int, int]:
        return (self.sie, self.tout_won, self.tout_played, self.solo_won, self.solo_played)


# The criteria in their order of precedence, as named in the ``standings`` output (EXCHANGE.md).
CRITERIA: tuple[str, ...] = ("points", "sie", "tout_won", "tout_played", "solo_won", "solo_played")

Key = tuple[int, ...]


def tiebreak_key(points: int, tally: Tally) -> Key:
    """Higher is better in every position (5.4.1, 5.4.2)."""
    return (points, *tally.as_tuple())


def total_tally(tallies: Iterable[Tally]) -> Tally:
    columns = zip(*(tally.as_tuple() for tally in tallies), strict=True)
    return Tally(*(sum(column) for column in columns))


@dataclass(frozen=True)
class Placed(Generic[T]):
    item: T
    rank: int
    key: Key
    by_lot: bool = False  # the rank was decided by drawing lots


def rank(
    items: Iterable[T],
    key: Callable[[T], Key],
    ident: Callable[[T], Hashable] = id,
    lots: Mapping[Hashable, int] | None = None,
) -> list[Placed[T]]:
    """Best first, competition ranking (1, 2, 2, 4): equal keys share a rank.

    ``lots`` maps the ident of a tied participant to his position in the lot drawn for his
    group (0 first). A tied group whose members all have a lot is ordered by it and gets
    distinct ranks; otherwise the group keeps its shared rank."""
    lots = lots or {}
    keyed = sorted(((key(item), item) for item in items), key=lambda pair: pair[0], reverse=True)
    placed: list[Placed[T]] = []
    start = 0
    while start < len(keyed):
        end = start
        while end < len(keyed) and keyed[end][0] == keyed[start][0]:
            end += 1
        group = keyed[start:end]
        shared_rank = start + 1
        if len(group) > 1 and all(ident(item) in lots for _, item in group):
            group.sort(key=lambda pair: lots[ident(pair[1])])
            placed += [
                Placed(item, shared_rank + offset, k, by_lot=True) for offset, (k, item) in enumerate(group)
            ]
        else:
            group.sort(key=lambda pair: _in_order(ident(pair[1])))
            placed += [Placed(item, shared_rank, k) for k, item in group]
        start = end
    return placed


def _in_order(ident: Hashable) -> tuple[int, int, str]:
    """Tied participants without lots are listed by start number: 2 before 10."""
    if isinstance(ident, int):
        return (0, ident, "")
    return (1, 0, str(ident))


def new_seed() -> str:
    return secrets.token_hex(8)


def draw_lots(tied: Iterable[Hashable], seed: str) -> list[Hashable]:
    """The order of a tied group decided by lot, reproducible from ``seed``: the same seed and
    the same group always give the same order, whatever order the group is passed in."""
    members = sorted(tied, key=str)
    rng = random.Random(f"{seed}|{'|'.join(map(str, members))}")
    rng.shuffle(members)
    return members
