"""A cup on hand-checked data: tournaments whose participants are persons of the register, with
each one's points set on his seat of match 1 (the standings read the seats)."""

import datetime

import pytest

from tests.tournament.helpers import written_around_the_services
from tournament.draw.models import Seat
from tournament.draw.services import draw_all
from tournament.models import OrganisationMember, Participant, Person, Series
from tournament.tournaments.permissions import COMMAND_LINE

DAY = datetime.date(2026, 1, 10)


@pytest.fixture
def person(club):
    """``person(name, club="", birth_date=None, organisation=None)``: a person of the register
    (of the tests' organisation unless another is named)."""
    ours = club

    def person(name, club="", birth_date=None, organisation=None):
        return Person.objects.create(
            name=name, club=club, birth_date=birth_date, organisation=organisation or ours
        )

    return person


@pytest.fixture
def played_by(make_tournament):
    """``played_by(slug, day, {person: points}, series=None)``: a tournament of those persons
    (a multiple of four), drawn, each with those points in match 1."""

    def played_by(slug, day, points, series=None):
        tournament = make_tournament(slug, name=f"Turnier {slug}", date=day, series=series)
        for number, who in enumerate(points, start=1):
            Participant.objects.create(
                tournament=tournament, number=number, name=who.name, club=who.club, person=who
            )
        draw_all(COMMAND_LINE, tournament, seed=slug)
        for participant in tournament.participants.select_related("person"):
            Seat.objects.filter(participant=participant, match__number=1).update(
                points=points[participant.person]
            )
        written_around_the_services(tournament)
        return tournament

    return played_by


@pytest.fixture
def cup(person, played_by, club):
    """Three tournaments, six persons (A, B, C in all three; D, E, F in one each):

    | | T1 | T2 | T3 | all | best 2 |
    | A | 30 | 10 | -20 | 20 | 40 |
    | B | 20 | 40 | 0 | 60 | 60 |
    | C | 10 | 5 | 50 | 65 | 60 |
    | D | -60 | | | -60 | -60 |
    | E | | -55 | | -55 | -55 |
    | F | | | -30 | -30 | -30 |
    """
    series = Series.objects.create(name="Wirtshaus-Cup", slug="cup", season="2026", organisation=club)
    a, b, c, d, e, f = (
        person(name, club="SK Au") for name in ("Anna A", "Bert B", "Carl C", "Dora D", "Emil E", "Fritz F")
    )
    played_by("t1", DAY, {a: 30, b: 20, c: 10, d: -60}, series)
    played_by("t2", DAY + datetime.timedelta(days=30), {a: 10, b: 40, c: 5, e: -55}, series)
    played_by("t3", DAY + datetime.timedelta(days=60), {a: -20, b: 0, c: 50, f: -30}, series)
    return series


@pytest.fixture
def manager(make_user, club):
    """A user who manages series and the register: an administrator of the organisation (issue
    29), not a tournament role."""
    user = make_user("cupwart")
    OrganisationMember.objects.create(organisation=club, user=user, is_admin=True)
    return user
