"""The participant list (issue 28): by name in German order, a name found however it is typed."""

import pytest
from django.urls import reverse

from tournament.models import Participant, Substitution

pytestmark = pytest.mark.django_db

PEOPLE = [("Sepp Huber", "SK Ödenhof"), ("Toni Brandl", "SK Au"), ("Franz Höß", ""), ("Resi Bäuml", "SK Au"),
          ("Xaver Müller", "SK Zell")]  # fmt: skip
GERMAN = ["Resi Bäuml", "Toni Brandl", "Franz Höß", "Sepp Huber", "Xaver Müller"]


@pytest.fixture
def listing(client, tournament, organiser):
    for number, (name, club) in enumerate(PEOPLE, start=1):
        Participant.objects.create(tournament=tournament, number=number, name=name, club=club)
    client.force_login(organiser)
    return reverse("organiser:participants", args=[tournament.slug])


def shown(page: str) -> list[str]:
    return sorted((name for name, _club in PEOPLE if name in page), key=page.index)


def test_the_participant_list_sorts_names_in_german_order(client, listing):
    assert shown(client.get(listing, {"sort": "name"}).content.decode()) == GERMAN
    assert shown(client.get(listing, {"sort": "-name"}).content.decode()) == GERMAN[::-1]
    by_club = shown(client.get(listing, {"sort": "club"}).content.decode())
    assert by_club == ["Franz Höß", "Resi Bäuml", "Toni Brandl", "Sepp Huber", "Xaver Müller"]
    assert shown(client.get(listing).content.decode()) == [name for name, _club in PEOPLE]  # by number


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Sepp Huber", ["Sepp Huber"]),
        ("Huber Sepp", ["Sepp Huber"]),
        ("Huber, Sepp", ["Sepp Huber"]),
        ("muller", ["Xaver Müller"]),
        ("mueller", ["Xaver Müller"]),
        ("Müller", ["Xaver Müller"]),
        ("Bauml", ["Resi Bäuml"]),
        ("Bäuml", ["Resi Bäuml"]),
        ("odenhof", ["Sepp Huber"]),
        ("au", ["Toni Brandl", "Resi Bäuml"]),
        ("5", ["Xaver Müller"]),
    ],
)
def test_the_participant_list_finds_a_name_however_it_is_typed(client, listing, query, found):
    page = client.get(listing, {"q": query}).content.decode()
    assert shown(page) == found


def test_a_substitute_is_found_by_his_name_in_any_order(client, listing, tournament):
    Substitution.objects.create(
        participant=tournament.participants.get(number=2), name="Aigner, Vroni", from_match=2
    )
    page = client.get(listing, {"q": "Vroni Aigner"}).content.decode()
    assert shown(page) == ["Toni Brandl"]


def test_ordered_by_several_columns_with_a_name_the_list_still_shows(client, listing):
    for order in ("status,name", "number,-club", "-name,number"):
        page = client.get(listing, {"sort": order})
        assert page.status_code == 200 and len(shown(page.content.decode())) == len(PEOPLE), order
