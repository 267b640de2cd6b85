"""Series standings on the hand-checked cup of conftest: sums, best k, minimum attendances,
qualification, ties."""

import datetime
from decimal import Decimal

import pytest

from tournament.models import Participant, Series, Tournament
from tournament.series import standings as series_standings

pytestmark = pytest.mark.django_db


def table(series):
    found = series_standings.compute(series)
    return [
        (row.rank, row.name, row.attendances, row.counted, row.total, row.qualified) for row in found.rows
    ]


def test_the_sum_of_all_results_ranks_every_player(cup):
    assert table(cup) == [
        (1, "Carl C", 3, 65, 65, False),
        (2, "Bert B", 3, 60, 60, False),
        (3, "Anna A", 3, 20, 20, False),
        (4, "Fritz F", 1, -30, -30, False),
        (5, "Emil E", 1, -55, -55, False),
        (6, "Dora D", 1, -60, -60, False),
    ]


def test_the_best_two_count_and_equal_points_go_to_the_better_single_result(cup):
    cup.counting, cup.best_of = "best", 2
    found = series_standings.compute(cup)
    # B and C both 60 from 3 attendances: C's best single result (50) beats B's (40).
    assert [(row.rank, row.name, row.counted, row.total, row.shared) for row in found.rows[:3]] == [
        (1, "Carl C", 60, 65, False),
        (2, "Bert B", 60, 60, False),
        (3, "Anna A", 40, 20, False),
    ]
    anna = found.rows[2]
    assert [(r.slug, r.points, r.counted) for r in anna.results] == [
        ("t1", 30, True),
        ("t2", 10, True),
        ("t3", -20, False),
    ]


def test_below_the_minimum_attendances_players_are_listed_unranked(cup):
    cup.min_attendances = 2
    found = series_standings.compute(cup)
    assert [(row.rank, row.name) for row in found.ranked] == [(1, "Carl C"), (2, "Bert B"), (3, "Anna A")]
    assert [(row.rank, row.name) for row in found.unranked] == [
        (None, "Fritz F"),
        (None, "Emil E"),
        (None, "Dora D"),
    ]


def test_the_top_n_qualify_among_the_ranked(cup):
    cup.min_attendances, cup.qualify_top = 2, 2
    found = series_standings.compute(cup)
    assert found.places == 2
    assert [row.name for row in found.rows if row.qualified] == ["Carl C", "Bert B"]
    assert not any(row.qualified for row in found.unranked)


def test_the_top_percent_qualify_rounded_up(cup):
    cup.qualify_percent = Decimal("40")  # 40 % of 6 ranked is 2.4: 3 places
    found = series_standings.compute(cup)
    assert found.places == 3
    assert [row.name for row in found.rows if row.qualified] == ["Carl C", "Bert B", "Anna A"]
    cup.qualify_top = 2  # both declared: the fewer places
    assert series_standings.compute(cup).places == 2


def test_equal_points_go_to_more_attendances_and_full_equality_shares_the_rank(person, played_by, cup):
    series = Series.objects.create(name="Liga", slug="liga")
    p, q, r, s, u = (person(name) for name in ("Paul", "Quirin", "Resi", "Sepp", "Udo"))
    day = datetime.date(2026, 3, 1)
    played_by("la", day, {p: 20, q: 10, r: -10, s: -20}, series)
    played_by("lb", day + datetime.timedelta(days=7), {q: 10, r: 0, s: 0, u: -10}, series)
    # Paul 20 (1 attendance), Quirin 20 (2): Quirin first. Resi -10 (2), Udo -10 (1): Resi first.
    assert [(row.rank, row.name, row.counted) for row in series_standings.compute(series).rows] == [
        (1, "Quirin", 20),
        (2, "Paul", 20),
        (3, "Resi", -10),
        (4, "Udo", -10),
        (5, "Sepp", -20),
    ]
    even = Series.objects.create(name="Gleich", slug="gleich", qualify_top=1)
    v, w = person("Vroni"), person("Wast")
    played_by("lc", day, {v: 15, w: 15, person("X"): -10, person("Y"): -20}, even)
    found = series_standings.compute(even)
    assert [(row.rank, row.name, row.shared, row.qualified) for row in found.rows[:2]] == [
        (1, "Vroni", True, True),
        (1, "Wast", True, True),
    ]
    assert found.rows[2].rank == 3


def test_only_seated_participants_linked_to_the_register_count(cup, person):
    t1 = Tournament.objects.get(slug="t1")
    Participant.objects.create(tournament=t1, number=98, name="Nicht im Register")
    Participant.objects.create(tournament=t1, number=99, name="Nachzügler", person=person("Nachzügler"))
    names = [row.name for row in series_standings.compute(cup).rows]
    assert "Nachzügler" not in names and "Nicht im Register" not in names and len(names) == 6
