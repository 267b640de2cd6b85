"""The statistics of a series' season and of the whole register (issue 30) for the series' pages:
the register's persons handed to ``stats`` (which does not know the register), their consent to
public pages, and the awards the series declares. Without consent a person appears on public
pages only in standings (a tournament's, the series'): not on the season page, not with a page
or statistics of his own, not by name among the award winners; managers of the series or the
register see everything."""

from __future__ import annotations

from dataclasses import dataclass

from ..stats import awards as stats_awards
from ..stats import season as stats_season
from ..stats.players import PlayerStats
from ..tournaments.models import Tournament
from ..tournaments.organisations import Organisation
from .models import Person, Series
from .permissions import can_manage_register, can_manage_series

REGISTER_MATCHES = 8  # the register's page ranks by rating from this many matches on


def sees_everything(user, organisation: Organisation) -> bool:
    """The organisation's series and register managers (issue 29: another's see what the public
    sees)."""
    return can_manage_series(user, organisation) or can_manage_register(user, organisation)


def _names(tournaments, organisation_id: int) -> dict[int, tuple[str, str]]:
    persons = Person.objects.filter(
        participations__tournament__in=tournaments, organisation_id=organisation_id
    ).distinct()
    return {pk: (name, club) for pk, name, club in persons.values_list("pk", "name", "club")}


def of_series(series: Series) -> stats_season.Season:
    """The series' own organisation's tournaments and persons (issue 29), as its standings."""
    tournaments = list(
        series.tournaments.filter(organisation_id=series.organisation_id).order_by("date", "pk")
    )
    return stats_season.compute(
        tournaments, _names(tournaments, series.organisation_id), series.rating_matches
    )


def of_register(organisation: Organisation) -> stats_season.Season:
    """Every tournament of the organisation with a player of its register, each person carrying
    his rating."""
    tournaments = list(
        Tournament.objects.filter(organisation=organisation, participants__person__isnull=False)
        .distinct()
        .order_by("date", "pk")
    )
    return stats_season.compute(tournaments, _names(tournaments, organisation.pk), REGISTER_MATCHES)


def consenting(players: list[PlayerStats]) -> set[int]:
    keys = [p.key for p in players]
    return set(Person.objects.filter(pk__in=keys, public_stats=True).values_list("pk", flat=True))


@dataclass
class ShownAward:
    given: stats_awards.Given
    winners: list[PlayerStats]  # those who may be named here
    hidden: int  # winners not named: no consent to public pages

    @property
    def named(self) -> list[tuple[PlayerStats, str]]:
        """Each winner with the name to print: with his club where two winners share a name
        (the register keeps "Steiner, Michl" of Erding and of Dachau apart, the page should too)."""
        names = [w.name for w in self.winners]
        shared = {name for name in names if names.count(name) > 1}
        return [(w, f"{w.name} ({w.club})" if w.club and w.name in shared else w.name) for w in self.winners]


def awards(
    series: Series, season: stats_season.Season, user=None, everything: bool | None = None
) -> list[ShownAward]:
    """The series' declared awards; for the public, winners without consent are counted, not
    named. ``everything``: for the managers' documents (PDF, workbook)."""
    given = stats_awards.give(series.awards, season.players, series.award_attendances, series.rating_matches)
    if everything is None:
        everything = sees_everything(user, series.organisation)
    public = None if everything else consenting(season.players)
    shown = []
    for award in given:
        named = [w for w in award.winners if public is None or w.key in public]
        shown.append(ShownAward(award, named, len(award.winners) - len(named)))
    return shown
