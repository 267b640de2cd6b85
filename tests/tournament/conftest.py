import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournament.models import Participant, StaffRole, Tournament
from tournament.services.tournaments import _sync_matches


def make_user(username, **extra):
    return get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)


def make_tournament(slug="kirchweih", **fields):
    defaults = {"name": "Kirchweih-Schafkopf", "date": datetime.date(2026, 11, 21), "venue": "Gasthof Post"}
    tournament = Tournament.objects.create(slug=slug, **{**defaults, **fields})
    _sync_matches(tournament)
    return tournament


def add_players(tournament, count, start=1, **fields):
    return Participant.objects.bulk_create(
        [
            Participant(tournament=tournament, number=n, name=f"Spieler {n:03d}", **fields)
            for n in range(start, start + count)
        ]
    )


@pytest.fixture
def tournament(db):
    return make_tournament()


@pytest.fixture
def other_tournament(db):
    return make_tournament("fasching", name="Faschings-Schafkopf")


def _staff(tournament, username, role):
    user = make_user(username)
    StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


@pytest.fixture
def organiser(tournament):
    user = _staff(tournament, "orga", StaffRole.Role.ORGANISER)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def supervisor(tournament):
    return _staff(tournament, "aufsicht", StaffRole.Role.SUPERVISOR)


@pytest.fixture
def referee(tournament):
    return _staff(tournament, "schiri", StaffRole.Role.REFEREE)


@pytest.fixture
def foreign_organiser(other_tournament):
    return _staff(other_tournament, "fremd", StaffRole.Role.ORGANISER)
