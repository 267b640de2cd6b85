"""stats: a season of 20 tournaments of 100 players (4 matches of 32 games: 64,000 games), every
participant a person of the register, recomputed from scratch, then the season page once
computed (issue 30)."""

import datetime
import io
import random

from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ..models import Participant, Person, Series, Tournament
from ..series import season as series_season
from ..standings import standings
from .figures import median_seconds

TOURNAMENTS, PLAYERS, MATCHES = 20, 100, 4
PERSONS = 130  # some come to every evening, some now and then
SLUG = "stats-season"


def season_series() -> Series:
    """Made once: the tournaments by the generator (valid games under the rules), then linked to
    the register in bulk."""
    series = Series.objects.filter(slug=SLUG).first()
    if series is not None:
        return series
    series = Series.objects.create(
        name="Bench-Cup", slug=SLUG, awards=["attendances", "placing", "rating", "pechvogel", "solos"]
    )
    persons = Person.objects.bulk_create(
        Person(name=f"Person {n:03d}", public_stats=True, organisation=series.organisation)
        for n in range(PERSONS)
    )
    rng = random.Random(30)
    for index in range(TOURNAMENTS):
        slug = f"{SLUG}-{index + 1}"
        Tournament.objects.filter(slug=slug).delete()
        call_command(
            "generate_tournament",
            players=PLAYERS,
            matches=MATCHES,
            slug=slug,
            seed=str(index),
            results=True,
            stdout=io.StringIO(),
        )
        Tournament.objects.filter(slug=slug).update(
            series=series, date=datetime.date(2026, 1, 9) + datetime.timedelta(days=7 * index)
        )
        participants = list(Participant.objects.filter(tournament__slug=slug).order_by("number"))
        for participant, person in zip(participants, rng.sample(persons, PLAYERS), strict=True):
            participant.person, participant.name = person, person.name
        Participant.objects.bulk_update(participants, ["person", "name"])
    return series


def stats(runs: int) -> list[tuple[str, str, str]]:
    series = season_series()

    def recompute():
        standings._MEMO.clear()  # the standings of every tournament computed afresh too
        cache.clear()
        return series_season.of_series(series)

    seconds, season = median_seconds(recompute, max(1, min(runs, 3)))
    assert len(season.players) == PERSONS  # every person played
    counted = sum(p.games for p in season.players) // 4  # four play every game
    client = Client(HTTP_HOST="localhost")
    url = reverse("series:stats", args=[SLUG])
    assert client.get(url).status_code == 200  # computed once
    page, _response = median_seconds(lambda: client.get(url), runs)
    standings_page, _response = median_seconds(
        lambda: client.get(reverse("series:standings", args=[SLUG])), runs
    )
    return [
        (
            f"season statistics and rating, {TOURNAMENTS} × {PLAYERS} players ({counted:,} games) afresh",
            f"{seconds:.1f} s",
            "≤ 10 s",
        ),
        ("season page, once computed", f"{page * 1000:.0f} ms", "≤ 150 ms"),
        ("series page with its awards, once computed", f"{standings_page * 1000:.0f} ms", "—"),
    ]
