"""The rating (issue 30): recomputed from an exported document with nothing but openskill and
json, by the README's recipe exactly as written there; a table and match with a substitute is
left out; over a season the register's persons carry their rating."""

import datetime
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from openskill.models import PlackettLuce

from tournament.exchange.writer import dumps, export_document
from tournament.models import Participant, Person, Seat, Substitution
from tournament.stats.players import person_stats, tournament_stats

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[3] / "README.md"


def recipe() -> str:
    """The README's script, exactly as written there."""
    found = re.search(r"```python\n(# player_rating\.py.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert found, "the recipe is in the README"
    return found.group(1)


def run_recipe(tmp_path, document) -> dict[int, tuple[str, str, str]]:
    script = tmp_path / "player_rating.py"
    script.write_text(recipe(), encoding="utf-8")
    exported = tmp_path / "export.json"
    exported.write_text(dumps(document), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(script), str(exported)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=True,
    )
    return {int(line.split(",")[0]): tuple(line.split(",")[1:]) for line in done.stdout.split()}


def command_ratings(slug) -> dict[int, tuple[str, str, str]]:
    out = io.StringIO()
    call_command("player_stats", slug, stdout=out)
    rows = out.getvalue().splitlines()[1:]
    return {int(r.split(",")[0]): tuple(r.split(",")[-3:]) for r in rows}


def test_the_readme_recipe_gives_the_ratings_of_player_stats(played, tmp_path):
    # A substitute plays for start number 1 from match 2 on: his table there is left out.
    Substitution.objects.create(participant=played.participants.get(number=1), name="Ersatz", from_match=2)
    from_recipe = run_recipe(tmp_path, export_document(played))
    assert from_recipe == command_ratings(played.slug)
    found = {s.number: s for s in tournament_stats(played)}
    assert found[1].rated_matches == 1 and found[1].matches == 2
    mates = Seat.objects.filter(
        match__number=2, table__seats__participant__number=1, match__tournament=played
    )
    for number in mates.values_list("participant__number", flat=True):
        assert found[number].rated_matches == 1
    assert sum(s.rated_matches for s in found.values()) == 12 * 2 - 4


def test_one_rate_call_per_table_in_order_by_hand(sheets):
    """The two tables of the hand-counted match, rated by openskill directly."""
    tournament, five, four = sheets()
    model = PlackettLuce()
    expected = {}
    for seats, points in (
        (four, [-12, -12, 16, 8]),  # table 1: four seats
        (five, [-9, 3, 7, -9, 8]),  # table 2: five seats, the dealer sits each game out
    ):
        numbers = [seats[p] for p in sorted(seats)]
        rated = model.rate([[model.rating()] for _ in numbers], scores=points)
        expected.update({n: r for n, (r,) in zip(numbers, rated, strict=True)})
    for stats in tournament_stats(tournament):
        assert stats.rating.mu == pytest.approx(expected[stats.number].mu)
        assert stats.rating.sigma == pytest.approx(expected[stats.number].sigma)
        assert stats.rating.ordinal == pytest.approx(expected[stats.number].ordinal())


def test_a_season_carries_the_persons_rating_from_tournament_to_tournament(sheets):
    persons = {n: Person.objects.create(name=f"Person {n}") for n in range(1, 10)}
    first, *_ = sheets("erstes", datetime.date(2026, 3, 1), persons)
    second, *_ = sheets("zweites", datetime.date(2026, 4, 1), persons)
    names = {p.pk: (p.name, "") for p in persons.values()}
    season = person_stats([second, first], names)  # in the order of their dates whatever given
    model = PlackettLuce()
    ratings = {pk: model.rating() for pk in names}
    for tournament in (first, second):
        for table in (1, 2):
            seats = list(
                Seat.objects.filter(match__tournament=tournament, table__number=table)
                .order_by("position")
                .values_list("participant__person_id", "points")
            )
            rated = model.rate([[ratings[pk]] for pk, _ in seats], scores=[p for _, p in seats])
            ratings.update({pk: r for (pk, _), (r,) in zip(seats, rated, strict=True)})
    for pk, stats in season.items():
        assert stats.rating.mu == pytest.approx(ratings[pk].mu)
        assert (stats.tournaments, stats.matches, stats.rated_matches) == (2, 2, 2)
        assert [p.slug for p in stats.placings] == ["erstes", "zweites"]
    # A person's points and games are the sums of his start numbers' in the two tournaments.
    summed: dict[int, list[int]] = {pk: [0, 0] for pk in names}
    for tournament in (first, second):
        person_of = dict(Participant.objects.filter(tournament=tournament).values_list("number", "person_id"))
        for stats in tournament_stats(tournament):
            summed[person_of[stats.number]][0] += stats.points
            summed[person_of[stats.number]][1] += stats.games
    assert {pk: [s.points, s.games] for pk, s in season.items()} == summed
