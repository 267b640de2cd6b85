"""The door (issue 28): names in German order, found however they are typed, and a late arrival
registered, checked in and his fee marked in one step, the page staying where it was."""

import datetime

import pytest
from django.urls import reverse

from tournament.models import LogEntry

from .conftest import PEOPLE

pytestmark = pytest.mark.django_db


def shown(page: str, names=PEOPLE) -> list[str]:
    return sorted((name for name in names if name in page), key=page.index)


def test_the_door_lists_in_german_order(client, door, organiser):
    client.force_login(organiser)
    page = client.get(reverse("organiser:checkin", args=[door.slug])).content.decode()
    assert shown(page) == ["Resi Bäuml", "Toni Brandl", "Franz Höß", "Sepp Huber", "Xaver Müller"]


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
        ("hoss", ["Franz Höß"]),
    ],
)
def test_the_door_finds_a_name_however_it_is_typed(client, door, organiser, query, found):
    client.force_login(organiser)
    page = client.get(reverse("organiser:checkin", args=[door.slug]), {"q": query}).content.decode()
    assert shown(page) == found


def test_a_late_arrival_is_registered_checked_in_and_paid_in_one_step(client, door, organiser):
    client.force_login(organiser)
    url = reverse("organiser:checkin", args=[door.slug])
    response = client.post(
        url,
        {"action": "register", "name": " Vroni  Aigner ", "club": "SK Au", "paid": "on", "q": "Huber, Sepp"},
    )
    late = door.participants.get(name="Vroni Aigner")
    assert late.number == 6 and late.checked_in and late.fee_paid and late.club == "SK Au"
    # the door stays where it was: the same search
    assert response.status_code == 302 and response["Location"] == f"{url}?q=Huber%2C+Sepp"
    page = client.get(response["Location"]).content.decode()
    assert (
        "Vroni Aigner" in page
        and "Startnummer 6, ist eingecheckt und hat das Startgeld bezahlt" in page
        and "Sepp Huber" in page
    )
    actions = LogEntry.objects.filter(tournament=door).values_list("action", flat=True)
    assert {"participant.add", "participant.check_in", "participant.fee"} <= set(actions)


def test_a_late_arrival_who_has_not_paid_is_checked_in_only(client, door, organiser):
    client.force_login(organiser)
    url = reverse("organiser:checkin", args=[door.slug])
    response = client.post(
        url, {"action": "register", "name": "Vroni Aigner", "q": "bauml"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert page.startswith('<div id="door">') and "Resi Bäuml" in page and "Sepp Huber" not in page
    late = door.participants.get(name="Vroni Aigner")
    assert late.checked_in and not late.fee_paid


def test_a_refused_late_arrival_leaves_nothing_saved(client, door, organiser):
    client.force_login(organiser)
    url = reverse("organiser:checkin", args=[door.slug])
    page = client.post(url, {"action": "register", "name": "  ", "paid": "on"})
    assert page.status_code == 200 and door.participants.count() == len(PEOPLE)
    young = datetime.date.today().replace(year=datetime.date.today().year - 5)
    page = client.post(url, {"action": "register", "name": "Kind Klein", "birth_date": young.isoformat()})
    text = page.content.decode()
    assert page.status_code == 200 and "5.2.12" in text and 'value="Kind Klein"' in text
    assert door.participants.count() == len(PEOPLE) and not door.participants.filter(fee_paid=True).exists()


def test_only_who_may_edit_participants_registers_at_the_door(client, door, referee):
    client.force_login(referee)
    url = reverse("organiser:checkin", args=[door.slug])
    assert client.post(url, {"action": "register", "name": "Vroni Aigner"}).status_code == 403
    assert door.participants.count() == len(PEOPLE)
