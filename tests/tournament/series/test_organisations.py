"""Two organisations on one site (issue 29, item 2): a person of club A's register is invisible
to club B's staff, in the register, its search, the take-over picker and the series; a series
counts only its organisation's tournaments."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tournament.errors import ServiceError
from tournament.models import OrganisationMember, Participant, Person, Series
from tournament.series import services as register
from tournament.series import standings as series_standings

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 1)


@pytest.fixture
def a_person(person):
    """Club A's player, in club A's register only."""
    return person("Geheim Gustl", club="SK Au", birth_date=datetime.date(1970, 5, 1))


def test_club_bs_administrator_never_sees_club_as_register(client, club_b, a_person, manager, tournament):
    mine = Person.objects.create(name="Bergler Berta", organisation=club_b.organisation)
    client.force_login(club_b.admin)
    page = client.get(reverse("series:register")).content.decode()
    assert "Bergler Berta" in page and "Geheim Gustl" not in page
    assert "(1)" in page  # the count is of his register
    found = client.get(reverse("series:register"), {"q": "Geheim"}).content.decode()
    assert "Geheim Gustl" not in found
    # the picker of his own tournament: his register only, however he searches
    take = reverse("organiser:take_participants", args=[club_b.tournament.slug])
    for query in ("", "Gustl", "SK Au"):
        assert "Geheim Gustl" not in client.get(take, {"q": query}).content.decode()
    assert "Bergler Berta" in client.get(take).content.decode()
    # nor from club A's tournament, named in the address
    assert client.get(take, {"from": "kirchweih"}).status_code == 404
    # a forged post of club A's person takes nobody
    client.post(take, {"persons": [a_person.pk]})
    assert not club_b.tournament.participants.exists()
    with pytest.raises(PermissionDenied):
        register.take_participants(club_b.admin, club_b.tournament, persons=[a_person])
    client.post(take, {"persons": [mine.pk]})
    assert list(club_b.tournament.participants.values_list("name", flat=True)) == ["Bergler Berta"]
    # and club A's administrator does not see club B's
    client.force_login(manager)
    page = client.get(reverse("series:register"), {"q": "Berta"}).content.decode()
    assert "Bergler Berta" not in page


def test_participants_of_club_b_join_club_bs_register_only(club_b, a_person, add_players):
    Participant.objects.create(
        tournament=club_b.tournament,
        number=1,
        name="Geheim Gustl",
        club="SK Au",
        birth_date=a_person.birth_date,
    )
    report = register.add_to_register(club_b.admin, club_b.tournament)
    assert (report.created, report.linked) == (1, 0)  # not linked to club A's person of that name
    linked = club_b.tournament.participants.get().person
    assert linked.organisation == club_b.organisation and linked != a_person
    with pytest.raises(PermissionDenied):
        register.add_to_register(club_b.member, club_b.tournament)  # a member, no administrator


def test_a_series_counts_only_its_organisations_tournaments(cup, club_b, played_by, person):
    b_player = person("Bergler Berta", organisation=club_b.organisation)
    with pytest.raises(ServiceError):
        register.attach(club_b.admin, cup, club_b.tournament)
    assert not cup.tournaments.filter(pk=club_b.tournament.pk).exists()
    # written around the services: club B's tournament and person still do not count
    Participant.objects.create(tournament=club_b.tournament, number=1, name="Bergler Berta", person=b_player)
    club_b.tournament.series = cup
    club_b.tournament.save(update_fields=["series"])
    standings = series_standings.compute(cup)
    assert [t.slug for t in standings.tournaments] == ["t1", "t2", "t3"]
    assert "Bergler Berta" not in [row.name for row in standings.rows]


def test_club_bs_administrator_cannot_manage_club_as_series(client, club_b, cup):
    client.force_login(club_b.admin)
    for url in (
        reverse("series:manage", args=["cup"]),
        reverse("series:document", args=["cup", "html"]),
        reverse("series:xlsx", args=["cup"]),
    ):
        assert client.get(url).status_code == 403, url
    assert client.post(reverse("series:manage", args=["cup"]), {"detach": "t1"}).status_code == 403
    # his tournament's series page offers his organisation's series only
    page = client.get(reverse("organiser:tournament_series", args=[club_b.tournament.slug])).content.decode()
    assert "Wirtshaus-Cup" not in page
    response = client.post(
        reverse("organiser:tournament_series", args=[club_b.tournament.slug]), {"series": cup.pk}
    )
    assert response.status_code == 200  # the form refuses a series not offered
    club_b.tournament.refresh_from_db()
    assert club_b.tournament.series_id is None


def test_a_new_series_belongs_to_its_creators_organisation(client, club_b, manager):
    client.force_login(club_b.admin)
    response = client.post(
        reverse("series:create"),
        {"name": "Berg-Cup", "slug": "berg-cup", "counting": "all", "min_attendances": 0},
    )
    assert response.status_code == 302
    series = Series.objects.get(slug="berg-cup")
    assert series.organisation == club_b.organisation
    assert club_b.organisation.log.filter(action="series.create").exists()
    attach = client.get(reverse("series:manage", args=["berg-cup"])).content.decode()
    assert "b-turnier" in attach or "Bergfelder Schafkopf" in attach
    assert "Kirchweih" not in attach  # club A's tournaments are not offered


def test_an_administrator_of_two_chooses_the_organisation(client, club_b, manager, club, person):
    OrganisationMember.objects.create(organisation=club_b.organisation, user=manager, is_admin=True)
    client.force_login(manager)
    page = client.get(reverse("series:create")).content.decode()
    assert 'name="organisation"' in page and "SK Bergfeld" in page
    with pytest.raises(ServiceError):
        register.create_series(manager, name="Ohne", slug="ohne", counting="all", min_attendances=0)
    client.post(
        reverse("series:create"),
        {
            "organisation": club_b.organisation.pk,
            "name": "Berg-Cup",
            "slug": "berg-cup",
            "counting": "all",
            "min_attendances": 0,
        },
    )
    assert Series.objects.get(slug="berg-cup").organisation == club_b.organisation
    person("Au Anton")
    person("Berg Benno", organisation=club_b.organisation)
    page = client.get(reverse("series:register")).content.decode()
    assert (
        "Au Anton" in page and "Berg Benno" in page and "<td>SK Bergfeld</td>" in page
    )  # whose, beside each
