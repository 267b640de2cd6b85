"""Nothing signed is lost or changed unseen (issue 13): roles, dates and retention."""

import datetime
import io
import random

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournament.demo.generator import fill_results
from tournament.draw.services import draw_all
from tournament.errors import ServiceError
from tournament.models import LogEntry, StaffRole, Tournament
from tournament.tournaments import services as tournament_service
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def test_nobody_changes_his_own_roles_once_there_are_results(played, organiser, make_user, client):
    with pytest.raises(ServiceError, match="eigenen Rollen"):
        tournament_service.grant_role(organiser, played, organiser.username, "supervisor")
    own = StaffRole.objects.get(tournament=played, user=organiser)
    other = make_user("zweiter")
    tournament_service.grant_role(organiser, played, "zweiter", "organiser")
    with pytest.raises(ServiceError, match="eigenen Rollen"):
        tournament_service.revoke_role(organiser, played, own.pk)
    tournament_service.grant_role(other, played, organiser.username, "supervisor")  # somebody else may
    assert StaffRole.objects.filter(tournament=played, user=organiser, role="supervisor").exists()
    client.force_login(organiser)
    page = client.get(reverse("organiser:staff", args=[played.slug])).content.decode()
    assert "Rollenänderungen" in page and "zweiter" in page and "Rolle vergeben" in page
    grants = LogEntry.objects.filter(tournament=played, action="staff.grant").order_by("id")
    assert [(g.user_name, g.data["username"], g.data["role"]) for g in grants] == [
        ("orga", "zweiter", "organiser"),
        ("zweiter", "orga", "supervisor"),
    ]


def test_before_any_result_an_organiser_may_take_a_role_himself(tournament, organiser):
    tournament_service.grant_role(organiser, tournament, organiser.username, "supervisor")
    assert StaffRole.objects.filter(tournament=tournament, user=organiser, role="supervisor").exists()


def test_the_retention_date_is_never_shorter_than_six_months(tournament, organiser):
    with pytest.raises(Exception, match="mindestens 6 Monate"):
        tournament_service.update_tournament(organiser, tournament, retention_until=datetime.date(2027, 1, 1))
    tournament_service.update_tournament(organiser, tournament, retention_until=datetime.date(2027, 5, 21))


def test_the_date_stays_once_a_sheet_is_signed(played, organiser, referee, sheet_of, sign):
    tournament_service.update_tournament(organiser, played, date=datetime.date(2026, 11, 20))  # not yet
    sign(referee, sheet_of(played, 1, 1))
    with pytest.raises(ServiceError, match="5.3.5"):
        tournament_service.update_tournament(organiser, played, date=datetime.date(2025, 1, 1))
    played.refresh_from_db()
    assert played.date == datetime.date(2026, 11, 20)


def test_a_far_date_on_the_form_is_a_message(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("organiser:edit", args=[tournament.slug])
    response = client.post(
        url,
        {
            "name": "X",
            "slug": tournament.slug,
            "date": "9999-12-31",
            "profile": "schafkopfschule-2007",
            "status": "preparation",
        },
    )
    assert response.status_code == 200
    assert "9999" not in str(tournament.date)
    assert (
        "kleiner oder gleich 2999-12-31" in response.content.decode() or "2999" in response.content.decode()
    )


def test_birth_dates_are_shown_to_organisers_only(
    tournament, organiser, referee, supervisor, add_players, client
):
    add_players(tournament, 2, birth_date=datetime.date(1961, 4, 2))
    for user, shown in ((organiser, True), (supervisor, False), (referee, False)):
        client.force_login(user)
        page = client.get(reverse("organiser:participants", args=[tournament.slug])).content.decode()
        assert ("02.04.1961" in page) is shown, user
        export = client.get(reverse("organiser:export_participants", args=[tournament.slug]))
        book = load_workbook(io.BytesIO(export.content))
        cells = [cell for row in book.active.iter_rows(values_only=True) for cell in row]
        assert ("02.04.1961" in cells or datetime.datetime(1961, 4, 2) in cells) is shown, user
        assert ("Geburtsdatum" in cells) is shown


def test_the_status_follows_what_happened(
    make_tournament, add_players, referee, organiser, sheet_of, sign, client
):
    """Issue 14, finding 7: drawn it runs, every sheet signed it is finished; set by hand it
    stays; a ranking printed before every sheet is signed says it is provisional."""
    tournament = make_tournament("status", profile="turnierregeln-3x16")
    StaffRole.objects.create(tournament=tournament, user=organiser, role="organiser")
    StaffRole.objects.create(tournament=tournament, user=referee, role="referee")
    assert Tournament.objects.get(pk=tournament.pk).current_status == "preparation"
    add_players(tournament, 4)
    draw_all(organiser, tournament, seed="s")
    assert Tournament.objects.get(pk=tournament.pk).current_status == "running"
    client.force_login(organiser)
    rankings = reverse("organiser:rankings_doc", args=[tournament.slug, "html"])
    assert "Vorläufig" in client.get(rankings).content.decode()
    fill_results(COMMAND_LINE, tournament, random.Random(4), approve_rate=1)
    for match in (1, 2, 3):
        sign(referee, sheet_of(tournament, match, 1))
    assert Tournament.objects.get(pk=tournament.pk).current_status == "finished"
    assert "Vorläufig" not in client.get(rankings).content.decode()
    tournament_service.update_tournament(organiser, tournament, status="running")
    assert Tournament.objects.get(pk=tournament.pk).current_status == "running"
