"""What every management command shares (issue 28, items 11 and 18): a tournament named by a
short name it had before, and output cut by a pipe."""

import fcntl
import io
import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.tournaments.permissions import COMMAND_LINE
from tournament.tournaments.services import update_tournament

from .processes import ROOT, manage, own_database

COMMANDS = ["standings", "verify", "export_tournament"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_finds_the_tournament_by_its_old_short_name(played, command):
    update_tournament(COMMAND_LINE, played, slug="kirchweih-2026")
    err = io.StringIO()
    old = call_command_output(command, "kirchweih", stderr=err)
    assert old and old == call_command_output(command, "kirchweih-2026")
    assert "'kirchweih' is now called 'kirchweih-2026'" in err.getvalue()


def test_an_unknown_short_name_is_still_refused(played):
    with pytest.raises(CommandError, match="There is no tournament 'nirgends'"):
        call_command("standings", "nirgends")


def call_command_output(command: str, slug: str, **options) -> str:
    out = io.StringIO()
    call_command(command, slug, stdout=out, **options)
    return out.getvalue()


@pytest.mark.processes
def test_output_cut_by_a_pipe_ends_quietly(tmp_path):
    """`manage.py standings big | head -1`: the command stops without a traceback (the
    standings of 128 players, about 7 KB, through a pipe that holds 4 KB)."""
    with own_database(tmp_path) as url:
        env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
        manage(env, "migrate", "--noinput", "-v", "0")
        slug = "big"
        manage(env, "generate_tournament", "--players", "128", "--slug", slug, "--results")
        reader = subprocess.Popen(
            [sys.executable, "manage.py", "standings", slug],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
        )  # fmt: skip
        assert reader.stdout is not None and reader.stderr is not None
        fcntl.fcntl(reader.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
        assert os.read(reader.stdout.fileno(), 100).startswith(b"rank,")  # head -c 100
        reader.stdout.close()
        stderr = reader.stderr.read().decode()
        assert reader.wait(timeout=120) == 1
        assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
