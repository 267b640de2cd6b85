"""Hostile documents (issue 13): a seeded list of 240 mutations of valid documents, each refused
with a message or imported whole; never an exception, never a partial import, on SQLite and on
PostgreSQL (CI runs the suite on both). And the web upload answers every one of them."""

import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournament.exchange.documents import paths
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import export_document
from tournament.models import GameEntry, LogEntry, Participant, Scoresheet, Tournament
from tournament.results.verify import verify_tournament
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db

MUTATIONS = 240


def deep(levels: int):
    value: list = []
    for _level in range(levels):
        value = [value]
    return value


HOSTILE = [
    None,
    "",
    True,
    1.5,
    -1,
    0,
    2**31,
    2**63,
    10**400,
    "x" * 5000,
    "Huber\x00Sepp",
    "9999-12-31",
    "0001-01-01",
    "2026-13-45",
    "ramsch",
    '=HYPERLINK("x")',
    [],
    {},
    [1, 2],
    ["a", None],
    {"x": 1},
    "x",
]


def mutate(document: dict, rng: random.Random) -> str:
    """One hostile change somewhere: a value replaced, a key dropped, a list element doubled, a
    nesting thousands deep, an integer of thousands of digits."""
    document = json.loads(json.dumps(document))
    path = rng.choice([p for p in paths(document) if p])
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    roll = rng.random()
    if roll < 0.1 and isinstance(parent, dict):
        del parent[key]
    elif roll < 0.2 and isinstance(parent, list):
        parent.append(json.loads(json.dumps(parent[key])))  # a duplicate
    elif roll < 0.23:
        parent[key] = deep(rng.choice([100, 5000]))
    elif roll < 0.25:
        return json.dumps(document).replace('"number": 1', '"number": 1' + "0" * 5000, 1)
    else:
        parent[key] = rng.choice(HOSTILE)
    try:
        return json.dumps(document)
    except (RecursionError, ValueError):
        return '{"format": "schafkopf-tournament/1", "tournament": ' + "[" * 100000 + "]" * 100000 + "}"


@pytest.fixture
def bases(played, referee, supervisor, sheet_of, sign_and_correct):
    """A small played tournament with a signed, corrected sheet and a void one, as documents."""
    sign_and_correct(referee, supervisor, sheet_of(played, 1, 1))
    document = export_document(played)
    document["tournament"]["slug"] = "fuzz"
    small = {**document, "matches": document["matches"][:1], "log": document["log"][:5]}
    return [small, document]


def counts():
    return [model.objects.count() for model in (Tournament, Participant, Scoresheet, GameEntry, LogEntry)]


def test_every_hostile_document_is_refused_with_a_message_or_imported_whole(bases):
    rng = random.Random(13)
    outcomes = {"refused": 0, "imported": 0}
    for index in range(MUTATIONS):
        text = mutate(bases[index % len(bases)], rng)
        before = counts()
        try:
            plan = read_document(text)
            tournament = import_plan(COMMAND_LINE, plan)
        except DocumentError as error:
            assert error.messages and all(isinstance(m, str) and m.strip() for m in error.messages), index
            assert counts() == before, f"mutation {index} left something behind"
            outcomes["refused"] += 1
            continue
        outcomes["imported"] += 1
        assert counts()[0] == before[0] + 1
        assert len(plan.tables) == Scoresheet.objects.filter(match__tournament=tournament).count()
        found = verify_tournament(tournament).findings
        assert found == [], (index, found)
        export_document(tournament)  # what was imported is written again without an error
    assert outcomes["refused"] > MUTATIONS / 3 and outcomes["imported"] > 10, outcomes


def test_the_upload_page_answers_every_hostile_document(bases, organiser, client):
    client.force_login(organiser)
    url = reverse("organiser:import_document")
    rng = random.Random(30)
    for index in range(30):
        text = mutate(bases[0], rng).encode()
        response = client.post(url, {"file": SimpleUploadedFile("t.json", text)}, follow=True)
        assert response.status_code == 200, index
        assert client.get(url).status_code == 200, index  # the page itself keeps working
        response = client.post(url, {"action": "import"}, follow=True)
        assert response.status_code == 200, index
