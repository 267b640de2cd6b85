"""cluster (issue 29.4): a Friday night across a cup's clubs on two app servers, PostgreSQL and
Redis behind one Caddy (``bench.cluster``): 100 tournaments of 20 tables each, every table's
phone entering its games and every player polling the standings; then the database checked
against what the servers confirmed, as table-entry does for one hall.

``make bench`` runs on a throwaway SQLite file; this part needs PostgreSQL, so it makes a
throwaway PostgreSQL database of its own (``bench.cluster.throwaway_database``), runs itself
again in a fresh process on it, and drops it at the end."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection

from ..models import Match
from ..tablephone.codes import current_etag, open_code
from .cluster import cluster, throwaway_database
from .figures import by_tens
from .load import POLL_SECONDS, READ_EVERY, table_phones
from .machine import machine_speed
from .table_entry import entry_latencies, errors_row, lost_row, meanwhile_row, table_checks, table_tournament

TOURNAMENTS, TABLES = 100, 20  # a Friday night of a cup: 100 club evenings of 80 players
# A table enters a game every 60 to 120 s: one and a half to three times a real table's pace (a
# game of Schafkopf, dealt, played and written down, takes about three minutes; 5.2.1: 32 games a
# match), 2,000 tables offering about 22 games a second; its first within two minutes of the
# start (the evening is under way: the tables sat down at different times).
CUP_PAUSE = (60.0, 120.0)
# Before the measured seconds: the pages are open already, the phones' and the players' standings
# (the evening is under way: the tables sat down over its first half hour, not in these seconds);
# each phone polls at a moment of its own within its first 10 s, each player's page within these
# 30 s, so that the 60 s measure the evening, not its first minute.
CUP_WARM = READ_EVERY
CONNECTIONS = 1000  # the load generator's open connections at most (10,000 clients, one process)
APP_PROCESSES = 2  # gunicorn processes per app server: 4 on the two cores that both "machines" share


def cluster_bench(tournaments: int, seconds: int) -> list[tuple[str, str, str]]:
    """The rows of the cluster part, measured in a fresh process on a throwaway PostgreSQL
    database."""
    with throwaway_database("bench_cluster") as url:
        env = {**os.environ, "DATABASE_URL": url}
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        migrated = subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env)
        if migrated.returncode:
            raise CommandError("The cluster's database could not be migrated (see above).")
        inner = [*manage, "bench", "cluster", "--inside-cluster", "--tournaments", str(tournaments)]
        done = subprocess.run([*inner, "--seconds", str(seconds)], env=env, stdout=subprocess.PIPE, text=True)
        if done.returncode:
            raise CommandError("The cluster part failed (see above).")
    return [tuple(row) for row in json.loads(done.stdout.strip().splitlines()[-1])]


def measure_cluster(tournaments: int, seconds: int) -> list[list[str]]:
    """In the process on the throwaway database: the tournaments made, the cluster started,
    the phones and players let loose, the servers stopped, the database checked."""
    if connection.vendor != "postgresql":
        raise CommandError("The cluster part runs on PostgreSQL (make bench PART=cluster makes one).")
    started = time.perf_counter()
    fields = []
    for number in range(1, tournaments + 1):
        tournament, plans = table_tournament(f"cup-{number:03d}", TABLES)
        fields.append((tournament.slug, plans, TABLES * 4))
    # What each phone's page, loaded before the evening's measured part, told it (its etag).
    etags = {code: current_etag(open_code(code)) for _slug, plans, _n in fields for code, _games in plans}
    setup = time.perf_counter() - started
    url = os.environ["DATABASE_URL"]
    # The servers' logs (gunicorn's with each request's milliseconds) kept where CLUSTER_LOGS says.
    kept = os.environ.get("CLUSTER_LOGS")
    with (
        contextlib.nullcontext(kept) if kept else tempfile.TemporaryDirectory() as folder,
        cluster(url, Path(folder), APP_PROCESSES) as made,
    ):
        speed_before = machine_speed()
        cpu_before, started_run = made.cpu_seconds(), time.monotonic()
        first = (0.0, CUP_PAUSE[1])
        load = table_phones(
            made.base, fields, seconds, CUP_WARM, CUP_PAUSE, CONNECTIONS,
            arrive=POLL_SECONDS, first=first, pages_open=etags,
        )  # fmt: skip
        run = asyncio.run(load)
        cpu = {part: used - cpu_before.get(part, 0.0) for part, used in made.cpu_seconds().items()}
        elapsed = time.monotonic() - started_run
        speed_after = machine_speed()
    cup = Match.objects.filter(tournament__slug__startswith="cup-", number=1)
    matches = list(cup.select_related("tournament"))
    lost, duplicated, unconfirmed = table_checks(matches, run)
    errors = sum(run.errors.values())
    p50, p95, p99 = entry_latencies(run)
    rate = run.entries / seconds
    tables = tournaments * TABLES
    players = tables * 4
    return [
        [
            "cluster",
            f"2 app servers, postgresql, redis, {tournaments} tournaments, {tables} tables {seconds} s, "
            f"{run.entries:,} entries, {rate:.1f}/s, p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms, "
            f"lost {lost}, duplicated {duplicated}, errors {errors}",
            "p95 ≤ 300 ms, lost 0, duplicated 0, errors 0",
        ],
        [
            f"  offered: a game every {CUP_PAUSE[0]:.0f}–{CUP_PAUSE[1]:.0f} s per table, {players:,} players "
            f"polling every {READ_EVERY} s, phones every 10 s",
            f"{run.offered:,} games offered ({tables / sum(CUP_PAUSE) * 2:.0f}/s on average), "
            f"{run.entries:,} stored at the first send",
            "every game offered stored",
        ],
        ("  entry latency p95 by 10 s of the run", by_tens(run.entry_log, seconds), "—"),
        meanwhile_row(run),
        lost_row(run, lost, duplicated, unconfirmed),
        errors_row(run),
        (
            "  the machine's speed: 10 M Python additions, before and after the run",
            f"{speed_before:.2f} s, {speed_after:.2f} s (0.4 s when this machine is at its fastest)",
            "—",
        ),
        ("  CPU over the whole run (cores busy on average)", cpu_shares(cpu, elapsed), "—"),
        (f"  setup: {tournaments} tournaments × {TABLES} tables, drawn, planned", f"{setup:.0f} s", "—"),
    ]


def cpu_shares(cpu: dict[str, float], elapsed: float) -> str:
    """Who used the cores while the phones and players ran: each part's CPU seconds over the
    elapsed seconds, and the rest of the machine (other work on it)."""
    ours = sum(used for part, used in cpu.items() if part != "machine")
    names = {"app": "app servers", "postgresql": "PostgreSQL", "caddy": "Caddy", "redis": "Redis"}
    names.update(worker="job workers", load="load generator")
    parts = [f"{label} {cpu.get(part, 0.0) / elapsed:.2f}" for part, label in names.items()]
    rest = max(0.0, cpu.get("machine", 0.0) - ours) / elapsed
    return f"{', '.join(parts)}, anything else {rest:.2f} of {os.cpu_count()} cores, {elapsed:.0f} s"
