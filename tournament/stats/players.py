"""Statistics per player (issue 30): for one tournament by start number, for a season or the whole
register by person. Games, points and the Solo, Tout and Sie counts come from the sittings
(``sittings``: as the standings count them); placings from each tournament's standings; the
rating from ``rating``. A player's average placing is his rank as a share of the field, so that
5th of 100 (5 %) counts better than 5th of 20 (25 %)."""

from __future__ import annotations

import datetime
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cached_property

from ..standings import standings
from ..tournaments.models import Tournament
from . import sittings as sittings_of
from .rating import Rating, Ratings, rate_tables
from .sittings import TALLIES, Sitting


@dataclass(frozen=True)
class Placing:
    """A tournament's result: rank of the field, and the rating after it."""

    tournament: int
    slug: str
    name: str
    date: datetime.date
    rank: int
    field: int
    rating: Rating | None = None

    @property
    def share(self) -> Fraction:
        return Fraction(self.rank, self.field)

    @property
    def percent(self) -> int:
        """The rank as a share of the field in whole per cent (5th of 100: 5 %)."""
        return int(decimal_of(self.share * 100, 0))


@dataclass
class PlayerStats:
    key: Hashable  # a participant's start number, or a person of the register
    name: str
    club: str = ""
    number: int | None = None
    rank: int | None = None  # in the tournament's standings (one tournament)
    tournaments: int = 0
    matches: int = 0
    games: int = 0
    points: int = 0
    sie: int = 0
    tout_won: int = 0
    tout_played: int = 0
    solo_won: int = 0
    solo_played: int = 0
    placings: list[Placing] = field(default_factory=list)
    rating: Rating = Rating(25.0, 25 / 3)
    rated_matches: int = 0  # the tables and matches the rating was updated by

    def settle(self) -> PlayerStats:
        """Computed once with the numbers (and kept with them in the cache): the page reads
        them for every row."""
        for name in ("points_per_game_decimal", "best", "average_percent"):
            getattr(self, name)
        return self

    def add(self, sitting: Sitting) -> None:
        if sitting.games:
            self.matches += 1
        self.games += sitting.games
        self.points += sitting.points
        for name in TALLIES:
            setattr(self, name, getattr(self, name) + getattr(sitting, name))

    @cached_property
    def points_per_game(self) -> Fraction | None:
        return Fraction(self.points, self.games) if self.games else None

    @cached_property
    def points_per_game_decimal(self) -> Decimal | None:
        """Two decimals, rounded half up as people round: 1.25."""
        ppg = self.points_per_game
        return None if ppg is None else decimal_of(ppg, 2)

    @property
    def points_per_game_text(self) -> str:
        """As the command writes it: "1.25"."""
        ppg = self.points_per_game_decimal
        return "" if ppg is None else str(ppg)

    @property
    def solo_rate(self) -> int | None:
        """The Solos won in whole per cent of those played."""
        return round(100 * self.solo_won / self.solo_played) if self.solo_played else None

    @cached_property
    def best(self) -> Placing | None:
        return min(self.placings, key=lambda p: (p.share, p.rank), default=None)

    @cached_property
    def average_share(self) -> Fraction | None:
        """The average of his ranks as shares of their fields."""
        if not self.placings:
            return None
        return sum((p.share for p in self.placings), Fraction(0)) / len(self.placings)

    @cached_property
    def average_percent(self) -> Decimal | None:
        share = self.average_share
        return None if share is None else decimal_of(share * 100, 1)


