"""The server set-up in deploy/ (README "Running it for a whole cup", issue 29 item 5): the
systemd units parse, Caddy takes the Caddyfile with the hall's limits, the environment file names
only settings the app reads and passes Django's deploy check, gunicorn takes the unit's command
line, and the backup keeps the 14 newest and nothing half-written. Nothing here needs root."""

import ast
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.hall import PROXY_BUFFER, PROXY_TIMEOUTS, server_size

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = [
    "schafkopf-web.service",
    "schafkopf-worker.service",
    "schafkopf-backup.service",
    "schafkopf-backup.timer",
    "schafkopf-retention.service",
    "schafkopf-retention.timer",
]
SOCKET = "/run/schafkopf/gunicorn.sock"


def settings_names() -> set[str]:
    """Every environment variable tournament/settings.py reads: os.environ.get("X"),
    os.environ["X"] and _flag("X", …)."""
    tree = ast.parse((ROOT / "tournament" / "settings.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = ast.unparse(node.func)
            if func in ("os.environ.get", "_flag"):
                names.add(node.args[0].value)
        subscript = isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ"
        if subscript and isinstance(node.slice, ast.Constant):
            names.add(node.slice.value)
    return names


def example() -> dict[str, str]:
    """The NAME=value lines of deploy/schafkopf.env.example (comments left out)."""
    lines = (DEPLOY / "schafkopf.env.example").read_text().splitlines()
    pairs = [line.split("=", 1) for line in lines if line and not line.startswith("#")]
    return {name: value for name, value in pairs}


def server_env(tmp_path: Path) -> dict[str, str]:
    """The environment the services get from the example, with the key files and the private
    folder in ``tmp_path`` (the example's live under /var/lib/schafkopf)."""
    key = tmp_path / "secret_key"
    key.write_text("s" * 30 + "-Turnier-2026-" + "k" * 30 + "\n")
    names = settings_names()
    env = {k: v for k, v in os.environ.items() if k not in names}
    return {
        **env,
        **example(),
        "SECRET_KEY_FILE": str(key),
        "SEAL_KEY_FILE": str(tmp_path / "seal_key"),
        "PRIVATE_ROOT": str(tmp_path / "private"),
    }


def exec_start(unit: str) -> list[str]:
    line = next(line for line in (DEPLOY / unit).read_text().splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_environment_file_names_only_settings_the_app_reads():
    names = settings_names()
    assert {"DATABASE_URL", "SECRET_KEY_FILE", "HTTPS", "PROXY", "REDIS_URL", "EMAIL_HOST"} <= names
    given = example()
    assert set(given) <= names, set(given) - names
    needed = {
        "DEBUG", "DATABASE_URL", "SECRET_KEY_FILE", "SEAL_KEY_FILE", "ALLOWED_HOSTS", "HTTPS", "PROXY",
        "PROXY_ADDRESSES", "CONN_MAX_AGE", "REDIS_URL", "PRIVATE_ROOT", "EMAIL_HOST", "DEFAULT_FROM_EMAIL",
    }  # fmt: skip
    assert needed <= set(given), needed - set(given)
    assert given["HTTPS"] == given["PROXY"] == "1" and given["DEBUG"] == "0"
    assert given["REDIS_URL"].startswith("redis://")
    # systemd's EnvironmentFile and sh read a line alike only without quotes and spaces
    assert not [value for value in given.values() if re.search(r"[\s'\"$`\\]", value)]


def test_the_environment_file_passes_the_deploy_check(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=server_env(tmp_path), capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # without the key file the app refuses to start rather than run for debugging
    env = {**server_env(tmp_path), "SECRET_KEY_FILE": str(tmp_path / "missing")}
    refused = subprocess.run(
        [sys.executable, "manage.py", "check"], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert refused.returncode != 0 and "set SECRET_KEY" in refused.stderr


def test_gunicorn_takes_the_units_command_line(tmp_path):
    command = exec_start("schafkopf-web.service")
    assert command[0] == "/srv/schafkopf/app/.venv/bin/gunicorn"
    assert f"unix:{SOCKET}" in command
    run = tmp_path / "run"
    run.mkdir()
    args = [
        arg.replace("/srv/schafkopf/app", str(ROOT)).replace("/run/schafkopf", str(run))
        for arg in command[1:]
    ]
    gunicorn = [sys.executable, "-m", "gunicorn", *args]
    checked = subprocess.run(
        [*gunicorn, "--check-config"], env=server_env(tmp_path), capture_output=True, text=True, cwd=ROOT
    )
    assert checked.returncode == 0, checked.stderr + checked.stdout
    printed = subprocess.run(
        [*gunicorn, "--print-config"], env=server_env(tmp_path), capture_output=True, text=True, cwd=ROOT
    ).stdout
    workers, threads = server_size()
    config = dict(re.findall(r"^(\w+)\s+= (.*)$", printed, re.M))
    assert (config["workers"], config["threads"]) == (str(workers), str(threads))
    assert config["worker_class"] == "gthread" and config["wsgi_app"] == "tournament.wsgi"
    assert config["umask"] == str(0o007)  # Caddy, in the group, reaches the socket; others not


def test_manage_sh_runs_a_command_with_the_servers_settings(tmp_path):
    env = server_env(tmp_path)
    settings_file = tmp_path / "schafkopf.env"
    names = settings_names()
    settings_file.write_text("".join(f"{name}={env[name]}\n" for name in env if name in names))
    code = "from django.conf import settings as s; print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.PRIVATE_ROOT)"
    plain = {k: v for k, v in os.environ.items() if k not in names}
    done = subprocess.run(
        [str(DEPLOY / "manage.sh"), "shell", "-c", code],
        env={**plain, "SCHAFKOPF_ENV": str(settings_file)}, capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].split() == ["False", "True", str(tmp_path / "private")]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_units_pass_systemd_analyze_verify(tmp_path):
    for unit in UNITS:  # the code where it is here: verify checks that the programs exist
        text = (DEPLOY / unit).read_text().replace("/srv/schafkopf/app", str(ROOT))
        (tmp_path / unit).write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *[str(tmp_path / unit) for unit in UNITS]],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    # a line verify could not parse is only a warning ("…, ignoring"): none may be said
    said = [line for line in (done.stdout + done.stderr).splitlines() if "schafkopf" in line]
    assert done.returncode == 0 and not said, said
    web = (DEPLOY / "schafkopf-web.service").read_text()
    for hardening in (
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "User=schafkopf",
        "ReadWritePaths=/var/lib/schafkopf",
    ):
        assert hardening in web
    assert example()["PRIVATE_ROOT"].startswith("/var/lib/schafkopf/")
    worker = (DEPLOY / "schafkopf-worker.service").read_text()
    assert "Restart=always" in worker and "RestartSec=" in worker
    assert exec_start("schafkopf-worker.service")[-3:] == ["run_jobs", "-v", "1"]


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_caddy_takes_the_caddyfile_with_the_halls_limits(tmp_path):
    config = DEPLOY / "Caddyfile"
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    validate = ["caddy", "validate", "--config", str(config), "--adapter", "caddyfile"]
    done = subprocess.run(
        validate, env={**env, "DOMAIN": "turnier.example.org"}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    # a forgotten domain is refused, not served under no name
    assert subprocess.run(validate, env={**env, "DOMAIN": ""}, capture_output=True).returncode != 0
    text = config.read_text()
    for name, value in PROXY_TIMEOUTS.items():
        assert re.search(rf"^\s*{name} {value}$", text, re.M), name
    assert f"max_buffer_size {PROXY_BUFFER}" in text
    assert f"reverse_proxy unix/{SOCKET} " in text
    assert "auto_https" not in text and "admin off" not in text  # certificates by ACME, reloadable


def fake(path: Path, script: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)


def rotate(tmp_path: Path, dumper: str, **environment) -> subprocess.CompletedProcess:
    """backup-rotate.sh into tmp_path/backups with a pg_dump and a project of its own: each
    writes a few bytes where the real ones write the dump and the zip."""
    fake(tmp_path / "bin" / "pg_dump", dumper)
    fake(tmp_path / "app" / ".venv" / "bin" / "python", 'echo zip > "$3"\n')
    env = {
        **os.environ,
        "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
        "DATABASE_URL": "postgres:///schafkopf",
        "APP": str(tmp_path / "app"),
        **environment,
    }
    script = str(DEPLOY / "backup-rotate.sh")
    return subprocess.run(["sh", script, str(tmp_path / "backups")], env=env, capture_output=True, text=True)


def test_the_backup_keeps_the_14_newest_and_nothing_half_written(tmp_path):
    backups = tmp_path / "backups"
    backups.mkdir()
    old = [f"schafkopf-2026-10-{day:02}T031500Z" for day in range(1, 21)]  # 20 nights
    for name in old:
        (backups / f"{name}.dump").write_text("old")
        (backups / f"{name}.zip").write_text("old")
    (backups / "notes.txt").write_text("mine")
    writes = 'for a; do case $a in --file=*) echo dump > "${a#--file=}";; esac; done\n'
    done = rotate(tmp_path, writes)
    assert done.returncode == 0, done.stderr
    dumps = sorted(path.name for path in backups.glob("*.dump"))
    zips = sorted(path.name for path in backups.glob("*.zip"))
    assert len(dumps) == len(zips) == 14
    assert dumps[:13] == [f"{name}.dump" for name in old[-13:]]  # the 7 oldest gone
    assert re.fullmatch(r"schafkopf-\d{4}-\d\d-\d\dT\d{6}Z\.dump", dumps[-1])
    assert (backups / dumps[-1]).read_text() == "dump\n"
    assert (backups / zips[-1]).read_text() == "zip\n" and zips[-1][:-4] == dumps[-1][:-5]
    assert stat.S_IMODE((backups / dumps[-1]).stat().st_mode) == 0o600  # it holds the table codes
    assert (backups / "notes.txt").exists()

    # pg_dump fails half-way: the service fails, nothing is removed, no part is left
    before = sorted(path.name for path in backups.iterdir())
    broken = rotate(
        tmp_path, 'for a; do case $a in --file=*) echo half > "${a#--file=}";; esac; done\nexit 1\n'
    )
    assert broken.returncode != 0
    assert sorted(path.name for path in backups.iterdir()) == before

    assert rotate(tmp_path, writes, KEEP="0").returncode == 2  # never "keep none"
    assert sorted(path.name for path in backups.iterdir()) == before


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_scripts_pass_shellcheck():
    done = subprocess.run(
        ["shellcheck", "--shell=sh", str(DEPLOY / "backup-rotate.sh"), str(DEPLOY / "manage.sh")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout
