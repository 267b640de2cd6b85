"""The organiser's pages, walked as the organiser walks them."""

import datetime
import html
import re

import pytest
from django.urls import reverse

from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.models import Participant, StaffRole, Substitution, Tournament
from tournament.tournaments import services as tournament_service

pytestmark = pytest.mark.django_db


def test_create_a_tournament_with_a_custom_profile(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:create"),
        {
            "name": "Pokal 2026",
            "slug": "pokal-2026",
            "date": "2036-12-05",  # to come, whatever day the test runs
            "venue": "Turnhalle",
            "organiser": "SK Moosach",
            "profile": "turnierregeln-3x16",
            "min_age": "18",
            "tables": '{"points": {"solo": [[15, 5], [18, 6], [21, 7]]}}',
        },
        follow=True,
    )
    assert response.status_code == 200
    tournament = Tournament.objects.get(slug="pokal-2026")
    assert tournament.rules.min_age == 18
    assert tournament.rules.points.solo[0] == (15, 5)
    assert tournament.matches.count() == 3
    assert StaffRole.objects.filter(tournament=tournament, user=organiser, role="organiser").exists()
    assert tournament.retention_until == datetime.date(2037, 6, 5)


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ('{"points": {"solo": [[6, 3], [9, 3], [12, 4]]}}', "would not sum to zero"),
        ("{points", "This is not valid JSON: line 1, column 2: a name in double quotes is expected."),
        ("[" * 5000, "Lists or objects nest too deeply to be read."),
        ("1" * 5000, "A number is too long to be read."),
        ('{"points": ' + "[" * 900 + "]" * 900 + "}", "points"),
        ('{"points": {"solo": [[1e400, 5]]}}', "solo"),
        ('{"points": {"solo": [[99999999999999999999999, 5], [1, 2], [3, 4]]}}', "solo"),
        ('{"sanctions": {"x": [1, 2]}, "points": {"tout": null}}', "sanction"),
        ('{"matches": 3}', 'Only "points" and "sanctions" belong here.'),
    ],
)
def test_an_invalid_profile_is_refused_with_the_reason(client, organiser, tables, message, settings):
    settings.LANGUAGE_CODE = "en"
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:create"),
        {
            "name": "X",
            "slug": "x",
            "date": "2026-12-05",
            "profile": "schafkopfschule-2007",
            "tables": tables,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert message in html.unescape(response.content.decode())
    assert not Tournament.objects.filter(slug="x").exists()


def test_the_rules_are_fixed_once_drawn(client, tournament, organiser, add_players):
    """Issue 14, finding 3: a running tournament keeps the rules its sheets are played by."""
    add_players(tournament, 8)
    draw_service.draw_all(organiser, tournament, seed="s")
    client.force_login(organiser)
    url = reverse("organiser:edit", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert "Fest seit der Auslosung" in page and re.search(r'<select name="profile"[^>]* disabled', page)
    client.post(
        url,
        {
            "name": tournament.name,
            "slug": tournament.slug,
            "date": "2026-11-21",
            "profile": "turnierregeln-3x16",
            "matches": "1",
            "games_per_match": "16",
            "retention_until": "2027-05-21",
        },
    )
    tournament.refresh_from_db()
    assert (tournament.profile, tournament.rule_overrides, tournament.matches.count()) == (
        "schafkopfschule-2007",
        {},
        2,
    )
    with pytest.raises(ServiceError, match="Auslosung"):
        tournament_service.update_tournament(organiser, tournament, rule_overrides={"games_per_match": 16})


def test_an_old_short_name_keeps_leading_to_the_tournament(client, tournament, organiser):
    """Issue 14, finding 3: printed QR codes and links of the old short name keep working."""
    tournament_service.update_tournament(organiser, tournament, slug="kirchweih-2026")
    response = client.get("/t/kirchweih/standings/?q=Huber")
    assert response.status_code == 301 and response["Location"] == "/t/kirchweih-2026/standings/?q=Huber"
    assert client.get("/t/kirchweih/qr.svg").status_code == 301
    client.force_login(organiser)
    assert client.get("/manage/kirchweih/").status_code == 301
    with pytest.raises(ServiceError, match="kirchweih"):
        tournament_service.create_tournament(organiser, name="Neu", slug="kirchweih", date="2026-12-01")


def test_the_short_name_is_made_from_the_name(client, organiser):
    client.force_login(organiser)
    client.post(
        reverse("organiser:create"),
        {"name": "Kirta-Schafkopf Grünwald", "date": "2026-10-18", "profile": "schafkopfschule-2007"},
    )
    assert Tournament.objects.get(name="Kirta-Schafkopf Grünwald").slug == "kirta-schafkopf-gruenwald"


def test_dashboard_shows_what_is_missing(client, tournament, organiser, add_players):
    add_players(tournament, 11)  # 11 fill neither tables of four nor of five
    client.force_login(organiser)
    text = client.get(reverse("organiser:dashboard", args=[tournament.slug])).content.decode()
    assert "11 aktive Teilnehmer füllen keine Vierer- und Fünfertische" in text and "Ersatzspieler" in text
    assert "0 von 2 Durchgängen ausgelost" in text


def test_dashboard_tells_the_tables_of_four_and_five(client, tournament, organiser, add_players):
    add_players(tournament, 10)
    client.force_login(organiser)
    text = client.get(reverse("organiser:dashboard", args=[tournament.slug])).content.decode()
    assert "10 aktive Teilnehmer: Die Auslosung bildet 2 Fünfertische" in text
    assert "dort 40 Spiele je Durchgang, der Geber setzt aus" in text


def test_add_search_and_edit_participants(client, tournament, organiser):
    client.force_login(organiser)
    add = reverse("organiser:participant_add", args=[tournament.slug])
    client.post(add, {"name": "Huber, Sepp", "club": "SK Moosach", "status": "active"})
    client.post(add, {"number": "7", "name": "Maier, Resi", "status": "active"})
    response = client.post(add, {"number": "7", "name": "Bauer, Toni", "status": "active"})
    assert "Maier, Resi" in response.content.decode()  # refused: the number is Resi's
    assert list(Participant.objects.values_list("number", "name")) == [(1, "Huber, Sepp"), (7, "Maier, Resi")]
    listing = reverse("organiser:participants", args=[tournament.slug])
    text = client.get(listing, {"q": "moosach"}).content.decode()
    assert "Huber, Sepp" in text and "Maier, Resi" not in text
    assert "Maier, Resi" in client.get(listing, {"q": "7"}).content.decode()
    edit = reverse("organiser:participant", args=[tournament.slug, 7])
    client.post(edit, {"number": "7", "name": "Maier, Theresia", "status": "withdrawn"})
    resi = Participant.objects.get(number=7)
    assert (resi.name, resi.status) == ("Maier, Theresia", "withdrawn")


def test_participant_list_is_sortable_and_paginated(client, tournament, organiser, add_players):
    add_players(tournament, 120)
    client.force_login(organiser)
    listing = reverse("organiser:participants", args=[tournament.slug])
    text = client.get(listing, {"sort": "-number"}).content.decode()
    assert text.index("Spieler 120") < text.index("Spieler 119")
    assert "Spieler 001" not in text
    assert "Spieler 001" in client.get(listing, {"sort": "-number", "page": 3}).content.decode()


def test_substitute_takes_over_from_a_match(client, tournament, organiser, add_players):
    (player,) = add_players(tournament, 1)
    client.force_login(organiser)
    url = reverse("organiser:substitute", args=[tournament.slug, player.number])
    client.post(url, {"name": "Ersatz, Xaver", "from_match": "2", "from_game": "1"})
    assert Substitution.objects.get().name == "Ersatz, Xaver"
    player.refresh_from_db()
    assert player.player_name(1, 32) == "Spieler 001"
    assert player.player_name(2, 1) == "Ersatz, Xaver"
    response = client.post(url, {"name": "Zu spät", "from_match": "3", "from_game": "1"}, follow=True)
    assert "Durchgang 3 gibt es nicht" in response.content.decode()
    assert Substitution.objects.count() == 1


def test_hall_lists(client, tournament, organiser, add_players):
    add_players(tournament, 8)
    names = ["Zeller, Anna", "Xaver Bauer", "Toni Huber", "Ägidius Özdemir", "Maier, Resi", "Lena Schmid",
             "Korbinian Ott", "Vroni Adler"]  # fmt: skip
    for participant, name in zip(tournament.participants.order_by("number"), names, strict=True):
        participant.name = name
        participant.save()
    Substitution.objects.create(
        participant=Participant.objects.get(number=3), name="Aigner, Vroni", from_match=2
    )
    draw_service.draw_all(organiser, tournament, seed="saal")
    client.force_login(organiser)
    tables = client.get(reverse("organiser:table_list", args=[tournament.slug, 2]))
    text = re.sub(r"<.*?>", "", tables.content.decode())  # the surname in a span of its own
    assert "Aigner, Vroni" in text and "Toni Huber" not in text
    seats = html.unescape(client.get(reverse("organiser:seat_list", args=[tournament.slug])).content.decode())
    rows = [
        (re.sub(r"<.*?>", "", name), re.findall(r"<td>(.*?)</td>", cells))
        for name, cells in re.findall(
            r'<tr><td class="name">(.*?)</td><td class="num">\d+</td>(.*?)</tr>', seats
        )
    ]
    # By surname, umlauts with their letter (DIN 5007-1); the surname stands out
    assert [name for name, _places in rows] == [
        "Vroni Adler", "Aigner, Vroni", "Xaver Bauer", "Toni Huber", "Maier, Resi", "Korbinian Ott",
        "Ägidius Özdemir", "Lena Schmid", "Zeller, Anna",
    ]  # fmt: skip
    assert "Toni <strong>Huber</strong>" in seats
    assert '<span class="nobreak"><strong>Zeller</strong>,</span> Anna' in seats  # the comma kept with it
    places = dict(rows)
    # The substitute only in the match he plays, the one he replaced only before it
    assert places["Toni Huber"][0].startswith("Tisch") and places["Toni Huber"][1] == "—"
    assert places["Aigner, Vroni"][0] == "—" and places["Aigner, Vroni"][1].startswith("Tisch")
    assert re.findall(r'<tr class="letter"><th[^>]*>(.)</th>', seats) == list("ABHMOSZ")
    assert client.get(reverse("organiser:table_list", args=[tournament.slug, 9])).status_code == 404


def test_staff_roles_are_granted_and_revoked(client, tournament, organiser, make_user):
    make_user("neu")
    client.force_login(organiser)
    url = reverse("organiser:staff", args=[tournament.slug])
    granted = client.post(url, {"username": "neu", "role": "referee"}, follow=True)
    assert "neu hat jetzt die Rolle Schiedsrichter" in granted.content.decode()  # confirmed
    role = StaffRole.objects.get(user__username="neu")
    assert role.role == "referee"
    response = client.post(url, {"username": "niemand", "role": "referee"})
    assert "niemand" in response.content.decode()
    revoked = client.post(url, {"revoke": role.pk}, follow=True)
    assert "neu hat die Rolle Schiedsrichter nicht mehr" in revoked.content.decode()
    assert not StaffRole.objects.filter(user__username="neu").exists()
    own = StaffRole.objects.get(user=organiser)
    client.post(url, {"revoke": own.pk})
    assert StaffRole.objects.filter(pk=own.pk).exists()  # the last organiser stays


def test_home_links_staff_to_their_tournament(client, tournament, organiser):
    client.force_login(organiser)
    text = client.get("/").content.decode()
    assert reverse("organiser:dashboard", args=[tournament.slug]) in text
    assert reverse("organiser:create") in text


def test_history_reads_as_sentences(client, tournament, organiser, add_players):
    add_players(tournament, 8)
    draw_service.draw_all(organiser, tournament, seed="verlauf")
    client.force_login(organiser)
    text = client.get(reverse("organiser:dashboard", args=[tournament.slug])).content.decode()
    assert "alle Durchgänge ausgelost" in text
    assert "Startwert verlauf" in text
    assert "draw.all" not in text


def test_a_retention_date_the_backup_could_not_restore_is_refused(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:edit", args=[tournament.slug]),
        {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "profile": tournament.profile,
            "retention_until": "9999-12-31",
        },
    )
    assert response.status_code == 200
    assert "kleiner oder gleich 2999-12-31" in html.unescape(response.content.decode())
    tournament.refresh_from_db()
    assert tournament.retention_until.year < 2999


def test_the_sites_own_addresses_are_no_short_names(client, organiser):
    from django.urls import get_resolver

    from tournament.tournaments.models import RESERVED_SLUGS

    literal = {
        str(pattern.pattern).split("/")[0]
        for mounted in get_resolver().url_patterns
        if str(mounted.pattern) in ("manage/", "referee/", "t/") and hasattr(mounted, "url_patterns")
        for pattern in mounted.url_patterns
    } - {"<slug:slug>"}
    assert literal == RESERVED_SLUGS
    client.force_login(organiser)
    fields = {"name": "Import", "date": "2026-12-05", "profile": "schafkopfschule-2007"}
    refused = client.post(reverse("organiser:create"), {**fields, "slug": "import"})
    assert "„import“ ist eine Adresse der Seite selbst" in html.unescape(refused.content.decode())
    client.post(reverse("organiser:create"), fields)
    assert Tournament.objects.get(name="Import").slug == "import-2"


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("gruenwald", "Grünwald, Sepp"),
        ("GRÜNWALD", "Grünwald, Sepp"),
        ("grünwald", "Gruenwald, Toni"),
        ("strasser", "Straßer, Resi"),
        ("straßer", "Strasser, Vroni"),
        ("oezdemir", "Özdemir, Ägidius"),
        ("ÄGIDIUS", "Özdemir, Ägidius"),
    ],
)
def test_search_finds_umlauts_either_way(client, tournament, organiser, add_players, typed, found):
    for number, name in enumerate(
        [
            "Grünwald, Sepp",
            "Gruenwald, Toni",
            "Straßer, Resi",
            "Strasser, Vroni",
            "Özdemir, Ägidius",
            "Maier, Xaver",
        ],
        start=1,
    ):
        Participant.objects.create(tournament=tournament, number=number, name=name)
    client.force_login(organiser)
    for url in (
        reverse("organiser:participants", args=[tournament.slug]),
        reverse("public:standings", args=[tournament.slug]),
    ):
        page = html.unescape(client.get(url, {"q": typed}).content.decode())
        assert found in page, url
        assert "Maier, Xaver" not in page, url


def test_a_search_that_finds_nobody_says_so(client, tournament, organiser, add_players):
    add_players(tournament, 3)
    client.force_login(organiser)
    for url in (
        reverse("organiser:participants", args=[tournament.slug]),
        reverse("public:standings", args=[tournament.slug]),
    ):
        page = html.unescape(client.get(url, {"q": "Xaverius"}).content.decode())
        assert "Niemand gefunden für „Xaverius“" in page, url


def test_a_referee_is_offered_no_edit_link_and_the_footer_names_the_rules(
    client, tournament, referee, add_players
):
    add_players(tournament, 2)
    client.force_login(referee)
    page = client.get(reverse("organiser:participants", args=[tournament.slug])).content.decode()
    assert "Spieler 001" in page and "bearbeiten" not in page
    assert "offiziellen Regeln der Schafkopfschule" in page
    tournament.profile = "turnierregeln-3x16"
    tournament.save()
    page = html.unescape(client.get(reverse("public:overview", args=[tournament.slug])).content.decode())
    assert "offiziellen Regeln" not in page and "Gespielt nach: Turnierregeln 3 × 16 Spiele" in page


def test_the_retention_follows_a_changed_date_unless_set_by_hand(client, organiser, make_tournament):
    tournament = make_tournament("verschoben", date=datetime.date(2036, 5, 16))
    StaffRole.objects.create(tournament=tournament, user=organiser, role="organiser")
    client.force_login(organiser)
    url = reverse("organiser:edit", args=[tournament.slug])
    fields = {"name": tournament.name, "profile": tournament.profile, "retention_until": "2036-11-16"}
    response = client.post(url, {**fields, "date": "2036-11-23"})
    assert response.status_code == 302, html.unescape(response.content.decode())
    tournament.refresh_from_db()
    assert tournament.retention_until == datetime.date(2037, 5, 23)  # moved with the date
    client.post(url, {**fields, "date": "2036-11-23", "retention_until": "2040-01-01"})
    client.post(url, {**fields, "date": "2036-11-24", "retention_until": "2040-01-01"})
    tournament.refresh_from_db()
    assert tournament.retention_until == datetime.date(2040, 1, 1)  # set by hand: it stays


