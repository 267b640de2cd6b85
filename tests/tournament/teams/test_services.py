"""Creating, renaming and deleting teams and placing participants: each tournament's own, every
change in the log (issue 17); the team column of a registration list; the participant form."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from openpyxl import Workbook

from tournament.errors import ServiceError
from tournament.models import LogEntry, Participant, Team
from tournament.participants import registration
from tournament.participants import teams as team_service
from tournament.participants.services import import_participants

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(tournament, add_players):
    return {p.number: p for p in add_players(tournament, 6)}


def members(team):
    return sorted(team.members.values_list("number", flat=True))


def test_a_team_is_created_filled_and_every_placing_logged(tournament, organiser, people):
    team = team_service.create_team(organiser, tournament, "  SK Moosach I ")
    assert team.name == "SK Moosach I" and team.tournament == tournament
    team_service.assign(organiser, tournament, team, [people[1], people[3]])
    assert members(team) == [1, 3]
    log = LogEntry.objects.filter(tournament=tournament, action="team.assign").order_by("id")
    assert [(e.data["number"], e.data["after"]) for e in log] == [(1, "SK Moosach I"), (3, "SK Moosach I")]
    assert LogEntry.objects.filter(tournament=tournament, action="team.create").count() == 1


def test_a_participant_moves_from_one_team_to_another(tournament, organiser, people):
    first = team_service.create_team(organiser, tournament, "Eins")
    second = team_service.create_team(organiser, tournament, "Zwei")
    team_service.assign(organiser, tournament, first, [people[1], people[2]])
    team_service.assign(organiser, tournament, second, [people[2]])
    assert members(first) == [1] and members(second) == [2]
    moved = LogEntry.objects.filter(action="team.assign").latest("id")
    assert moved.data == {"number": 2, "name": "Zwei", "before": "Eins", "after": "Zwei"}
    team_service.assign(organiser, tournament, None, [people[1]])
    assert members(first) == [] and LogEntry.objects.filter(action="team.remove").count() == 1


def test_names_are_unique_in_a_tournament_in_any_case(tournament, other_tournament, organiser):
    team_service.create_team(organiser, tournament, "Ühu Moosach")
    with pytest.raises(ServiceError) as refused:
        team_service.create_team(organiser, tournament, "ühu moosach")
    assert "Ühu Moosach" in refused.value.message
    with pytest.raises(ServiceError):
        team_service.create_team(organiser, tournament, "   ")
    Team.objects.create(tournament=other_tournament, name="Ühu Moosach")  # another tournament's: fine
    other = team_service.create_team(organiser, tournament, "Dachau")
    with pytest.raises(ServiceError) as refused:
        team_service.rename_team(organiser, tournament, other, "ÜHU MOOSACH")
    assert "Ühu Moosach" in refused.value.message
    assert team_service.rename_team(organiser, tournament, other, "Dachau II").name == "Dachau II"


def test_a_participant_of_another_tournament_is_refused_by_name(
    tournament, other_tournament, organiser, people, add_players
):
    team = team_service.create_team(organiser, tournament, "Eins")
    (stranger,) = add_players(other_tournament, 1, start=77)
    with pytest.raises(ServiceError) as refused:
        team_service.assign(organiser, tournament, team, [people[1], stranger])
    assert "77" in refused.value.message and stranger.name in refused.value.message
    assert members(team) == []  # all or nothing
    foreign_team = Team.objects.create(tournament=other_tournament, name="Fremde")
    with pytest.raises(ServiceError) as refused:
        team_service.assign(organiser, tournament, foreign_team, [people[1]])
    assert "Fremde" in refused.value.message
    with pytest.raises(ServiceError):
        team_service.delete_team(organiser, tournament, foreign_team)
    assert Team.objects.filter(pk=foreign_team.pk).exists()


def test_deleting_a_team_keeps_its_members_registered(tournament, organiser, people):
    team = team_service.create_team(organiser, tournament, "Eins")
    team_service.assign(organiser, tournament, team, [people[1], people[2]])
    team_service.delete_team(organiser, tournament, team)
    assert not Team.objects.exists()
    assert Participant.objects.filter(tournament=tournament).count() == 6
    assert not Participant.objects.filter(team__isnull=False).exists()
    assert LogEntry.objects.get(action="team.delete").data == {"name": "Eins", "members": [1, 2]}


def test_only_the_organiser_changes_teams(tournament, organiser, referee, supervisor, people):
    team = team_service.create_team(organiser, tournament, "Eins")
    for user in (referee, supervisor):
        with pytest.raises(PermissionDenied):
            team_service.create_team(user, tournament, "Zwei")
        with pytest.raises(PermissionDenied):
            team_service.assign(user, tournament, team, [people[1]])


def test_a_team_change_raises_the_results_version(tournament, organiser, people):
    before = tournament.results_version
    team_service.create_team(organiser, tournament, "Eins")
    tournament.refresh_from_db()
    assert tournament.results_version > before  # the kept public pages are made afresh


CSV_WITH_TEAMS = (
    "Startnummer;Name;Verein;Mannschaft\n"
    "1;Huber, Sepp;SK Moosach;SK Moosach I\n"
    "2;Maier, Resi;SK Moosach;sk moosach i\n"
    "3;Bauer, Toni;;\n"
    "4;Wimmer, Vroni;Dachau;Dachau\n"
)


def test_a_registration_list_with_a_team_column_creates_and_fills_the_teams(tournament, organiser):
    Team.objects.create(tournament=tournament, name="Dachau")  # already there: filled, not doubled
    rows = registration.parse(registration.read_table("liste.csv", CSV_WITH_TEAMS.encode()))
    assert [r.team for r in rows] == ["SK Moosach I", "sk moosach i", "", "Dachau"]
    import_participants(organiser, tournament, registration.check(tournament, rows))
    teams = {t.name: members(t) for t in Team.objects.filter(tournament=tournament)}
    assert teams == {"SK Moosach I": [1, 2], "Dachau": [4]}
    assert LogEntry.objects.filter(action="team.assign").count() == 3


def test_an_xlsx_list_with_a_team_column(tournament, organiser):
    import io

    book = Workbook()
    book.active.append(["Name", "Team"])
    book.active.append(["Huber, Sepp", "Eins"])
    book.active.append(["Maier, Resi", "x" * 201])
    content = io.BytesIO()
    book.save(content)
    rows = registration.parse(registration.read_table("liste.xlsx", content.getvalue()))
    assert rows[0].team == "Eins" and rows[0].accepted
    assert not rows[1].accepted and any("200" in error for error in rows[1].errors)
    assert registration.RegistrationRow.from_dict(rows[0].as_dict()).team == "Eins"  # the preview keeps it


def test_the_participant_form_offers_the_tournaments_teams(
    tournament, other_tournament, organiser, people, client
):
    team = team_service.create_team(organiser, tournament, "Eins")
    foreign = Team.objects.create(tournament=other_tournament, name="Fremde")
    client.force_login(organiser)
    url = reverse("organiser:participant", args=[tournament.slug, 2])
    page = client.get(url).content.decode()
    assert "Eins" in page and "Fremde" not in page
    data = {"number": 2, "name": "Spieler 002", "club": "", "birth_date": "", "status": "active"}
    client.post(url, {**data, "team": foreign.pk})
    assert members(foreign) == []  # not a choice here
    client.post(url, {**data, "team": team.pk})
    assert members(team) == [2]
    client.post(
        reverse("organiser:participant_add", args=[tournament.slug]), {**data, "number": 9, "team": team.pk}
    )
    assert members(team) == [2, 9]
    client.post(url, {**data, "team": ""})
    assert members(team) == [9]
