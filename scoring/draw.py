"""The draw of tables and seats by lot (5.2.2).

Every match seats the participants four to a table; seat 1 deals game 1. A field that does not
divide by four seats as few tables of five as it can (N = 4a + 5b, b smallest; tables of five,
README readings), numbered last, where the dealer sits out the game he dealt. Who sits at a
table of five is drawn by lot among those who have sat at one least often in the other matches:
nobody sits at a table of five twice while others have not. Across matches the draw keeps
table-mates from meeting again: the number of repeated pairs is minimised, and is zero whenever
the search finds a way (the "social golfer" problem).

- 16 participants (the hard small case): the affine plane over GF(4) has 5 parallel classes of
  4 lines of 4 points, and any two points share exactly one line, so up to 5 matches are drawn
  with nobody meeting anyone twice.
- Otherwise a tabu search swaps participants between tables of one match until no pair meets
  twice or the budget is spent. The budget counts steps, not seconds: the same seed always gives
  the same draw, on any machine. A swap between a table of four and a table of five is made
  only between participants who have sat at a table of five equally often before, so the search
  never undoes the fairness of the tables of five.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .problems import Code, Problem

TableSeats = tuple[int, ...]  # participants on seats 1–4, or 1–5 at a table of five
MatchDraw = tuple[TableSeats, ...]  # tables 1…n, the tables of five last
Tables = Sequence[Sequence[Sequence[int]]]  # matches → tables → participants on seats 1…


@dataclass(frozen=True)
class Draw:
    matches: tuple[MatchDraw, ...]
    repeats: int  # pairs of table-mates beyond their first meeting, over all matches


def table_sizes(count: int, tables_of_five: bool = True) -> tuple[int, int] | None:
    """(tables of four, tables of five) for ``count`` participants, with as few tables of five
    as the count allows, or None when no draw seats them all. 5b ≡ b (mod 4), so b is
    ``count % 4``: at most three tables of five, and 1–3, 6, 7 and 11 cannot be seated."""
    fives = count % 4 if tables_of_five else 0
    if count < 4 or (count % 4 and not tables_of_five) or count < 5 * fives:
        return None
    return (count - 5 * fives) // 4, fives


def draw_problems(count: int, tables_of_five: bool = True) -> list[Problem]:
    """A draw needs whole tables: four participants each, or five where the profile allows."""
    if table_sizes(count, tables_of_five) is not None:
        return []
    if tables_of_five:
        return [Problem(Code.PARTICIPANTS_DO_NOT_FILL_TABLES, value=count)]
    return [Problem(Code.PARTICIPANTS_NOT_MULTIPLE_OF_FOUR, value=count)]


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def repeated_pairs(matches: Tables) -> int:
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

    def __init__(self, rng: random.Random, fixed: Tables) -> None:
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

    def improve(
        self, tables: list[list[int]], budget: int, fives_before: Mapping[int, int] | None = None
    ) -> list[list[int]]:
        """Swap participants between the tables of one match, which already counts in
        ``counts``, until nobody meets anybody twice or ``budget`` steps are spent. Between a
        table of four and a table of five only participants who sat at one equally often
        before (``fives_before``) swap, and nobody without it: the tables of five stay with
        those who sat at one least often."""
        rng = self.rng
        five = {a for table in tables if len(table) == 5 for a in table}
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
                if (
                    five
                    and (a in five) != (b in five)
                    and (fives_before is None or fives_before.get(a, 0) != fives_before.get(b, 0))
                ):
                    continue  # who sits at a table of five stays fair
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
            if (a in five) != (b in five):
                five ^= {a, b}
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
    """Number the tables and the seats by lot: the tables of four first, then the tables of
    five, so that seat 5 is only found at the last tables of the hall."""
    seated: list[TableSeats] = []
    for table in tables:
        seats = list(table)
        rng.shuffle(seats)
        seated.append(tuple(seats))
    fours = [table for table in seated if len(table) == 4]
    fives = [table for table in seated if len(table) == 5]
    rng.shuffle(fours)
    rng.shuffle(fives)
    return (*fours, *fives)


_PASSES = 3


def _budget(count: int) -> int:
    return 1200 if count <= 64 else 400


def fives_seated(matches: Tables) -> dict[int, int]:
    """How often each participant sat at a table of five in ``matches``."""
    counts: dict[int, int] = {}
    for match in matches:
        for table in match:
            if len(table) == 5:
                for participant in table:
                    counts[participant] = counts.get(participant, 0) + 1
    return counts


def _first_tables(
    rng: random.Random, players: list[int], fives: int, fives_before: Mapping[int, int]
) -> list[list[int]]:
    """The tables of a match before the search, by lot: the tables of four, then the tables of
    five, taken by those who sat at one least often before."""
    order = list(players)
    rng.shuffle(order)
    if fives:
        order.sort(key=lambda participant: fives_before.get(participant, 0))  # stable: by lot
    at_five, at_four = order[: 5 * fives], order[5 * fives :]
    tables = [at_four[i : i + 4] for i in range(0, len(at_four), 4)]
    return tables + [at_five[i : i + 5] for i in range(0, len(at_five), 5)]


def draw_matches(
    participants: Sequence[int],
    matches: int,
    seed: str,
    fixed: Tables = (),
    tables_of_five: bool = True,
) -> Draw:
    """Draw ``matches`` matches of ``participants`` (ids), table-mates of the ``fixed`` matches
    (drawn earlier and kept) counting as met, and their tables of five as sat at.
    Reproducible from ``seed``."""
    players = sorted(set(participants))
    sizes = table_sizes(len(players), tables_of_five)
    if sizes is None:
        kinds = "tables of four and five" if tables_of_five else "tables of four"
        raise ValueError(f"cannot seat {len(players)} participants at {kinds}")
    fives = sizes[1]
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
        budget = _budget(len(players))
        fives_before = fives_seated(fixed)  # the other matches, drawn and kept
        for _ in range(matches):
            tables = _first_tables(rng, players, fives, fives_before)
            for table in tables:
                search._add_table(table, 1)
            drawn.append(search.improve(tables, budget, fives_before))
            for participant in (p for table in drawn[-1] if len(table) == 5 for p in table):
                fives_before[participant] = fives_before.get(participant, 0) + 1
        # Later matches may have been left with repeats: revisit every match in turn, its tables
        # of five kept to those drawn for them (a swap there would undo the next matches' lot).
        for _ in range(_PASSES):
            if search.cost() == 0:
                break
            for index in rng.sample(range(len(drawn)), len(drawn)):
                drawn[index] = search.improve(drawn[index], budget)
    seated = tuple(_seat(rng, tables) for tables in drawn)
    return Draw(seated, repeated_pairs([*fixed, *seated]))