def test_a_fields_error_stands_under_that_field(client, tournament, organiser):
    client.force_login(organiser)
    page = client.post(
        reverse("organiser:participant_add", args=[tournament.slug]), {"name": "", "status": "active"}
    ).content.decode()
    name_label = page.index('<label for="id_name"')
    error = page.index("Dieses Feld ist zwingend erforderlich.")
    club_label = page.index('<label for="id_club"')
    assert name_label < error < club_label  # not above the label, where it reads as the number's
    assert page.count("Dieses Feld ist zwingend erforderlich.") == 1


def test_tables_of_five_are_switched_off_and_on_in_the_form(client, organiser):
    """Issue 18: the profile's option on the tournament's page, checked by default."""
    client.force_login(organiser)
    page = client.get(reverse("organiser:create")).content.decode()
    assert re.search(r'<input type="checkbox" name="tables_of_five"[^>]* checked', page)
    data = {"name": "Vier", "slug": "vier", "date": "2026-12-05", "profile": "schafkopfschule-2007"}
    client.post(reverse("organiser:create"), data)
    four = Tournament.objects.get(slug="vier")
    assert four.rule_overrides == {"tables_of_five": False} and not four.rules.tables_of_five
    client.post(reverse("organiser:create"), {**data, "slug": "fuenf", "tables_of_five": "on"})
    five = Tournament.objects.get(slug="fuenf")
    assert five.rule_overrides == {} and five.rules.tables_of_five
