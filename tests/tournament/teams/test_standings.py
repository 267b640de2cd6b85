"""Team standings on hand-checked data: the members' sums, then the 5.4.2 counts, then shared
ranks (issue 17)."""

import pytest

from scoring import Contract, Game, Result, Suit
from tests.tournament.helpers import written_around_the_services
from tournament.models import Participant, Scoresheet, Seat
from tournament.participants import teams as team_service
from tournament.results import services as sheet_service
from tournament.results import substitutes
from tournament.teams import standings as team_standings
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def seated(tournament, match, table):
    sheet = Scoresheet.objects.get(match__tournament=tournament, match__number=match, table__number=table)
    return sheet, {s.position: s.participant for s in sheet.table.seats.select_related("participant")}


def team(tournament, name, participants):
    created = team_service.create_team(COMMAND_LINE, tournament, name)
    team_service.assign(COMMAND_LINE, tournament, created, participants)
    return created


def summary(result):
    return [(row.rank, row.name, row.key) for row in result.rows]


def test_points_then_sie_decide_and_equal_teams_share_a_rank(drawn, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    two, at_two = seated(drawn, 1, 2)
    sheet_service.approve(supervisor, one, 2, "sie")
    enter(supervisor, one, Game(2, Contract.SIE, 1, approved=True))  # seat 1 +24, the others -8
    for n in range(1, 5):  # seat 1 of table 2: four Solos won, +6 each; the others -2 each
        enter(supervisor, two, Game(n, Contract.SOLO, 1, suit=Suit.GRAS, result=Result.WON))
    team(drawn, "Sie", [at_one[1], at_two[2]])  # 24 - 8 = 16, one Sie
    team(drawn, "Solo", [at_two[1], at_one[2]])  # 24 - 8 = 16, four Solos won and played
    team(drawn, "Rest Eins", [at_one[3], at_one[4]])  # -8 - 8 = -16
    team(drawn, "Rest Zwei", [at_two[3], at_two[4]])  # -8 - 8 = -16
    result = team_standings.compute(drawn)
    assert summary(result) == [
        (1, "Sie", (16, 1, 0, 0, 0, 0)),  # 5.4.2 a
        (2, "Solo", (16, 0, 0, 0, 4, 4)),
        (3, "Rest Eins", (-16, 0, 0, 0, 0, 0)),  # equal in everything: one rank, by name
        (3, "Rest Zwei", (-16, 0, 0, 0, 0, 0)),
    ]
    assert [[row.name for row in group] for group in result.ties] == [["Rest Eins", "Rest Zwei"]]
    # the members in the order of the individual standings
    assert [m.number for m in result.rows[0].members] == [at_one[1].number, at_two[2].number]


def test_each_count_decides_in_turn_on_the_members_sums(drawn):
    """Every team has 20 points; a (Sie), b (Touts won), c (Touts played), d (Solos won) and
    e (Solos played) each decide one place, on the sums of the members."""
    counts = {  # number: (points, sie, tout_won, tout_played, solo_won, solo_played)
        1: (15, 1, 0, 0, 0, 0),
        2: (5, 0, 0, 0, 0, 0),
        3: (10, 0, 1, 1, 0, 0),
        4: (10, 0, 1, 1, 0, 0),
        5: (20, 0, 1, 3, 0, 0),
        6: (20, 0, 1, 2, 5, 5),
        7: (20, 0, 1, 2, 4, 9),
        8: (20, 0, 1, 2, 4, 8),
    }
    for seat in Seat.objects.filter(match__tournament=drawn, match__number=1).select_related("participant"):
        for field, value in zip(
            ("points", "sie", "tout_won", "tout_played", "solo_won", "solo_played"),
            counts[seat.participant.number],
            strict=True,
        ):
            setattr(seat, field, value)
        seat.save()
    written_around_the_services(drawn)
    people = {p.number: p for p in drawn.participants.all()}
    for name, numbers in (("A", [1, 2]), ("B", [3, 4]), ("C", [5]), ("D", [6]), ("E", [7]), ("F", [8])):
        team(drawn, name, [people[n] for n in numbers])
    team_service.create_team(COMMAND_LINE, drawn, "Leer")  # no members: not ranked
    assert summary(team_standings.compute(drawn)) == [
        (1, "A", (20, 1, 0, 0, 0, 0)),
        (2, "B", (20, 0, 2, 2, 0, 0)),
        (3, "C", (20, 0, 1, 3, 0, 0)),
        (4, "D", (20, 0, 1, 2, 5, 5)),
        (5, "E", (20, 0, 1, 2, 4, 9)),
        (6, "F", (20, 0, 1, 2, 4, 8)),
    ]


def test_a_substitutes_points_count_for_the_start_number_and_its_team(drawn, organiser, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    substitutes.substitute(organiser, at_one[1], "Maier, Resi", 1, 3)
    for n in range(1, 5):  # games 3 and 4 are the substitute's: all four count for the start number
        enter(supervisor, one, Game(n, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    team(drawn, "Mit Ersatz", [at_one[1], at_one[2]])
    (row,) = team_standings.compute(drawn).rows
    assert row.values["points"] == 24 - 8 and row.values["solo_won"] == 4
    assert [s.name for s in row.members[0].substitutes] == ["Maier, Resi"]


def test_a_member_who_never_played_counts_zero(drawn, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    enter(supervisor, one, Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    reserve = Participant.objects.create(tournament=drawn, number=30, name="Reserve", status="reserve")
    team(drawn, "Gemischt", [at_one[1], reserve])
    (row,) = team_standings.compute(drawn).rows
    assert row.values["points"] == 6
    assert [(m.number, m.values["points"]) for m in row.members] == [(at_one[1].number, 6), (30, 0)]


def test_no_teams_no_team_standings(played):
    assert team_standings.compute(played).rows == []
