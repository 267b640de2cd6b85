"""Teams in the exchange document: written, checked and restored (issue 17)."""

import json

import pytest

from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import dumps, export_document
from tournament.models import Team
from tournament.participants import teams as team_service
from tournament.teams import standings as team_standings
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_teams(played):
    people = {p.number: p for p in played.participants.all()}
    for name, numbers in (("Moosach", (1, 2, 3, 4)), ("Dachau", (5, 6, 7, 8)), ("Leer", ())):
        team = team_service.create_team(COMMAND_LINE, played, name)
        if numbers:
            team_service.assign(COMMAND_LINE, played, team, [people[n] for n in numbers])
    return played


def test_teams_are_written_restored_and_written_the_same(with_teams):
    document = export_document(with_teams)
    assert document["teams"] == [
        {"name": "Dachau", "members": [5, 6, 7, 8]},
        {"name": "Leer", "members": []},
        {"name": "Moosach", "members": [1, 2, 3, 4]},
    ]
    assert '{"name": "Dachau", "members": [5, 6, 7, 8]}' in dumps(document)  # one team a line
    copy = import_plan(COMMAND_LINE, read_document(dumps(document), slug="kopie"))
    assert export_document(copy)["teams"] == document["teams"]
    assert [(r.rank, r.name, r.key) for r in team_standings.compute(copy).rows] == [
        (r.rank, r.name, r.key) for r in team_standings.compute(with_teams).rows
    ]
    assert Team.objects.filter(tournament=copy).count() == 3


def test_a_tournament_without_teams_writes_no_teams_field(played):
    assert "teams" not in export_document(played)


def refused(document) -> list[str]:
    with pytest.raises(DocumentError) as error:
        read_document(json.dumps(document))
    return error.value.messages


def test_unknown_start_numbers_double_names_and_a_player_in_two_teams_are_named(with_teams):
    document = export_document(with_teams)
    document["teams"] = [
        {"name": "Moosach", "members": [1, 2, 99]},
        {"name": "moosach", "members": [3]},
        {"name": "Dachau", "members": [5, 2, 5]},
        {"name": "Kaputt", "members": ["7", True]},
    ]
    messages = refused(document)
    assert len(messages) == 6, messages
    assert "Moosach" in messages[0] and "99" in messages[0]
    assert messages[1].count("oosach") == 2  # the double name and the first of it
    assert "Dachau" in messages[2] and "2" in messages[2] and "Moosach" in messages[2]
    assert "Dachau" in messages[3] and "5" in messages[3]
    assert all("Kaputt" in message for message in messages[4:])


def test_the_teams_field_and_its_entries_must_have_their_shape(with_teams):
    document = export_document(with_teams)
    for teams in ({"name": "x"}, [["x"]], [{"members": [1]}], [{"name": "x" * 201, "members": []}]):
        document["teams"] = teams
        assert refused(document)
    document["teams"] = [{"name": "Neu", "members": [1], "colour": "blau"}]  # unknown fields: ignored
    plan = read_document(json.dumps(document))
    assert plan.teams == [{"name": "Neu", "members": [1]}]
