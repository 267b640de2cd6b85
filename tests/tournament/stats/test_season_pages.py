"""The season page, the player's page, the awards with ties and the consent (issue 30): public
pages show only persons who agreed; the series' and the register's managers see everyone."""

import datetime
import io

import openpyxl
import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from tournament.models import LogEntry, OrganisationMember, Person, Series, StaffRole, Tournament
from tournament.series import exports
from tournament.series import season as series_season
from tournament.series.services import set_consent, update_series
from tournament.stats import season as stats_season
from tournament.stats.awards import give
from tournament.stats.players import PlayerStats

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(make_user, club):
    """The series' and the register's manager: the organisation's administrator (issue 29)."""
    user = make_user("cupwart")
    OrganisationMember.objects.create(organisation=club, user=user, is_admin=True)
    return user


@pytest.fixture
def season(sheets):
    """Two evenings of the same nine persons; persons 1–4 agreed to public statistics."""
    series = Series.objects.create(
        name="Wirtshaus-Cup",
        slug="cup",
        awards=["attendances", "placing", "rating", "pechvogel", "solos"],
        award_attendances=2,
        rating_matches=2,
    )
    persons = {n: Person.objects.create(name=f"Person {n}", public_stats=n <= 4) for n in range(1, 10)}
    sheets("erstes", datetime.date(2026, 3, 1), persons, series=series)
    sheets("zweites", datetime.date(2026, 4, 1), persons, series=series)
    return series, persons


def stats(name, **numbers):
    return PlayerStats(name, name, **numbers)


def test_awards_list_ties_together_and_ask_for_their_minimums():
    a = stats("Anna", tournaments=3, games=30, points=-30, solo_won=4, rated_matches=6)
    b = stats("Bert", tournaments=3, games=60, points=-60, solo_won=4, rated_matches=6)
    c = stats("Carl", tournaments=1, games=10, points=-50, solo_won=1, rated_matches=2)
    given = {g.award.key: g for g in give(["attendances", "pechvogel", "solos", "rating"], [a, b, c], 2, 5)}
    assert [w.name for w in given["attendances"].winners] == ["Anna", "Bert"]
    assert [w.name for w in given["solos"].winners] == ["Anna", "Bert"] and given["solos"].value == "4"
    # Carl has the fewest points per game but only one attendance: Anna and Bert share -1.00.
    assert [w.name for w in given["pechvogel"].winners] == ["Anna", "Bert"]
    assert given["rating"].winners == [a, b]  # equal ratings, both from 5 matches on; Carl not
    assert "ab 2 Turnieren" in given["pechvogel"].rule  # German first
    # one in German is "ab 1 Turnier", not "ab 1 Turnieren" (walk)
    one = {g.award.key: g.rule for g in give(["placing", "pechvogel", "rating"], [a, b, c], 1, 1)}
    assert one["placing"].endswith("ab 1 Turnier") and one["pechvogel"].endswith("ab 1 Turnier")
    assert one["rating"].endswith("ab 1 Durchgang")
    assert give(["placing"], [c], 2, 5)[0].winners == []  # nobody qualifies yet


def test_the_season_page_shows_only_who_agreed_and_managers_see_all(season, client, manager):
    series, persons = season
    url = reverse("series:stats", args=[series.slug])
    page = client.get(url).content.decode()
    assert all(f"Person {n}<" in page for n in range(1, 5))
    assert not any(f"Person {n}<" in page for n in range(5, 10))
    assert (
        "5 Spieler der Saison werden nicht gezeigt" in page or "5 players of the season are not shown" in page
    )
    assert "from 2 matches on" in page or "ab 2 Durchgängen" in page
    client.force_login(manager)
    page = client.get(url).content.decode()
    assert all(f"Person {n}<" in page for n in range(1, 10))


def test_the_players_page_needs_his_consent_but_for_managers(season, client, manager):
    _series, persons = season
    agreed, private = persons[1], persons[7]
    page = client.get(reverse("series:player", args=[agreed.pk]))
    assert page.status_code == 200 and b"<svg" in page.content and b"polyline" in page.content
    assert client.get(reverse("series:player", args=[private.pk])).status_code == 404
    client.force_login(manager)
    assert client.get(reverse("series:player", args=[private.pk])).status_code == 200


