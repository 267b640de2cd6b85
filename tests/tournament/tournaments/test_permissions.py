"""Per-tournament roles: named permissions in services and views; ids of another tournament 404."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tournament.draw import services as draw_service
from tournament.models import Participant
from tournament.participants import services as participant_service
from tournament.tournaments.permissions import Perm, has_perm

pytestmark = pytest.mark.django_db


def test_roles_give_named_permissions(tournament, organiser, supervisor, referee):
    assert has_perm(organiser, tournament, Perm.EDIT_PARTICIPANTS)
    assert has_perm(organiser, tournament, Perm.DRAW)
    assert not has_perm(organiser, tournament, Perm.SANCTION)
    assert has_perm(supervisor, tournament, Perm.SANCTION)
    assert has_perm(supervisor, tournament, Perm.APPROVE)
    assert not has_perm(supervisor, tournament, Perm.EDIT_PARTICIPANTS)
    assert has_perm(referee, tournament, Perm.ENTER_RESULTS)
    assert not has_perm(referee, tournament, Perm.APPROVE)


def test_a_role_holds_in_its_own_tournament_only(tournament, other_tournament, organiser):
    assert has_perm(organiser, tournament, Perm.DRAW)
    assert not has_perm(organiser, other_tournament, Perm.VIEW_STAFF_PAGES)


def test_referee_cannot_change_participants(tournament, referee, client, add_players):
    (player,) = add_players(tournament, 1)
    with pytest.raises(PermissionDenied):
        participant_service.update_participant(referee, player, name="Geändert")
    client.force_login(referee)
    url = reverse("organiser:participant", args=[tournament.slug, player.number])
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "Geändert", "number": 1, "status": "active"}).status_code == 403
    assert client.get(reverse("organiser:participants", args=[tournament.slug])).status_code == 200
    player.refresh_from_db()
    assert player.name == "Spieler 001"


@pytest.mark.parametrize(
    "name",
    [
        "dashboard",
        "edit",
        "participants",
        "participant_add",
        "import",
        "draw",
        "staff",
        "seat_list",
        "export_participants",
    ],
)
def test_staff_of_another_tournament_is_refused(tournament, foreign_organiser, client, name):
    client.force_login(foreign_organiser)
    assert client.get(reverse(f"organiser:{name}", args=[tournament.slug])).status_code == 403


@pytest.mark.parametrize("name", ["dashboard", "participants", "draw"])
def test_anonymous_is_sent_to_log_in(tournament, client, name):
    response = client.get(reverse(f"organiser:{name}", args=[tournament.slug]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_participant_of_another_tournament_is_a_404(
    tournament, other_tournament, organiser, client, add_players
):
    add_players(other_tournament, 1, start=99)
    client.force_login(organiser)
    url = reverse("organiser:participant", args=[tournament.slug, 99])
    assert client.get(url).status_code == 404
    foreign = Participant.objects.get(tournament=other_tournament, number=99)
    status_url = reverse("organiser:participant_status", args=[tournament.slug])
    client.post(status_url, {"participants": [foreign.pk], "status": "withdrawn"})
    foreign.refresh_from_db()
    assert foreign.status == "active"


def test_organiser_cannot_enter_a_draw_of_a_foreign_tournament_by_command_of_a_service(
    other_tournament, organiser, add_players
):

    add_players(other_tournament, 8)
    with pytest.raises(PermissionDenied):
        draw_service.draw_all(organiser, other_tournament)


def test_supervisor_cannot_draw(tournament, supervisor, client):
    """He sees the draw page, to confirm a redraw over results the organiser asked for (issue 28),
    but draws nothing there."""
    client.force_login(supervisor)
    url = reverse("organiser:draw", args=[tournament.slug])
    page = client.get(url)
    assert page.status_code == 200 and 'name="match"' not in page.content.decode()
    assert client.post(url, {"match": 1}).status_code == 403


def test_creating_a_tournament_needs_the_permission(client, tournament, referee):
    client.force_login(referee)
    assert client.get(reverse("organiser:create")).status_code == 403
