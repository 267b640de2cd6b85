"""`manage.py bench PART` measures one part alone (the figures themselves are make bench's)."""

import io
import random
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring import score_sheet
from scoring.notation import parse_game
from scoring.profiles import build_profile
from tournament.bench.load import TableRun
from tournament.bench.parts import ALL, PARTS
from tournament.bench.table_entry import phone_games, table_checks, table_tournament

pytestmark = pytest.mark.django_db


def test_one_part_alone():
    out = io.StringIO()
    call_command("bench", "draw", "--runs", "1", stdout=out)
    text = out.getvalue()
    assert "draw 2000 × 3, algorithm" in text and "0 repeated table-mates" in text
    assert "Excel" not in text and "generator" not in text


def test_an_unknown_part_is_refused():
    with pytest.raises(CommandError, match="invalid choice: 'excell'"):
        call_command("bench", "excell")


def test_the_table_phones_games_are_valid_under_the_rules():
    # What table-entry sends: the phone's notation, every game valid, and an approval given
    # beforehand exactly where the sheet would otherwise strike the game.
    rules = build_profile()
    rng = random.Random("test")
    for _table in range(50):
        notations, approved = phone_games(rules, rng)
        assert len(notations) == rules.games_per_match
        assert all(not re.search(r"\d \d", notation) for notation in notations)  # taps: no card points
        games = [parse_game(text, n, approved=n in approved) for n, text in enumerate(notations, start=1)]
        sheet = score_sheet(games, rules)
        assert not sheet.problems and sheet.complete
        assert not any(row.scored.struck for row in sheet.rows)
        assert set(approved) == {row.scored.entry.number for row in sheet.rows if row.scored.needs_approval}


def test_the_table_entry_check_finds_lost_and_duplicated_games(client):
    # The check after the run, against games sent through the phone's own address.
    tournament, plans = table_tournament("bench-check", 2)
    match = tournament.matches.get(number=1)
    (code, games), (other, others) = plans
    run = TableRun(measuring=0, end=1)

    def send(code: str, number: int, notation: str, key: str) -> dict:
        payload = {"key": key, "action": "game", "data": {"number": number, "notation": notation}}
        answer = client.post(f"/tisch/{code}/send", payload, content_type="application/json")
        return answer.json()

    for number, notation in enumerate(games[:3], start=1):
        key = f"key-{number:04}"
        run.sent[(code, number)] = (notation, key)
        assert send(code, number, notation, key)["ok"]
        run.confirmed[(code, number)] = (notation, key)
    assert send(code, 3, games[2], "key-0003")["repeated"]  # a resend changes nothing
    assert table_checks([match], run) == (0, 0, 0)

    run.confirmed[(code, 4)] = run.sent[(code, 4)] = (games[3], "key-0004")  # confirmed, never stored
    assert send(other, 1, others[0], "key-other")["ok"]  # stored, never sent by a phone of the run
    assert table_checks([match], run) == (1, 1, 1)


def test_the_cluster_part_is_measured_only_when_named_and_on_postgresql():
    assert "cluster" in PARTS and "cluster" not in ALL  # minutes, and a PostgreSQL server
    if connection.vendor != "postgresql":  # its fresh process runs on the database it made
        with pytest.raises(CommandError, match="runs on PostgreSQL"):
            call_command("bench", "cluster", "--inside-cluster", "--tournaments", "1")