def test_award_winners_without_consent_are_not_named_publicly_but_in_the_documents(season, client):
    series, persons = season
    found = series_season.of_series(series)
    public = series_season.awards(series, found, everything=False)
    documents = exports.awards(series)
    for shown, full in zip(public, documents, strict=True):
        assert len(shown.winners) + shown.hidden == len(full.winners)
        assert all(w.key in {p.pk for n, p in persons.items() if n <= 4} for w in shown.winners)
    attendances = next(a for a in documents if a.given.award.key == "attendances")
    assert len(attendances.winners) == 9  # all nine came twice: listed together
    page = client.get(reverse("series:standings", args=[series.slug])).content.decode()
    assert "Person 9" in page  # in the standings, as before
    section = page[page.index('<section class="awards">') : page.index("</section>")]
    assert "Person 1<" in section and "Person 9" not in section
    # apart by "; ": names are "Huber, Sepp", which commas would run together (walk)
    assert "Person 1</a>; <a" in section and "; <span" in section


def test_consent_is_a_checkbox_in_the_register_and_in_the_log(season, client, manager):
    _series, persons = season
    person = persons[7]
    client.force_login(manager)
    register = client.get(reverse("series:register")).content.decode()
    assert reverse("series:consent", args=[person.pk]) in register
    client.post(reverse("series:consent", args=[person.pk]), {"public_stats": "1"})
    person.refresh_from_db()
    assert person.public_stats
    logged = LogEntry.objects.filter(action="register.consent", data__person=person.pk)
    assert logged.count() == 2 and logged.first().data["after"] is True  # both his tournaments
    assert not set_consent(manager, person, True)  # nothing changed, nothing logged
    client.logout()
    assert client.get(reverse("series:player", args=[person.pk])).status_code == 200
    assert client.post(reverse("series:consent", args=[person.pk]), {}).status_code == 302  # to log in
    person.refresh_from_db()
    assert person.public_stats


def test_the_season_is_kept_until_its_results_change(season, monkeypatch, manager):
    series, _persons = season
    calls = []
    real = stats_season.person_stats
    monkeypatch.setattr(stats_season, "person_stats", lambda *a: calls.append(1) or real(*a))
    series_season.of_series(series)
    series_season.of_series(series)
    assert len(calls) == 1
    Person.objects.filter(name="Person 1").update(name="Person Eins")  # a name is part of it
    assert series_season.of_series(series).players[0].name and len(calls) == 2


def test_unknown_awards_are_refused_with_a_message(season, manager):
    series, _persons = season
    with pytest.raises(Exception, match="Unknown awards|Unbekannte"):
        update_series(manager, series, awards=["glueckspilz"])


def test_the_participants_page_shows_his_numbers_only_with_his_consent(season, client, make_user):
    _series, persons = season
    tournament = Tournament.objects.get(slug="erstes")
    agreed = tournament.participants.get(person=persons[1])
    private = tournament.participants.get(person=persons[7])

    def page(participant):
        return client.get(
            reverse("public:participant", args=[tournament.slug, participant.number])
        ).content.decode()

    shown = page(agreed)
    assert "Punkte je Spiel" in shown and reverse("series:player", args=[persons[1].pk]) in shown
    hidden = page(private)
    assert "Punkte je Spiel" not in hidden and reverse("series:player", args=[persons[7].pk]) not in hidden
    assert "Rang" in hidden  # in the standings as before
    organiser = make_user("ausrichter")
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    client.force_login(organiser)
    assert "Punkte je Spiel" in page(private)


