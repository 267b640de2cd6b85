"""Statistics per player (issue 30) against hand-counted sheets (conftest.py), the sums over all
players against the sums over all games, and the player_stats command."""

import csv
import io
import itertools
import json
import random

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournament.demo import generator
from tournament.draw.services import draw_all
from tournament.models import GameEntry, Participant
from tournament.standings import standings
from tournament.stats.players import tournament_stats
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db
EXAMPLES = itertools.count()  # a fresh short name for every example Hypothesis tries

# By seat position, counted by hand from the games in conftest.py:
# (games, points, solo_played, solo_won, tout_played, tout_won, sie)
FIVE_EXPECTED = {
    1: (4, -2 + 2 - 9 + 0, 0, 0, 0, 0, 0),  # sat out game 1; liable in the sanction; struck Tout
    2: (4, 1 + 2 + 0 + 0, 0, 0, 0, 0, 0),  # sat out game 2
    3: (4, 1 + 6 + 0 + 0, 1, 1, 0, 0, 0),  # sat out game 3; won the Solo
    4: (4, -1 - 2 - 6 + 0, 1, 0, 0, 0, 0),  # sat out game 4; lost the Wenz
    5: (4, -1 - 2 + 2 + 9, 0, 0, 0, 0, 0),  # sat out game 5; the sanction's declarer
}
FOUR_EXPECTED = {
    1: (3, 2 - 8 - 6, 0, 0, 0, 0, 0),
    2: (3, 2 - 8 - 6, 0, 0, 0, 0, 0),
    3: (3, -2 + 24 - 6, 0, 0, 0, 0, 1),  # the Sie
    4: (3, -2 - 8 + 18, 0, 0, 1, 1, 0),  # the Wenz Tout
}


def numbers_of(stats):
    return (
        stats.games,
        stats.points,
        stats.solo_played,
        stats.solo_won,
        stats.tout_played,
        stats.tout_won,
        stats.sie,
    )


def test_hand_counted_sheets_with_a_table_of_five_a_struck_game_and_a_sanction(sheets):
    tournament, five, four = sheets()
    found = {s.number: s for s in tournament_stats(tournament)}
    for seats, expected in ((five, FIVE_EXPECTED), (four, FOUR_EXPECTED)):
        for position, numbers in expected.items():
            assert numbers_of(found[seats[position]]) == numbers, (position, seats[position])
    struck = GameEntry.objects.get(scoresheet__match__tournament=tournament, struck=True)
    assert struck.number == 5 and struck.contract == "solo_tout"
    # The same order and points as the standings; every one played one match of one tournament.
    rows = standings.compute(tournament).rows
    assert [s.number for s in found.values()] == [r.number for r in rows]
    assert all(found[r.number].points == r.values["points"] for r in rows)
    assert {(s.tournaments, s.matches, s.rated_matches) for s in found.values()} == {(1, 1, 1)}
    # Points per game: 16 in 3 games (the Sie's declarer); the best placing is his rank of 9.
    sie = found[four[3]]
    assert sie.points_per_game_text == "5.33" and sie.placings[0].field == 9


def _counted_games(tournament):
    """The sums over all games, straight from the entries: (games played, points, Solos played,
    Solos won, Touts played, Touts won, Sie)."""
    totals = [0] * 7
    for entry in GameEntry.objects.filter(scoresheet__match__tournament=tournament).select_related(
        "scoresheet__table"
    ):
        totals[0] += 4  # four play every game, at a table of five too
        totals[1] += sum(entry.points)
        if entry.struck or entry.kind != GameEntry.Kind.GAME:
            continue
        won = entry.points[entry.declarer - 1] > 0
        # A Tout in game 1 is scored and counted as a plain Solo/Wenz (RULINGS 6).
        if entry.contract in ("solo", "wenz") or entry.downgraded:
            totals[2] += 1
            totals[3] += won
        elif entry.contract in ("solo_tout", "wenz_tout"):
            totals[4] += 1
            totals[5] += won
        elif entry.contract == "sie":
            totals[6] += 1
    return totals


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.sampled_from([8, 9, 10, 13]), seed=st.integers(0, 10_000))
@example(players=8, seed=176)  # a Tout in game 1, counted as a Solo (RULINGS 6)
def test_the_sums_over_all_players_are_the_sums_over_all_games(make_tournament, players, seed):
    tournament = make_tournament(
        f"prop-{next(EXAMPLES)}", rule_overrides={"matches": 2, "games_per_match": 8}
    )
    Participant.objects.bulk_create(
        Participant(tournament=tournament, number=n, name=f"Spieler {n}") for n in range(1, players + 1)
    )
    draw_all(COMMAND_LINE, tournament, seed=str(seed))
    generator.fill_results(COMMAND_LINE, tournament, random.Random(seed), approve_rate=0.7)
    found = tournament_stats(tournament)
    players_sums = [sum(column) for column in zip(*(numbers_of(s) for s in found), strict=True)]
    assert players_sums == _counted_games(tournament)
    assert players_sums[1] == 0  # RULINGS 11


def test_player_stats_writes_the_columns_best_first(sheets):
    tournament, five, four = sheets()
    out = io.StringIO()
    call_command("player_stats", tournament.slug, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "number,name,games,points,points_per_game,solo_played,solo_won,tout_played,tout_won,sie,"
        "rating_mu,rating_sigma,rating"
    )
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [int(r["number"]) for r in rows] == [r.number for r in standings.compute(tournament).rows]
    first = rows[0]  # the Sie's declarer: 16 points in 3 games
    assert (first["number"], first["games"], first["points"], first["points_per_game"], first["sie"]) == (
        str(four[3]),
        "3",
        "16",
        "5.33",
        "1",
    )
    assert all(len(r[k].split(".")[1]) == 6 for r in rows for k in ("rating_mu", "rating_sigma", "rating"))
    # A negative number is a number, not text made safe for a spreadsheet.
    assert any(r["rating"].startswith("-") for r in rows) and not any("'" in r["rating"] for r in rows)
    liable = next(r for r in rows if r["number"] == str(five[1]))
    assert (liable["points"], liable["points_per_game"]) == ("-9", "-2.25")
    assert float(first["rating"]) == pytest.approx(
        float(first["rating_mu"]) - 3 * float(first["rating_sigma"])
    )
    out = io.StringIO()
    call_command("player_stats", tournament.slug, format="json", stdout=out)
    records = json.loads(out.getvalue())
    assert [r["number"] for r in records] == [int(r["number"]) for r in rows]
    assert records[0]["points_per_game"] == 5.33 and records[0]["rating"] == float(first["rating"])
