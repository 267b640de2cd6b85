"""Several server processes on one database agree (issue 15): a write through one process is
seen by another at once, standings cached per process follow the results version, and a stale
version is refused whichever process saved first."""

import json
import os
import subprocess
import sys

import pytest

from .processes import ROOT, manage, own_database

pytestmark = pytest.mark.processes

READER = r"""
import json, os, sys
import django
django.setup()
from scoring import Contract, Game, Result, Suit
from tournament.errors import ServiceError
from tournament.models import Scoresheet, Tournament
from tournament.results import services
from tournament.standings import standings
from tournament.tournaments.permissions import COMMAND_LINE

tournament = Tournament.objects.get(slug="zwei")
def read():
    rows = standings.compute(tournament).rows  # kept per process for the results version
    return {row.number: row.values["points"] for row in rows}
first = read()
assert read() is not None and standings.compute(tournament) is standings.compute(tournament)
sheet = Scoresheet.objects.select_related("match__tournament", "table").get(match__number=1, table__number=1)
print(json.dumps({"points": first, "version": sheet.version}), flush=True)
sys.stdin.readline()  # the other process writes now
second = read()
game = Game(32, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.LOST)
try:
    services.save_entry(COMMAND_LINE, sheet, game, sheet.version, replace=True)
    refused = ""
except ServiceError as error:
    refused = str(error.message)
print(json.dumps({"points": second, "refused": refused}), flush=True)
"""

WRITER = r"""
import django
django.setup()
from scoring import Contract, Game, Result, Suit
from tournament.models import Scoresheet
from tournament.results import services
from tournament.tournaments.permissions import COMMAND_LINE
sheet = Scoresheet.objects.select_related("match__tournament", "table").get(match__number=1, table__number=1)
game = Game(32, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON, schwarz=True)
services.save_entry(COMMAND_LINE, sheet, game, sheet.version, replace=True)
"""


def test_two_processes_agree_on_standings_after_a_write(tmp_path):
    with own_database(tmp_path) as url:
        env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(
            env,
            "generate_tournament",
            "--players",
            "8",
            "--matches",
            "1",
            "--slug",
            "zwei",
            "--seed",
            "2",
            "--results",
        )
        reader = subprocess.Popen(
            [sys.executable, "-c", READER],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            before = json.loads(reader.stdout.readline())
            subprocess.run([sys.executable, "-c", WRITER], cwd=ROOT, env=env, check=True, timeout=120)
            reader.stdin.write("\n")
            reader.stdin.flush()
            after = json.loads(reader.stdout.readline())
        finally:
            reader.stdin.close()
            reader.wait(timeout=60)
        fresh = json.loads(manage(env, "standings", "zwei", "--format", "json").stdout)
    expected = {str(row["number"]): row["points"] for row in fresh}
    assert after["points"] == expected != before["points"]  # the write, seen by the other process
    # The reader's sheet was loaded before the write: its save is refused, not silently applied.
    assert after["refused"].startswith("Inzwischen hat jemand anderes diese Spielliste gespeichert")