def test_the_awards_are_in_the_series_pdf_and_workbook_with_every_winner(season, client, manager):
    series, persons = season
    _name, _mime, content = exports.render_xlsx(series)
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    rows = list(book["Preise"].iter_rows(values_only=True))
    assert rows[0] == ("Preis", "Regel", "Wert", "Gewinner")
    attendances = next(r for r in rows if r[0] == "Die meisten Turniere")
    assert attendances[2] == "2" and all(f"Person {n}" in attendances[3] for n in range(1, 10))
    client.force_login(manager)
    page = client.get(reverse("series:document", args=[series.slug, "html"])).content.decode()
    assert "Pechvogel" in page and "Person 9" in page
    assert "Person 1; Person 2; Person 3" in page  # apart by "; " as in the workbook


def test_another_organisations_administrator_sees_what_the_public_sees(season, client, club_b):
    """Issue 29: a person without consent stays hidden from another club's staff."""
    series, persons = season
    client.force_login(club_b.admin)
    page = client.get(reverse("series:stats", args=[series.slug])).content.decode()
    assert "Person 1<" in page and "Person 5<" not in page
    assert client.get(reverse("series:player", args=[persons[5].pk])).status_code == 404
    assert client.get(reverse("series:player", args=[persons[1].pk])).status_code == 200
    response = client.post(reverse("series:consent", args=[persons[5].pk]), {"public_stats": "1"})
    assert response.status_code == 403
    persons[5].refresh_from_db()
    assert not persons[5].public_stats


def test_a_chart_of_one_evening_names_its_date_once(sheets, client):
    """Walk: after his first tournament a player's charts read "21.11.26 … 21.11.26", the same
    date at both ends of the axis."""
    persons = {n: Person.objects.create(name=f"Person {n}", public_stats=True) for n in range(1, 10)}
    sheets("erstes", datetime.date(2026, 3, 1), persons)
    page = client.get(reverse("series:player", args=[persons[1].pk])).content.decode()
    charts = page.split('<figure class="player-chart">')[1:]
    assert len(charts) == 2 and all(chart.count(">01.03.26<") == 1 for chart in charts)


def test_award_winners_of_one_name_are_told_apart_by_their_club(sheets, client, manager):
    """Walk: "Aigner, Lugge; Aigner, Lugge" among the winners, two persons of the register (one
    of Rosenheim, one of Erding) that the award named alike."""
    series = Series.objects.create(name="Cup", slug="cup-namen", awards=["attendances"], award_attendances=1)
    persons = {
        n: Person.objects.create(
            name="Aigner, Lugge" if n <= 2 else f"Person {n}",
            club={1: "Die Unter Rosenheim", 2: "Sauspiel Erding"}.get(n, "SK Au"),
            public_stats=True,
        )
        for n in range(1, 10)
    }
    sheets("erstes", datetime.date(2026, 3, 1), persons, series=series)
    page = client.get(reverse("series:standings", args=[series.slug])).content.decode()
    section = page[page.index('<section class="awards">') : page.index("</section>")]
    assert "Aigner, Lugge (Die Unter Rosenheim)</a>" in section
    assert "Aigner, Lugge (Sauspiel Erding)</a>" in section
    assert "Person 3</a>" in section  # no club where the name is his alone
    client.force_login(manager)
    document = client.get(reverse("series:document", args=[series.slug, "html"])).content.decode()
    assert "Aigner, Lugge (Sauspiel Erding)" in document
    _name, _mime, content = exports.render_xlsx(series)
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    rows = list(book["Preise"].iter_rows(values_only=True))
    assert "Aigner, Lugge (Die Unter Rosenheim)" in rows[1][3]


def test_matches_the_rating_did_not_count_are_shown_under_the_matches():
    """Walk: "Noch nicht gewertet" listed players with 2 matches under "ranked from 2 matches on",
    as a table with a substitute in match 2 is not rated: the page now says how many counted."""
    cut = PlayerStats(1, "Brandl, Resi", tournaments=1, matches=2, games=64, rated_matches=1)
    whole = PlayerStats(2, "Huber, Sepp", tournaments=1, matches=2, games=64, rated_matches=2)
    html = render_to_string("public/_player_stats_table.html", {"players": [cut, whole], "ranked": False})
    rows = html.split("<tr>")[2:]
    assert "1 gewertet" in rows[0] and "gewertet" not in rows[1]
