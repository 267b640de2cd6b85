import datetime

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournament.jobs import runner
from tournament.jobs.models import Job
from tournament.models import ApprovalCall, Tournament
from tournament.participants import teams as team_service
from tournament.prizes import services as prize_service
from tournament.prizes.reckoning import Line
from tournament.results import substitutes
from tournament.series import services as series_service
from tournament.series.models import Series
from tournament.standings import lots
from tournament.tablephone import table as table_service
from tournament.teams.lots import draw_team_lots
from tournament.tournaments import organisation_services
from tournament.tournaments import services as tournament_service
from tournament.tournaments.permissions import COMMAND_LINE

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

    assert finders.find("css/site.css")


def test_admin_lists_tournaments(admin_client):
    assert admin_client.get("/admin/tournament/tournament/").status_code == 200


MODELS = sorted(model._meta.model_name for model in apps.get_app_config("tournament").get_models())


@pytest.mark.parametrize("model", MODELS)
def test_the_admin_shows_every_model_and_changes_nothing(admin_client, signed_and_corrected, model):
    """Every write goes through the services: the admin is read only, for superusers too."""
    model_class = apps.get_model("tournament", model)
    assert admin_client.get(f"/admin/tournament/{model}/").status_code == 200
    assert admin_client.get(f"/admin/tournament/{model}/add/").status_code == 403
    some = model_class.objects.order_by("pk").first()
    assert some is not None, f"the fixture holds no {model}"
    page = admin_client.get(f"/admin/tournament/{model}/{some.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin_client.post(f"/admin/tournament/{model}/{some.pk}/change/", {}).status_code == 403
    assert (
        admin_client.post(f"/admin/tournament/{model}/{some.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert model_class.objects.filter(pk=some.pk).exists()


@pytest.fixture
def signed_and_corrected(played, referee, supervisor, sheet_of, sign_and_correct, add_players):
    """A record of every model: a played tournament with a signed, corrected sheet and lots."""
    sign_and_correct(referee, supervisor, sheet_of(played))
    participant = played.participants.first()
    substitutes.substitute(COMMAND_LINE, participant, "Maier, Resi", 2)
    add_players(played, 2, start=50)  # registered after the draw: tied at 0
    lots.draw_lots(COMMAND_LINE, played, seed="admin")
    team = team_service.create_team(COMMAND_LINE, played, "Moosach")  # a team with a member
    team_service.assign(COMMAND_LINE, played, team, [participant])
    late = {p.number: p for p in played.participants.filter(number__in=(50, 51))}
    for name, number in (("Au", 50), ("Berg", 51)):  # two teams tied at 0: a team lot
        tied = team_service.create_team(COMMAND_LINE, played, name)
        team_service.assign(COMMAND_LINE, played, tied, [late[number]])
    draw_team_lots(COMMAND_LINE, played, seed="admin")
    prize_values = {"entry_fee": 10, "charity_per_entry": 0, "charity_name": "", "payout_percent": 100}
    prize_service.declare(COMMAND_LINE, played, prize_values, [Line(1, "range", 1, 3, "amount", 20)])
    tournament_service.update_tournament(COMMAND_LINE, played, slug="kirchweih-neu")  # an old slug
    runner.start(played, Job.Kind.WORKBOOK, "Excel")  # a background job
    phone_sheet = sheet_of(played, 2, 1)  # the table's phone: a call and the receipt of a write
    ApprovalCall.objects.create(scoresheet=phone_sheet, number=3, contract="sie", declarer=1)
    call = {"number": 3, "contract": "sie", "declarer": 1}
    table_service.send(phone_sheet.code, "admin-call-1", "call", call)
    # The register and a series with fixed numbers: persons and their season numbers (issue 17).
    played.series = Series.objects.create(name="Cup", slug="cup", fixed_numbers=True)
    played.save(update_fields=["series"])
    series_service.add_to_register(COMMAND_LINE, played)
    # A request for an organisation, in the organisations' log (issue 29; members: ``organiser``).
    organisation_services.request_organisation(referee, "SK Au", "Die Vereinsabende")
    played.refresh_from_db()
    return played
