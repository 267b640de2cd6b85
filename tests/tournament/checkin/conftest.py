"""The door's people, shared by its page tests and its browser test."""

import pytest

from tournament.models import Participant

PEOPLE = ["Sepp Huber", "Toni Brandl", "Franz Höß", "Resi Bäuml", "Xaver Müller"]


@pytest.fixture
def door(tournament):
    """A tournament with check-in on and five participants registered, none checked in."""
    tournament.check_in = True
    tournament.save()
    for number, name in enumerate(PEOPLE, start=1):
        Participant.objects.create(tournament=tournament, number=number, name=name)
    return tournament
