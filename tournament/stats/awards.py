"""The cup's awards (issue 30): a series declares which of ``AWARDS`` it gives. Each goes to the
best value among the persons who qualify for it; persons with an equal value are listed together.
Solos are the standings' Solos (Solo and Wenz, not the Touts: RULINGS 13)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from ..names import sort_key
from .players import PlayerStats


@dataclass(frozen=True)
class Award:
    key: str
    label: str
    rule: str  # who qualifies and what counts, in words


AWARDS: tuple[Award, ...] = (
    Award("attendances", _("Most tournaments attended"), _("the most tournaments played")),
    Award(
        "placing",
        _("Best average placing"),
        ngettext_lazy(  # the number decides "1 Turnier" or "3 Turnieren"
            "the best average rank as a share of the field, from %(attendances)s tournament on",
            "the best average rank as a share of the field, from %(attendances)s tournaments on",
            "attendances",
        ),
    ),
    Award(
        "rating",
        _("Best rating"),
        ngettext_lazy(
            "the highest rating (μ − 3σ), from %(matches)s match on",
            "the highest rating (μ − 3σ), from %(matches)s matches on",
            "matches",
        ),
    ),
    Award(
        "pechvogel",
        _("Pechvogel"),
        ngettext_lazy(
            "the fewest points per game, from %(attendances)s tournament on",
            "the fewest points per game, from %(attendances)s tournaments on",
            "attendances",
        ),
    ),
    Award("solos", _("Most Solos won"), _("the most Solos and Wenz won")),
)
BY_KEY = {award.key: award for award in AWARDS}
CHOICES = [(award.key, award.label) for award in AWARDS]


@dataclass
class Given:
    award: Award
    rule: str
    value: str  # the winning value in words
    winners: list[PlayerStats] = field(default_factory=list)


def _best(
    players: Sequence[PlayerStats], value: Callable[[PlayerStats], object], lowest: bool = False
) -> list[PlayerStats]:
    scored = [(value(p), p) for p in players]
    scored = [(v, p) for v, p in scored if v is not None]
    if not scored:
        return []
    best = (min if lowest else max)(v for v, _p in scored)
    return sorted((p for v, p in scored if v == best), key=lambda p: (sort_key(p.name), str(p.key)))


def give(
    declared: Sequence[str], players: Sequence[PlayerStats], min_attendances: int, min_matches: int
) -> list[Given]:
    """The declared awards in the order of ``AWARDS``, each with its winners (none while nobody
    qualifies; the most Solos won only once somebody has won one)."""
    given = []
    regular = [p for p in players if p.tournaments >= max(min_attendances, 1)]
    rated = [p for p in players if p.rated_matches >= max(min_matches, 1)]
    numbers = {"attendances": min_attendances, "matches": min_matches}
    for award in AWARDS:
        if award.key not in declared:
            continue
        if award.key == "attendances":
            winners = _best([p for p in players if p.tournaments], lambda p: p.tournaments)
            value = str(winners[0].tournaments) if winners else ""
        elif award.key == "placing":
            winners = _best(regular, lambda p: p.average_share, lowest=True)
            value = f"{number_format(winners[0].average_percent, 1)} %" if winners else ""
        elif award.key == "rating":
            winners = _best(rated, lambda p: p.rating.ordinal)
            value = number_format(winners[0].rating.ordinal, 2) if winners else ""
        elif award.key == "pechvogel":
            winners = _best(regular, lambda p: p.points_per_game, lowest=True)
            value = number_format(winners[0].points_per_game_decimal, 2) if winners else ""
        else:
            winners = _best([p for p in players if p.solo_won], lambda p: p.solo_won)
            value = str(winners[0].solo_won) if winners else ""
        given.append(Given(award, str(award.rule % numbers), value, winners))
    return given
