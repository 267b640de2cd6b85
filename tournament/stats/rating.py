"""The rating (issue 30, README "Statistics and the rating"): openskill's PlackettLuce with its
default parameters (μ 25, σ 25/3), one ``rate`` call per table and match, each player a team of
one and his points at that table in that match his score (all five at a table of five), the
tables in the order tournament date, match number, table number. A table and match where a
substitute took over a seat is left out, as is one without a game entered. The rating shown is
the model's ordinal, μ − 3σ. Anyone can recompute it from an exported document with nothing but
openskill and json (the README's recipe)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .sittings import Sitting


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What the lists rank by: μ − 3σ, low while little is known of the player."""
        return self.mu - 3 * self.sigma


class Ratings:
    """Ratings carried from table to table, by whatever key names a player (a start number in
    one tournament, a person of the register over a season)."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.current: dict[Hashable, object] = {}
        self.matches: Counter[Hashable] = Counter()  # the tables and matches rated, by player

    def table(self, players: Sequence[tuple[Hashable, int]]) -> None:
        """One table in one match: each player's key and his points there."""
        teams = [[self.current.get(key) or self.model.rating()] for key, _points in players]
        rated = self.model.rate(teams, scores=[points for _key, points in players])
        for (key, _points), (rating,) in zip(players, rated, strict=True):
            self.current[key] = rating
            self.matches[key] += 1

    def of(self, key: Hashable) -> Rating:
        """The player's rating now; a player not rated yet starts at the model's μ and σ."""
        found = self.current.get(key) or self.model.rating()
        return Rating(found.mu, found.sigma)  # type: ignore[attr-defined]


def rate_tables(ratings: Ratings, sittings: Sequence[Sitting], key) -> None:
    """Rate the tables of ``sittings`` (in the order they come, grouped by tournament, match and
    table), each player under ``key(sitting)``."""
    table: list[Sitting] = []
    for sitting in [*sittings, None]:
        if table and (
            sitting is None
            or (sitting.tournament, sitting.match, sitting.table)
            != (table[0].tournament, table[0].match, table[0].table)
        ):
            if not any(s.substituted for s in table) and any(s.games for s in table):
                ratings.table([(key(s), s.points) for s in sorted(table, key=lambda s: s.position)])
            table = []
        if sitting is not None:
            table.append(sitting)