def decimal_of(value: Fraction, places: int) -> Decimal:
    """A fraction rounded half up to ``places`` decimals, exactly (no float in between)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


# The newest statistics computed in this process per tournament, with the results key they were
# computed from (standings.results_key): a participant's page then costs a look-up.
_MEMO: OrderedDict[tuple, tuple[tuple, list[PlayerStats]]] = OrderedDict()
MEMO_SIZE = 50


def tournament_stats(tournament: Tournament) -> list[PlayerStats]:
    """One line per participant of the standings, best first as there; everybody's rating
    starts fresh in the tournament."""
    current = standings.results_key(tournament)
    which = standings.identity(current)
    kept = _MEMO.get(which)
    if kept is not None and kept[0] == current:
        _MEMO.move_to_end(which)
        return kept[1]
    found = _tournament_stats(tournament, standings.compute(tournament, current=current).rows)
    _MEMO[which] = (current, found)
    while len(_MEMO) > MEMO_SIZE:
        _MEMO.popitem(last=False)
    return found


def _tournament_stats(tournament: Tournament, rows) -> list[PlayerStats]:
    by_number = {
        row.number: PlayerStats(row.number, row.name, row.club, row.number, row.rank) for row in rows
    }
    found = sittings_of.read([tournament])
    seated = {s.number for s in found}
    for sitting in found:
        if sitting.number in by_number:
            by_number[sitting.number].add(sitting)
    ratings = Ratings()
    rate_tables(ratings, found, key=lambda s: s.number)
    for row in rows:
        stats = by_number[row.number]
        stats.tournaments = 1 if row.number in seated else 0
        stats.rating = ratings.of(row.number)
        stats.rated_matches = ratings.matches[row.number]
        if stats.tournaments:
            stats.placings.append(
                Placing(tournament.pk, tournament.slug, tournament.name, tournament.date, row.rank, len(rows))
            )
    return [stats.settle() for stats in by_number.values()]


def guest(sitting: Sitting) -> Hashable:
    """A player not in the register: rated afresh in each tournament, so that the tables he sat
    at are rated with everyone at them."""
    return ("guest", sitting.tournament, sitting.participant)


def person_stats(
    tournaments: Sequence[Tournament], names: dict[int, tuple[str, str]]
) -> dict[int, PlayerStats]:
    """By person of the register (``names``: his name and club) over ``tournaments`` in the order
    of the season: each carries his rating from tournament to tournament. A person's participant
    counts with his points and games as the standings count the start number."""
    tournaments = sorted(tournaments, key=lambda t: (t.date, t.pk))
    found = sittings_of.read(tournaments)
    by_tournament: dict[int, list[Sitting]] = {}
    for sitting in found:
        by_tournament.setdefault(sitting.tournament, []).append(sitting)
    players: dict[int, PlayerStats] = {}
    ratings = Ratings()

    def key(sitting: Sitting) -> Hashable:
        return sitting.person if sitting.person in names else guest(sitting)

    for tournament in tournaments:
        here = by_tournament.get(tournament.pk, [])
        rate_tables(ratings, here, key)
        persons = {s.participant: s.person for s in here if s.person in names}
        for sitting in here:
            if sitting.participant in persons:
                _player(players, sitting.person, names).add(sitting)
        rows = standings.compute(tournament).rows
        for row_person in _placed(rows, here, persons):
            person, row = row_person
            stats = _player(players, person, names)
            stats.tournaments += 1
            rating = ratings.of(person)
            stats.placings.append(
                Placing(
                    tournament.pk,
                    tournament.slug,
                    tournament.name,
                    tournament.date,
                    row.rank,
                    len(rows),
                    rating,
                )
            )
    for person, stats in players.items():
        stats.rating = ratings.of(person)
        stats.rated_matches = ratings.matches[person]
        stats.settle()
    return players


def _player(players: dict[int, PlayerStats], person, names) -> PlayerStats:
    if person not in players:
        name, club = names[person]
        players[person] = PlayerStats(person, name, club)
    return players[person]


def _placed(rows, here: Iterable[Sitting], persons: dict[int, int]):
    """(person, standings row) of each person seated in the tournament (one row per person: a
    person twice in a tournament counts with his first start number, as the series does)."""
    number_of = {}
    for sitting in sorted(here, key=lambda s: s.number):
        if sitting.participant in persons:
            number_of.setdefault(persons[sitting.participant], sitting.number)
    row_of = {row.number: row for row in rows}
    return [(person, row_of[number]) for person, number in number_of.items() if number in row_of]
