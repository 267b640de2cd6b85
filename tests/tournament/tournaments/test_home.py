import datetime

import pytest
from django.urls import reverse

from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_home_page_is_german_and_explains_the_empty_state(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    text = response.content.decode()
    assert '<html lang="de">' in text
    assert "Noch gibt es hier keine Turniere." in text
    assert "lost Tische und Sitzplätze aus" in text


def test_home_page_lists_tournaments(client):
    Tournament.objects.create(
        name="Kirchweih-Schafkopf 2026",
        slug="kirchweih-2026",
        date=datetime.date(2026, 11, 21),
        venue="Gasthof Post",
    )
    text = client.get(reverse("home")).content.decode()
    assert "Kirchweih-Schafkopf 2026" in text
    assert "Gasthof Post" in text
    assert "Schafkopfschule 2007 (offiziell, 2 × 32 Spiele)" in text
    assert "Noch gibt es hier keine Turniere." not in text


def test_language_switch_to_english(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
    text = response.content.decode()
    assert '<html lang="en">' in text
    assert "There are no tournaments yet." in text


def test_english_from_the_browser(client):
    text = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tournaments" in text


def test_static_css_is_served(client):
    from django.contrib.staticfiles import finders

    assert finders.find("css/site.css")


def test_admin_lists_tournaments(admin_client):
    assert admin_client.get("/admin/tournament/tournament/").status_code == 200


@pytest.mark.parametrize(
    "model",
    [
        "tournament",
        "staffrole",
        "participant",
        "substitution",
        "match",
        "table",
        "seat",
        "scoresheet",
        "gameentry",
        "auditentry",
    ],
)
def test_admin_covers_every_model(admin_client, model):
    assert admin_client.get(f"/admin/tournament/{model}/").status_code == 200
    if model != "auditentry":
        assert admin_client.get(f"/admin/tournament/{model}/add/").status_code == 200


def test_admin_change_pages_render(admin_client, tournament, add_players):
    from tournament.draw.services import draw_all
    from tournament.tournaments.permissions import COMMAND_LINE

    add_players(tournament, 8)
    draw_all(COMMAND_LINE, tournament, seed="admin")
    from tournament.models import Scoresheet, Table

    sheet = Scoresheet.objects.first()
    table = Table.objects.first()
    assert admin_client.get(f"/admin/tournament/scoresheet/{sheet.pk}/change/").status_code == 200
    assert admin_client.get(f"/admin/tournament/table/{table.pk}/change/").status_code == 200
    assert admin_client.get(f"/admin/tournament/tournament/{tournament.pk}/change/").status_code == 200
