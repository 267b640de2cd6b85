"""A season's statistics (a series, or every tournament of the register): computed once for the
results they come from and kept in the cache under a fingerprint of those results, so that the
season page costs a look-up (issue 30: 20 tournaments of 100 players in ≤ 10 s, the page then
in ≤ 150 ms). The fingerprint holds each tournament's results key (its results version and the
fingerprint of its stored totals: standings.results_key), its date, the links of its
participants to the register and the persons' names: any of them changing computes anew."""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache

from ..participants.models import Participant
from ..standings import standings
from ..tournaments.models import Tournament
from .players import PlayerStats, person_stats

KEPT_SECONDS = 7 * 24 * 3600


@dataclass
class Season:
    players: list[PlayerStats]  # by rating: those rated from the minimum of matches on first
    min_matches: int

    @property
    def rated(self) -> list[PlayerStats]:
        return [p for p in self.players if p.rated_matches >= self.min_matches]

    @property
    def unrated(self) -> list[PlayerStats]:
        return [p for p in self.players if p.rated_matches < self.min_matches]

    def player(self, person: int) -> PlayerStats | None:
        return next((p for p in self.players if p.key == person), None)


def fingerprint(tournaments: Sequence[Tournament], names: dict[int, tuple[str, str]]) -> str:
    links = sorted(
        Participant.objects.filter(tournament__in=list(tournaments), person__isnull=False)
        .order_by()
        .values_list("pk", "person_id")
    )
    parts = (
        [(t.pk, t.date, standings.results_key(t)) for t in tournaments],
        links,
        sorted(names.items()),
    )
    return hashlib.sha256(pickle.dumps(parts)).hexdigest()


def compute(tournaments: Sequence[Tournament], names: dict[int, tuple[str, str]], min_matches: int) -> Season:
    """The persons of ``names`` over ``tournaments`` (ordered by date), from the cache when their
    results have not changed since."""
    key = f"stats:season:{fingerprint(tournaments, names)}"
    players = cache.get(key)
    if players is None:
        players = list(person_stats(tournaments, names).values())
        cache.set(key, players, KEPT_SECONDS)
    ordered = sorted(
        players,
        key=lambda p: (p.rated_matches < min_matches, -p.rating.ordinal, p.name, str(p.key)),
    )
    return Season(ordered, min_matches)
