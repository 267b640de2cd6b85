"""The register and the series (issue 28): names in German order, found however they are typed;
a series' players not in the register listed, with one action to add them."""

import pytest
from django.urls import reverse

from tournament.models import Participant, Person, Series, StaffRole
from tournament.series import standings as series_standings

pytestmark = pytest.mark.django_db

NAMES = ["Sepp Huber", "Toni Brandl", "Franz Höß", "Resi Bäuml"]
GERMAN = ["Resi Bäuml", "Toni Brandl", "Franz Höß", "Sepp Huber"]
TYPED = [  # (query, who is found)
    ("Sepp Huber", "Sepp Huber"),
    ("Huber Sepp", "Sepp Huber"),
    ("Huber, Sepp", "Sepp Huber"),
    ("Bauml", "Resi Bäuml"),
    ("Bäuml", "Resi Bäuml"),
    ("hoss", "Franz Höß"),
]


def shown(page: str, names=NAMES) -> list[str]:
    return sorted((name for name in names if name in page), key=page.index)


@pytest.fixture
def register(person):
    return [person(name) for name in NAMES]


def test_the_register_lists_in_german_order_and_finds_any_spelling(client, manager, register, person):
    client.force_login(manager)
    url = reverse("series:register")
    assert shown(client.get(url).content.decode()) == GERMAN
    for query, found in TYPED:
        assert shown(client.get(url, {"q": query}).content.decode()) == [found], query
    person("Xaver Müller")
    for query in ("muller", "mueller", "Müller"):
        assert "Xaver Müller" in client.get(url, {"q": query}).content.decode(), query


def test_the_take_over_page_lists_in_german_order_and_finds_any_spelling(
    client, organiser, tournament, register, make_tournament
):
    client.force_login(organiser)
    url = reverse("organiser:take_participants", args=[tournament.slug])
    assert shown(client.get(url).content.decode()) == GERMAN
    for query, found in TYPED:
        assert shown(client.get(url, {"q": query}).content.decode()) == [found], query
    earlier = make_tournament("vorjahr")
    StaffRole.objects.create(tournament=earlier, user=organiser, role=StaffRole.Role.ORGANISER)
    for number, name in enumerate(NAMES, start=1):
        Participant.objects.create(tournament=earlier, number=number, name=name)
    assert shown(client.get(url, {"from": "vorjahr"}).content.decode()) == GERMAN


def test_the_series_lists_equal_points_in_german_order(client, register, played_by):
    series = Series.objects.create(name="Dorf-Cup", slug="dorf")
    played_by("d1", series_standings.datetime.date(2026, 2, 1), dict.fromkeys(register, 0), series)
    assert [row.name for row in series_standings.compute(series).rows] == GERMAN
    assert shown(client.get(reverse("series:standings", args=["dorf"])).content.decode()) == GERMAN


@pytest.fixture
def half_registered(register, played_by):
    """A cup tournament of four persons of the register, and two players typed in by hand."""
    series = Series.objects.create(name="Dorf-Cup", slug="dorf")
    played = played_by("d1", series_standings.datetime.date(2026, 2, 1), dict.fromkeys(register, 0), series)
    Participant.objects.create(tournament=played, number=5, name="Vroni Aigner", club="SK Au")
    Participant.objects.create(tournament=played, number=6, name="Anderl Zach")
    Participant.objects.create(tournament=played, number=7, name="Reserl Ruhig", status="reserve")
    return played


def test_the_series_page_lists_players_not_in_the_register(client, manager, half_registered):
    client.force_login(manager)
    page = client.get(reverse("series:manage", args=["dorf"])).content.decode()
    assert shown(page, ["Vroni Aigner", "Anderl Zach"]) == ["Vroni Aigner", "Anderl Zach"]
    assert "Reserl Ruhig" not in page and "Sepp Huber" not in page
    # the organisation's administrator manages all its tournaments (issue 29): he adds them
    assert "Alle in die Spielerkartei aufnehmen" in page and 'name="number" value="6"' in page
    standings = client.get(reverse("series:standings", args=["dorf"])).content.decode()
    assert "2 Spieler dieser Turniere sind nicht in der Spielerkartei" in standings


def test_the_public_never_sees_the_register_notice(client, half_registered):
    assert "Spielerkartei" not in client.get(reverse("series:standings", args=["dorf"])).content.decode()


def test_the_series_page_adds_one_or_all_missing_players(client, manager, half_registered):
    StaffRole.objects.create(tournament=half_registered, user=manager, role=StaffRole.Role.ORGANISER)
    client.force_login(manager)
    url = reverse("series:manage", args=["dorf"])
    assert 'name="number" value="6"' in client.get(url).content.decode()
    client.post(url, {"register": "d1", "number": "6"})
    assert Person.objects.filter(name="Anderl Zach").exists() and not Person.objects.filter(
        name="Vroni Aigner"
    )
    assert half_registered.participants.get(number=6).person is not None
    client.post(url, {"register": "d1"})
    assert Person.objects.filter(name="Vroni Aigner", club="SK Au").exists()
    page = client.get(url).content.decode()
    assert "Nicht in der Spielerkartei" not in page
    assert not series_standings.unregistered([half_registered])
    assert client.post(url, {"register": "nirgends"}).status_code == 404


def test_adding_needs_the_organisations_administrator(client, manager, half_registered, club_b, organiser):
    """Neither another organisation's administrator nor a member of this one who organises
    another tournament adds its players (issue 29)."""
    for outsider in (club_b.admin, organiser):
        client.force_login(outsider)
        response = client.post(reverse("series:manage", args=["dorf"]), {"register": "d1"})
        assert response.status_code == 403
        response = client.post(reverse("organiser:add_to_register", args=["d1"]))
        assert response.status_code == 403
    assert half_registered.participants.filter(person__isnull=True).count() == 3


def test_the_tournaments_series_page_lists_and_adds_its_missing_players(client, manager, half_registered):
    StaffRole.objects.create(tournament=half_registered, user=manager, role=StaffRole.Role.ORGANISER)
    client.force_login(manager)
    url = reverse("organiser:tournament_series", args=["d1"])
    page = client.get(url).content.decode()
    assert "Vroni Aigner" in page and "Anderl Zach" in page and "Reserl Ruhig" not in page
    response = client.post(
        reverse("organiser:add_to_register", args=["d1"]), {"back": "series", "number": "5"}
    )
    assert response["Location"] == url
    assert half_registered.participants.get(number=5).person.name == "Vroni Aigner"
    assert half_registered.participants.get(number=6).person is None
