"""The draw of tables and seats by lot (5.2.2).

Every match seats the participants four to a table; seat 1 deals game 1. Across matches the draw
keeps table-mates from meeting again: the number of repeated pairs is minimised, and is zero
whenever the search finds a way (the "social golfer" problem).

- 16 participants (the hard small case): the affine plane over GF(4) has 5 parallel classes of
  4 lines of 4 points, and any two points share exactly one line, so up to 5 matches are drawn
  with nobody meeting anyone twice.
- Otherwise a tabu search swaps participants between tables of one match until no pair meets
  twice or the budget is spent. The budget counts steps, not seconds: the same seed always gives
  the same draw, on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .problems import Code, Problem

TableSeats = tuple[int, int, int, int]  # participants on seats 1–4
MatchDraw = tuple[TableSeats, ...]  # tables 1…n


@dataclass(frozen=True)
class Draw:
    matches: tuple[MatchDraw, ...]
    repeats: int  # pairs of table-mates beyond their first meeting, over all matches


def draw_problems(count: int) -> list[Problem]:
    """A draw needs whole tables: four participants each."""
    if count < 4 or count % 4:
        return [Problem(Code.PARTICIPANTS_NOT_MULTIPLE_OF_FOUR, value=count)]
    return []


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def repeated_pairs(matches: Sequence[Sequence[Sequence[int]]]) -> int:
    """How often table-mates met beyond their first meeting."""
    counts: dict[tuple[int, int], int] = {}
    for match in matches:
        for table in match:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    counts[_pair(a, b)] = counts.get(_pair(a, b), 0) + 1
    return sum(c - 1 for c in counts.values() if c > 1)


# GF(4) = {0, 1, a, a+1} as 0..3: addition is XOR, multiplication by the table below.
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _affine_plane_classes() -> list[list[list[int]]]:
    """The 5 parallel classes of AG(2, 4) on points 4x + y."""
    classes = [[[4 * x + (_GF4_MUL[slope][x] ^ b) for x in range(4)] for b in range(4)] for slope in range(4)]
    classes.append([[4 * c + y for y in range(4)] for c in range(4)])
    return classes


class _Search:
    """Tabu search over the tables of the matches being drawn, with the other matches fixed."""

    def __init__(self, rng: random.Random, fixed: Sequence[Sequence[Sequence[int]]]) -> None:
        self.rng = rng
        self.counts: dict[tuple[int, int], int] = {}
        for match in fixed:
            for table in match:
                self._add_table(table, 1)

    def _add_table(self, table: Sequence[int], sign: int) -> None:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                key = _pair(a, b)
                self.counts[key] = self.counts.get(key, 0) + sign

    def cost(self) -> int:
        return sum(c - 1 for c in self.counts.values() if c > 1)

    def _meets(self, a: int, b: int) -> int:
        return self.counts.get(_pair(a, b), 0)

    def _delta(self, table_a: list[int], a: int, table_b: list[int], b: int) -> int:
        """Change of the repeat count if a and b swap tables."""
        delta = 0
        for x in table_a:
            if x != a:
                delta += (self._meets(b, x) >= 1) - (self._meets(a, x) >= 2)
        for y in table_b:
            if y != b:
                delta += (self._meets(a, y) >= 1) - (self._meets(b, y) >= 2)
        return delta

    def _conflicted(self, tables: list[list[int]]) -> list[tuple[int, int]]:
        """(table index, participant) for everyone sitting with somebody met before."""
        found = []
        for index, table in enumerate(tables):
            for a in table:
                if any(x != a and self._meets(a, x) >= 2 for x in table):
                    found.append((index, a))
        return found

    def improve(self, tables: list[list[int]], budget: int) -> list[list[int]]:
        """Swap participants between the tables of one match, which already counts in
        ``counts``, until nobody meets anybody twice or ``budget`` steps are spent."""
        rng = self.rng
        tabu: dict[int, int] = {}
        seat_of = {a: i for i, table in enumerate(tables) for a in table}
        cost = self.cost()
        best_cost, best = cost, [list(t) for t in tables]
        for step in range(budget):
            if cost == 0:
                break
            conflicted = self._conflicted(tables)
            if not conflicted:
                break
            index_a, a = conflicted[rng.randrange(len(conflicted))]
            table_a = tables[index_a]
            choice = None
            choice_delta = None
            ties = 0
            for b, index_b in seat_of.items():
                if index_b == index_a:
                    continue
                delta = self._delta(table_a, a, tables[index_b], b)
                if tabu.get(b, -1) >= step and cost + delta >= best_cost:
                    continue  # tabu, unless it beats the best found (aspiration)
                if choice_delta is None or delta < choice_delta:
                    choice, choice_delta, ties = (b, index_b), delta, 1
                elif delta == choice_delta:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        choice = (b, index_b)
            if choice is None:
                continue
            b, index_b = choice
            table_b = tables[index_b]
            self._add_table(table_a, -1)
            self._add_table(table_b, -1)
            table_a[table_a.index(a)] = b
            table_b[table_b.index(b)] = a
            self._add_table(table_a, 1)
            self._add_table(table_b, 1)
            seat_of[a], seat_of[b] = index_b, index_a
            cost += choice_delta or 0
            tabu[a] = step + 3 + rng.randrange(4)
            tabu[b] = step + 3 + rng.randrange(4)
            if cost < best_cost:
                best_cost, best = cost, [list(t) for t in tables]
        if cost > best_cost:
            for table in tables:
                self._add_table(table, -1)
            for table in best:
                self._add_table(table, 1)
            tables[:] = best
        return tables


def _seat(rng: random.Random, tables: list[list[int]]) -> MatchDraw:
    """Number the tables and the seats by lot."""
    seated: list[TableSeats] = []
    for table in tables:
        seats = list(table)
        rng.shuffle(seats)
        first, second, third, fourth = seats
        seated.append((first, second, third, fourth))
    rng.shuffle(seated)
    return tuple(seated)


_PASSES = 3


def _budget(count: int) -> int:
    return 1200 if count <= 64 else 400


def draw_matches(
    participants: Sequence[int],
    matches: int,
    seed: str,
    fixed: Sequence[Sequence[Sequence[int]]] = (),
) -> Draw:
    """Draw ``matches`` matches of ``participants`` (ids), table-mates of the ``fixed`` matches
    (drawn earlier and kept) counting as met. Reproducible from ``seed``."""
    players = sorted(set(participants))
    if draw_problems(len(players)):
        raise ValueError(f"cannot seat {len(players)} participants at tables of four")
    rng = random.Random(f"schafkopf-draw|{seed}|{len(players)}|{matches}")
    shuffled = list(players)
    rng.shuffle(shuffled)
    drawn: list[list[list[int]]] = []
    if len(players) == 16 and matches <= 5 and not fixed:
        classes = _affine_plane_classes()
        rng.shuffle(classes)
        drawn = [[[shuffled[p] for p in line] for line in cls] for cls in classes[:matches]]
    else:
        search = _Search(rng, fixed)
        for _ in range(matches):
            order = list(players)
            rng.shuffle(order)
            tables = [order[i : i + 4] for i in range(0, len(order), 4)]
            for table in tables:
                search._add_table(table, 1)
            drawn.append(search.improve(tables, _budget(len(players))))
        # Later matches may have been left with repeats: revisit every match in turn.
        for _ in range(_PASSES):
            if search.cost() == 0:
                break
            for index in rng.sample(range(len(drawn)), len(drawn)):
                drawn[index] = search.improve(drawn[index], _budget(len(players)))
    seated = tuple(_seat(rng, tables) for tables in drawn)
    return Draw(seated, repeated_pairs([*fixed, *seated]))
