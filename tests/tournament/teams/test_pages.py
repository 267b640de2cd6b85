"""The team pages of the organiser, the public team standings, the PDF and the worksheet."""

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from tournament.models import Team
from tournament.participants import teams as team_service
from tournament.printing.workbook import EXPORTERS
from tournament.standings import standings
from tournament.teams import standings as team_standings
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_teams(played):
    """The played tournament (12 players) in three teams of four: 1–4, 5–8, 9–12."""
    people = {p.number: p for p in played.participants.all()}
    for name, numbers in (("Moosach", (1, 2, 3, 4)), ("Dachau", (5, 6, 7, 8)), ("Freising", (9, 10, 11, 12))):
        team = team_service.create_team(COMMAND_LINE, played, name)
        team_service.assign(COMMAND_LINE, played, team, [people[n] for n in numbers])
    return played


def expected_sums(tournament):
    """The sums by hand from the individual standings."""
    rows = {row.number: row for row in standings.compute(tournament).rows}
    return {
        name: sum(rows[n].values["points"] for n in numbers)
        for name, numbers in (
            ("Moosach", (1, 2, 3, 4)),
            ("Dachau", (5, 6, 7, 8)),
            ("Freising", (9, 10, 11, 12)),
        )
    }


def test_the_sums_are_the_members_points(with_teams):
    sums = expected_sums(with_teams)
    result = team_standings.compute(with_teams)
    assert {row.name: row.values["points"] for row in result.rows} == sums
    assert sum(sums.values()) == 0  # every game sums to zero, and every player is in a team
    assert [row.values["points"] for row in result.rows] == sorted(sums.values(), reverse=True)


def test_the_organiser_creates_fills_renames_and_deletes_a_team(tournament, organiser, add_players, client):
    add_players(tournament, 6)
    client.force_login(organiser)
    participants = client.get(reverse("organiser:participants", args=[tournament.slug])).content.decode()
    assert reverse("organiser:teams", args=[tournament.slug]) in participants  # reached before any team
    response = client.post(reverse("organiser:teams", args=[tournament.slug]), {"name": "Moosach"})
    team = Team.objects.get(tournament=tournament)
    assert response.url == reverse("organiser:team", args=[tournament.slug, team.pk])
    url = response.url
    client.post(url, {"action": "add", "numbers": "1, 3;4"})
    assert sorted(team.members.values_list("number", flat=True)) == [1, 3, 4]
    text = client.post(url, {"action": "add", "numbers": "2 99"}, follow=True).content.decode()
    assert "99" in text and sorted(team.members.values_list("number", flat=True)) == [1, 3, 4]
    client.post(url, {"action": "remove", "number": 3})
    assert sorted(team.members.values_list("number", flat=True)) == [1, 4]
    client.post(url, {"action": "rename", "name": "Moosach II"})
    team.refresh_from_db()
    assert team.name == "Moosach II"
    text = client.post(
        reverse("organiser:teams", args=[tournament.slug]), {"name": "moosach ii"}, follow=True
    ).content.decode()
    assert Team.objects.count() == 1 and "Moosach II" in text
    page = client.get(reverse("organiser:teams", args=[tournament.slug])).content.decode()
    assert "Moosach II" in page and "Spieler 001" in page
    client.post(url, {"action": "delete"})
    assert not Team.objects.exists() and tournament.participants.count() == 6


def test_another_tournaments_team_is_not_found(tournament, other_tournament, organiser, client):
    foreign = Team.objects.create(tournament=other_tournament, name="Fremde")
    client.force_login(organiser)
    assert client.get(reverse("organiser:team", args=[tournament.slug, foreign.pk])).status_code == 404
    response = client.post(
        reverse("organiser:team", args=[tournament.slug, foreign.pk]), {"action": "delete"}
    )
    assert response.status_code == 404 and Team.objects.filter(pk=foreign.pk).exists()


def test_public_team_standings_are_linked_and_show_every_team(with_teams, client):
    overview = client.get(reverse("public:overview", args=[with_teams.slug])).content.decode()
    url = reverse("public:team_standings", args=[with_teams.slug])
    assert url in overview
    assert url in client.get(reverse("public:standings", args=[with_teams.slug])).content.decode()
    page = client.get(url).content.decode()
    sums = expected_sums(with_teams)
    for row in team_standings.compute(with_teams).rows:
        assert row.name in page and f'<td class="num">{sums[row.name]}</td>' in page
    assert "Spieler 012" in page and 'name="viewport"' in page
    # issue 28, item 2: said once, with the count of the unsigned sheets
    assert page.count("<strong>Vorläufig</strong> – 6 Spiellisten sind noch nicht unterschrieben.") == 1


def test_without_teams_no_link(played, client):
    overview = client.get(reverse("public:overview", args=[played.slug])).content.decode()
    assert reverse("public:team_standings", args=[played.slug]) not in overview


def test_the_organisers_standings_page_shows_the_teams(with_teams, organiser, client):
    client.force_login(organiser)
    page = client.get(reverse("organiser:standings", args=[with_teams.slug])).content.decode()
    assert reverse("organiser:team_rankings_doc", args=[with_teams.slug, "pdf"]) in page
    assert all(name in page for name in ("Moosach", "Dachau", "Freising"))
    assert page.count("<strong>Vorläufig</strong>") == 1  # the standings' notice; not again for teams
    teams_page = client.get(reverse("organiser:teams", args=[with_teams.slug])).content.decode()
    assert "<strong>Vorläufig</strong> – 6 Spiellisten" in teams_page
    match_page = client.get(reverse("organiser:match_standings", args=[with_teams.slug, 1])).content.decode()
    assert reverse("organiser:team_rankings_doc", args=[with_teams.slug, "pdf"]) not in match_page


def test_the_team_standings_pdf(with_teams, organiser, client):
    client.force_login(organiser)
    response = client.get(reverse("organiser:team_rankings_doc", args=[with_teams.slug, "pdf"]))
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    rows = team_standings.compute(with_teams).rows
    positions = [text.index(row.name) for row in rows]
    assert positions == sorted(positions)  # best first
    for row in rows:
        assert str(row.values["points"]) in text
    assert "Spieler 001" in text
    assert (
        client.get(reverse("organiser:team_rankings_doc", args=[with_teams.slug, "doc"])).status_code == 404
    )


def test_the_workbook_has_a_team_worksheet(with_teams):
    with translation.override("en"):
        _name, _mime, content = EXPORTERS["xlsx"].render(with_teams)
    book = load_workbook(io.BytesIO(content))
    assert "Teams" in book.sheetnames
    rows = list(book["Teams"].iter_rows(values_only=True))
    result = team_standings.compute(with_teams)
    team_rows = [row for row in rows[1:] if row[1]]
    assert [(r[0], r[1], *r[4:]) for r in team_rows] == [(t.rank, t.name, *t.key) for t in result.rows]
    members = [row for row in rows[1:] if not row[1]]
    assert sorted(row[2] for row in members) == list(range(1, 13))


def test_no_teams_no_team_worksheet(played):
    with translation.override("en"):
        _name, _mime, content = EXPORTERS["xlsx"].render(played)
    assert "Teams" not in load_workbook(io.BytesIO(content)).sheetnames
