"""Measures the performance targets of the issues and prints one table: figure, measured, target.

Run through ``make bench``, which points DATABASE_URL at a throwaway SQLite file."""

import argparse
import asyncio
import contextlib
import dataclasses
import datetime
import gzip
import io
import json
import math
import os
import platform
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext as _
from pypdf import PdfReader

from scoring import Contract, Game, Result, Suit
from scoring.draw import draw_matches
from scoring.notation import format_game
from scoring.outcome import score_entry

from ...demo.generator import add_participants, random_entry
from ...documents.pdf import render_pdf
from ...draw import services as draw_service
from ...exchange.importer import import_plan
from ...exchange.reader import read_document
from ...exchange.writer import dumps, export_document
from ...i18n import stored_text
from ...models import (
    Approval,
    GameEntry,
    LogEntry,
    Participant,
    PhoneReceipt,
    Scoresheet,
    StaffRole,
    Tournament,
)
from ...printing.pdf import scoresheets_pdf, sheet_context, sheets_of
from ...printing.workbook import EXPORTERS
from ...results import services as scoresheets
from ...results.store import to_engine
from ...tournaments.permissions import COMMAND_LINE
from ...tournaments.services import create_tournament

NOT_YET: list[tuple[str, str]] = []
# What ``manage.py bench PART`` measures alone; ``make bench`` measures them all.
PARTS = ("draw", "exchange", "pdf", "filled-pdf", "excel", "pages", "entry", "hall-standings", "table-entry")
# The parts whose figure is also printed as one line of its own, e.g.
# "hall-standings: 200 clients 30 s, 5,400 requests, p95 84 ms, errors 0".
ONE_LINE = ("filled-pdf", "hall-standings", "table-entry")
HALL_CLIENTS, HALL_SECONDS = 200, 30
THINK_SECONDS = (0.5, 1.5)  # a phone's pause between two pages: reading, scrolling
WARM_SECONDS = 10  # the same load before the measured seconds: each process draws the pages once
TABLE_TABLES, TABLE_SECONDS = 500, 60
# A table sends a game every 5 to 10 s, far faster than it plays one: 500 tables offer about
# 67 entries a second, so that the target of 50 a second is tested, not merely approached.
ENTRY_PAUSE = (5.0, 10.0)
RESENT = 0.05  # the share of games whose answer is lost: the phone sends them again, same key
POLL_SECONDS = 10  # static/js/table.js asks for changes every 10 s while no call waits
READ_EVERY = 30  # each player looks at the public standings every 30 s
# The phone's fetch waits for its answer however long it takes; the bench waits this long after
# the measured seconds for the answers still out, then as long again for the games still queued.
GRACE_SECONDS = 20
# What a phone's browser sends with each request over the hall's plain HTTP (no brotli there).
PHONE_HEADERS = (
    "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Accept-Encoding: gzip, deflate",
    "Accept-Language: de-DE,de;q=0.9,en;q=0.8",
)

# The comparison the scoresheet PDF is measured against: the same sheet as a plain table.
TABLE_LAYOUT = """{% load i18n %}<html><head><style>@page { size: A4; margin: 12mm; }
body { font: 9pt "DejaVu Sans"; } table { border-collapse: collapse; width: 100%; }
td, th { border: 0.2mm solid #000; padding: 0.5mm 1mm; height: 4mm; }
section { page-break-after: always; }</style></head><body>{% for page in pages %}<section>
<h1>{{ page.tournament.name }}</h1><p>{{ page.match.number }} / {{ page.sheet.table.number }}</p>
<table><tr><th>{% translate "Game" %}</th><th>{% translate "Dealer" %}</th>
<th>{% translate "Game played" %}</th>{% for s in page.seats %}<th>{{ s.name }}
</th>{% endfor %}</tr>{% for row in rows %}<tr><td>{{ row.number }}</td><td>{{ row.dealer }}</td>
<td></td><td></td><td></td><td></td><td></td></tr>{% endfor %}</table></section>{% endfor %}
</body></html>"""


def tree_pss(pid: int) -> int:
    """Proportional memory (kB) of a process and its children: forked workers share pages with
    their parent, so adding up RSS would count those pages several times."""
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            pids += [int(child) for child in children.read().split()]
    except OSError:
        pass
    total = 0
    for each in pids:
        try:
            with open(f"/proc/{each}/smaps_rollup") as rollup:
                total += next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
        except OSError:
            continue
    return total


def median_seconds(action, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _run in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def phone_games(rules, rng: random.Random) -> tuple[list[str], dict[int, str]]:
    """The games of one table as its phone sends them (the taps say won or lost, Schneider,
    Schwarz: no card points), valid under the rules, and the games the supervisor approves
    beforehand (a Tout, a Sie, a late Solo or Wenz: without the approval it would be struck)."""
    notations: list[str] = []
    approved: dict[int, str] = {}
    scored: list = []
    for number in range(1, rules.games_per_match + 1):
        game = random_entry(number, rng)
        while not isinstance(game, Game):  # a sanction is the supervisor's, never the phone's
            game = random_entry(number, rng)
        if game.declarer_points is not None:
            points = game.declarer_points
            game = dataclasses.replace(
                game,
                declarer_points=None,
                result=Result.WON if points > 60 else Result.LOST,
                schneider=not game.schwarz and not 30 < points < 91,
            )
        result = score_entry(game, rules, scored)
        if result.needs_approval:
            approved[number] = game.contract.value
            game = dataclasses.replace(game, approved=True)
            result = score_entry(game, rules, scored)
        if result.problems or result.struck:
            raise CommandError(f"generated game {number} is not valid: {result.problems}")
        scored.append(result)
        notations.append(format_game(game))
    return notations, approved


async def within(coroutines: list, deadline: float) -> None:
    """Run the coroutines together until they are done or the deadline has come; the ones
    still running then are cancelled."""
    tasks = [asyncio.ensure_future(coroutine) for coroutine in coroutines]
    if not tasks:
        return
    _done, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def percentile(times: list[float], share: float) -> float:
    """The time below which ``share`` of the sorted ``times`` lie (nearest rank), in ms."""
    return times[max(0, math.ceil(len(times) * share) - 1)] * 1000 if times else float("nan")


def machine_speed() -> float:
    """Seconds for ten million additions in a Python loop: the speed of this machine's cores
    at the moment, for reading the figures (a virtual machine's varies by half within an hour
    here; ``manage.py bench`` cannot make it steady)."""
    start = time.perf_counter()
    total = 0
    for number in range(10_000_000):
        total += number
    return time.perf_counter() - start


def by_tens(log: list[tuple[float, float]], seconds: int) -> str:
    """The p95 of the entries sent in each 10 s of the measured time, in ms: where the slow
    ones were (the players opening their standings at the start, say)."""
    tens = []
    for start in range(0, seconds, 10):
        times = sorted(took for sent, took in log if start <= sent < start + 10)
        tens.append(f"{percentile(times, 0.95):.0f}")
    return ", ".join(tens)


def http_bytes(base: str, lines: list[str], body: bytes = b"") -> tuple[int, int, bytes]:
    """One request as a phone's browser sends it over a connection of its own: the bytes sent,
    the bytes received (status line, headers and body as they came) and the body unpacked."""
    host = base.removeprefix("http://")
    address, port = host.rsplit(":", 1)
    head = [*lines, f"Host: {host}", *PHONE_HEADERS, "Connection: close"]
    head += [f"Content-Length: {len(body)}"] if body else []
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    with socket.create_connection((address, int(port)), timeout=30) as sock:
        sock.sendall(request)
        received = b"".join(iter(lambda: sock.recv(65536), b""))
    header, _blank, content = received.partition(b"\r\n\r\n")
    status = int(header.split()[1])
    headers = {
        name.strip().lower(): value.strip()
        for name, _colon, value in (
            line.decode("latin-1").partition(":") for line in header.split(b"\r\n")[1:]
        )
    }
    if status != 200:
        raise CommandError(f"{lines[0]} answered {status}")
    if headers.get("transfer-encoding") == "chunked":
        raise CommandError(f"{lines[0]} answered in chunks: the measure expects a length")
    if headers.get("content-encoding") == "gzip":
        content = gzip.decompress(content)
    return len(request), len(received), content


@dataclasses.dataclass
class TableRun:
    """What the phones and the players saw: latencies of the measured seconds, every game the
    server confirmed, and the errors of the whole run (warm-up included)."""

    measuring: float
    end: float
    entry_times: list[float] = dataclasses.field(default_factory=list)
    entry_log: list[tuple[float, float]] = dataclasses.field(default_factory=list)  # (sent, took)
    poll_times: list[float] = dataclasses.field(default_factory=list)
    read_times: list[float] = dataclasses.field(default_factory=list)
    entries: int = 0  # games confirmed at the first send, sent in the measured seconds
    # (code, game) -> (notation, key): every game sent, and every game the server confirmed
    sent: dict[tuple[str, int], tuple[str, str]] = dataclasses.field(default_factory=dict)
    confirmed: dict[tuple[str, int], tuple[str, str]] = dataclasses.field(default_factory=dict)
    resent: int = 0  # games sent again with the same key after a lost answer
    not_repeated: int = 0  # a resend carried out again instead of answered from its receipt
    unsent: list[tuple[str, dict]] = dataclasses.field(default_factory=list)  # queued at the end
    cut_off: int = 0  # requests still unanswered when the bench stopped waiting for them
    requests: Counter = dataclasses.field(default_factory=Counter)
    errors: Counter = dataclasses.field(default_factory=Counter)
    why: Counter = dataclasses.field(default_factory=Counter)  # the errors that are no cut-off

    def measured(self, started: float) -> bool:
        return self.measuring <= started < self.end


class Command(BaseCommand):
    help = "Measure the performance targets (use make bench: it uses a throwaway database)."

    def add_arguments(self, parser):
        parser.add_argument(
            "parts",
            nargs="*",
            choices=[[], *PARTS],
            metavar="PART",
            help=f"only these parts ({', '.join(PARTS)}); all when none is named",
        )
        parser.add_argument("--runs", type=int, default=5)
        parser.add_argument(
            "--tables", type=int, default=TABLE_TABLES, help="table-entry: tables, four players each"
        )
        parser.add_argument(
            "--readers", type=int, help="table-entry: players reading the standings (four per table)"
        )
        parser.add_argument(
            "--seconds", type=int, default=TABLE_SECONDS, help="table-entry: measured seconds"
        )
        parser.add_argument("--warm", type=int, default=WARM_SECONDS, help=argparse.SUPPRESS)
        parser.add_argument("--pages", nargs="+", help=argparse.SUPPRESS)

    def tournament(self, slug: str, players: int, matches: int) -> Tournament:
        Tournament.objects.filter(slug=slug).delete()
        tournament = create_tournament(
            COMMAND_LINE,
            name=slug,
            slug=slug,
            date=datetime.date(2026, 11, 21),
            rule_overrides={"matches": matches},
        )
        Participant.objects.bulk_create(
            Participant(tournament=tournament, number=n, name=f"{_('Participant %(n)s') % {'n': n}}")
            for n in range(1, players + 1)
        )
        return tournament

    def generated(self, rows: list) -> dict[int, str]:
        """2,000 participants, 3 matches of 32 games (48,000 games), and 16 participants: made
        once for every part that needs them."""
        slugs = {}
        for players in (16, 2000):
            slug = f"results-{players}"
            if not Tournament.objects.filter(slug=slug).exists():
                start = time.perf_counter()
                call_command(
                    "generate_tournament",
                    players=players,
                    matches=3,
                    slug=slug,
                    seed=str(players),
                    results=True,
                    stdout=io.StringIO(),
                )
                if players == 2000:
                    rows.append(
                        (
                            "generator, 2,000 × 3 × 32 with results",
                            f"{time.perf_counter() - start:.1f} s",
                            "≤ 60 s",
                        )
                    )
            slugs[players] = slug
        return slugs

    def exchange(self, large: Tournament) -> list[tuple[str, str, str]]:
        start = time.perf_counter()
        text = dumps(export_document(large))
        exported = time.perf_counter() - start
        start = time.perf_counter()
        Tournament.objects.filter(slug="results-2000-copy").delete()
        imported = import_plan(COMMAND_LINE, read_document(text, slug="results-2000-copy"))
        rows = [
            (
                "export of the large tournament (48,000 games)",
                f"{exported:.1f} s, {len(text) / 1e6:.1f} MB",
                "—",
            ),
            (
                "import of the large tournament (checked, then written)",
                f"{time.perf_counter() - start:.1f} s",
                "—",
            ),
        ]
        imported.delete()
        return rows

    def excel(self, large: Tournament, runs: int) -> list[tuple[str, str, str]]:
        seconds, (_name, _mime, workbook) = median_seconds(lambda: EXPORTERS["xlsx"].render(large), runs)
        return [
            (
                "Excel of 48,000 entries (standings, games, 1,500 scoresheets)",
                f"{seconds:.1f} s, {len(workbook) / 1e6:.1f} MB",
                "≈ 8 s (a background job)",
            )
        ]

    def standings_pages(self, slugs: dict[int, str], runs: int) -> list[tuple[str, str, str]]:
        # Measured in a fresh process, as a server process would serve the page.
        measured = json.loads(
            subprocess.run(
                [
                    sys.executable,
                    "manage.py",
                    "bench",
                    "--pages",
                    slugs[16],
                    slugs[2000],
                    "--runs",
                    str(runs),
                ],
                capture_output=True,
                text=True,
                check=True,
                env=os.environ,
            ).stdout
        )
        small, large = measured[slugs[16]], measured[slugs[2000]]
        return [
            (
                "standings page, 2,000 participants, 48,000 games",
                f"{large['warm'] * 1000:.0f} ms, {large['queries']} queries",
                "≤ 150 ms, ≤ 12 queries",
            ),
            ("  the same, first request after a write", f"{large['cold'] * 1000:.0f} ms", "≤ 150 ms"),
            (
                "standings page, 16 participants",
                f"{small['warm'] * 1000:.0f} ms, {small['queries']} queries",
                "≤ 12 queries",
            ),
            ("standings page, 2,000 vs 16 participants", f"{large['warm'] / small['warm']:.1f} ×", "≤ 3 ×"),
        ]

    def draws(self, runs: int) -> list[tuple[str, str, str]]:
        rows = []
        for players, matches, target in ((2000, 3, 2.0), (16, 5, None)):
            seconds, draw = median_seconds(
                lambda p=players, m=matches: draw_matches(range(p), m, "bench"), runs
            )
            rows.append(
                (
                    f"draw {players} × {matches}, algorithm",
                    f"{seconds:.3f} s, {draw.repeats} repeated table-mates",
                    f"≤ {target:.0f} s, 0 repeated" if target else "0 repeated",
                )
            )
            tournament = self.tournament(f"bench-{players}", players, matches)
            seconds, _result = median_seconds(
                lambda t=tournament: draw_service.draw_all(COMMAND_LINE, t, seed="bench"), runs
            )
            repeats = draw_service.repeated_table_mates(tournament)
            rows.append(
                (
                    f"draw {players} × {matches}, service with database writes",
                    f"{seconds:.3f} s, {repeats} repeated table-mates",
                    f"≤ {target:.0f} s, 0 repeated" if target else "0 repeated",
                )
            )
        return rows

    def pages(self, slugs: list[str], runs: int) -> None:
        """Time the public standings page of each tournament: warm (standings kept for the
        current results) and cold (the first request after a write), with its queries."""
        client = Client(HTTP_HOST="localhost")
        result = {}
        for slug in slugs:
            url = reverse("public:standings", args=[slug])
            tournament = Tournament.objects.get(slug=slug)
            page = client.get(url)
            if page.status_code != 200 or b'id="standings"' not in page.content:
                raise CommandError(f"the standings page of {slug} answered {page.status_code}")
            counted = []

            def count(execute, sql, params, many, context, counted=counted):
                counted.append(sql)
                return execute(sql, params, many, context)

            with connection.execute_wrapper(count):
                client.get(url)
            warm, _result = median_seconds(lambda u=url: client.get(u), runs)

            def cold(t=tournament, u=url):
                t.results_changed()
                start = time.perf_counter()
                client.get(u)
                return time.perf_counter() - start

            result[slug] = {
                "warm": warm,
                "queries": len(counted),
                "cold": statistics.median(cold() for _run in range(runs)),
            }
        self.stdout.write(json.dumps(result))

    def print_run(self, tournament: Tournament, blank: bool) -> tuple[float, float, int]:
        """Every scoresheet of match 1 as one PDF by the shell command in a fresh process, as
        the job worker makes it (two layout processes on two cores): seconds, peak memory of
        all its processes (MB, PSS) and pages."""
        with tempfile.TemporaryDirectory() as folder:
            target = os.path.join(folder, "sheets.pdf")
            command = [sys.executable, "manage.py", "print_scoresheets", tournament.slug, "--match", "1"]
            command += ["--blank"] if blank else []
            start = time.perf_counter()
            process = subprocess.Popen(
                [*command, "-o", target], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ
            )
            peak = 0
            while process.poll() is None:  # the memory of the whole run: parent and workers
                peak = max(peak, tree_pss(process.pid))
                time.sleep(0.05)
            seconds = time.perf_counter() - start
            if process.returncode:
                raise CommandError(process.stderr.read().decode())
            return seconds, peak / 1024, len(PdfReader(target).pages)

    def filled_pdf(self, tournament: Tournament) -> tuple[str, str, str]:
        seconds, peak, pages = self.print_run(tournament, blank=False)
        return (
            "filled-pdf",
            f"{pages} filled scoresheets {seconds:.1f} s, peak {peak:.0f} MB (all processes)",
            "≤ 25 s, ≤ 600 MB",
        )

    @contextlib.contextmanager
    def hall_server(self, ready: str):
        """The hall server (make hall's gunicorn and worker) on 127.0.0.1 only, on the database
        in use, until the block ends; yields its address once ``ready`` answers."""
        import httpx

        with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
            probe.close()
            env = {
                **os.environ,
                "SECRET_KEY_FILE": os.path.join(folder, "key"),
                "PORT": str(port),
                "CACHE_DIR": os.path.join(folder, "cache"),  # never the hall's own pages
            }
            env.pop("HALL_URL", None)
            server = subprocess.Popen(
                [sys.executable, "manage.py", "hall", "--bind", "127.0.0.1", "--port", str(port)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            base = f"http://127.0.0.1:{port}"
            try:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        httpx.get(f"{base}{ready}", timeout=30).raise_for_status()
                        break
                    except httpx.TransportError:
                        if server.poll() is not None or time.monotonic() > deadline:
                            raise CommandError("The hall server did not start.") from None
                        time.sleep(0.5)
                yield base
            finally:
                os.killpg(server.pid, signal.SIGINT)
                server.wait(timeout=60)

    def hall_standings(self, slug: str, clients: int, seconds: float) -> tuple[str, str, str]:
        """The hall server and as many phones as ``clients``, each asking for a page of the
        public standings or for its own player's line (a search by start number), reading it
        for about a second, asking again, for ``seconds``."""
        with self.hall_server(f"/t/{slug}/standings/") as base:
            pages = max(1, -(-Participant.objects.filter(tournament__slug=slug).count() // 50))
            times, errors = asyncio.run(self.phones(base, slug, pages, clients, seconds))
        times.sort()
        p95 = times[max(0, int(len(times) * 0.95) - 1)] * 1000 if times else float("nan")
        return (
            "hall-standings",
            f"{clients} clients {seconds:.0f} s, {len(times) + errors:,} requests, "
            f"p95 {p95:.0f} ms, errors {errors}",
            "p95 ≤ 150 ms, errors 0",
        )

    async def phones(self, base: str, slug: str, pages: int, clients: int, seconds: float):
        """``clients`` phones against the server for ``seconds`` after WARM_SECONDS of the same
        (each server process has then drawn the pages once: what a hall sees between results)."""
        import aiohttp

        times: list[float] = []
        errors = 0
        measuring = time.monotonic() + WARM_SECONDS
        end = measuring + seconds
        connector = aiohttp.TCPConnector(limit=clients)
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(base_url=base, connector=connector, timeout=timeout) as session:

            async def phone(seed: int):
                nonlocal errors
                chance = random.Random(seed)
                own = str(chance.randint(1, pages * 50))  # the player holding this phone
                await asyncio.sleep(chance.uniform(0, THINK_SECONDS[1]))  # phones do not start together
                while time.monotonic() < end:
                    # a page of the standings, or looking oneself up again
                    browsing = chance.random() < 0.5
                    params = {"page": str(chance.randint(1, pages))} if browsing else {"q": own}
                    start = time.perf_counter()
                    counted = time.monotonic() >= measuring
                    try:
                        async with session.get(f"/t/{slug}/standings/", params=params) as response:
                            await response.read()
                            ok = response.status == 200
                    except (TimeoutError, aiohttp.ClientError):
                        ok = False
                    if counted:
                        if ok:
                            times.append(time.perf_counter() - start)
                        else:
                            errors += 1
                    await asyncio.sleep(chance.uniform(*THINK_SECONDS))

            await asyncio.gather(*(phone(n) for n in range(clients)))
        return times, errors

    def table_tournament(self, slug: str, tables: int) -> tuple[Tournament, list[tuple[str, list[str]]]]:
        """``tables`` × 4 participants with match 1 drawn and its sheets empty, the games each
        table's phone will send, and the approvals those games need, given beforehand."""
        Tournament.objects.filter(slug=slug).delete()
        tournament = create_tournament(
            COMMAND_LINE, name="Table entry", slug=slug, date=datetime.date(2026, 11, 21)
        )
        rng = random.Random(slug)
        add_participants(tournament, tables * 4, rng)
        match = draw_service.draw_one(COMMAND_LINE, tournament, 1, seed="table-entry")
        rules = tournament.rules
        supervisor = stored_text(StaffRole.Role.SUPERVISOR.label)
        plans, approvals = [], []
        for sheet in Scoresheet.objects.filter(match=match).order_by("table__number"):
            notations, approved = phone_games(rules, rng)
            plans.append((sheet.code, notations))
            approvals += [
                Approval(scoresheet=sheet, number=n, contract=c, approved_by_name=supervisor)
                for n, c in approved.items()
            ]
        Approval.objects.bulk_create(approvals)
        return tournament, plans

    def table_entry(self, tables: int, players: int, seconds: int, warm: int) -> list[tuple[str, str, str]]:
        """The hall server while every table's phone enters its games and every player looks at
        the standings every 30 s; then, with the server stopped, the database is checked
        against what the server confirmed. Before that, on the idle server, the bytes of a
        phone's first load and of one later game (the last of a sheet, in a small tournament
        of its own, so that every table of the large one has its whole match ahead)."""
        _small, (sample, *_others) = self.table_tournament("bench-table-bytes", 2)
        tournament, plans = self.table_tournament("bench-table-entry", tables)
        with self.hall_server(f"/t/{tournament.slug}/standings/") as base:
            first_empty = self.first_load(base, plans[-1][0])  # as the table sits down
            later_game, first_full = self.later_game(base, *sample)
            speed_before = machine_speed()
            run = asyncio.run(self.table_phones(base, tournament.slug, plans, players, seconds, warm))
            speed_after = machine_speed()
        lost, duplicated, unconfirmed = self.table_checks(tournament.matches.get(number=1), run)
        errors = sum(run.errors.values())
        times = sorted(run.entry_times)
        p50, p95, p99 = (percentile(times, share) for share in (0.50, 0.95, 0.99))
        rate = run.entries / seconds
        database = "postgresql" if connection.vendor == "postgresql" else connection.vendor
        polls, reads = sorted(run.poll_times), sorted(run.read_times)
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(run.errors.items()) if count)
        reasons = ", ".join(
            [f"{run.cut_off:,} unanswered {GRACE_SECONDS} s after the end"]
            + [f"{count:,} {why}" for why, count in run.why.most_common()]
        )
        return [
            (
                "table-entry",
                f"{database} {tables} tables {seconds} s, {run.entries:,} entries, {rate:.1f}/s, "
                f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms, lost {lost}, "
                f"duplicated {duplicated}, errors {errors}",
                "≥ 50/s, p95 ≤ 150 ms, lost 0, duplicated 0, errors 0",
            ),
            (
                f"  entries per second ({tables} phones, {players:,} players reading)",
                f"{rate:.1f}/s",
                "≥ 50/s",
            ),
            ("  entry latency p95 (p50, p99)", f"{p95:.0f} ms ({p50:.0f} ms, {p99:.0f} ms)", "≤ 150 ms"),
            ("  entry latency p95 by 10 s of the run", by_tens(run.entry_log, seconds), "—"),
            (
                "  the machine's speed: 10 M Python additions, before and after the run",
                f"{speed_before:.2f} s, {speed_after:.2f} s (0.4 s when this machine is at its fastest)",
                "—",
            ),
            (
                "  lost, duplicated games",
                f"{lost}, {duplicated} ({run.resent} resent with the same key, "
                f"{unconfirmed} stored unconfirmed)",
                "0, 0",
            ),
            (
                "  errors: non-2xx, no answer, refused (whole run)",
                f"{errors} of {sum(run.requests.values()):,} requests"
                + (f" ({kinds}; {reasons})" if kinds else ""),
                "0",
            ),
            (
                "  meanwhile: standings p95, table polls p95",
                f"{percentile(reads, 0.95):.0f} ms ({len(reads):,}), {percentile(polls, 0.95):.0f} ms "
                f"({len(polls):,})",
                "—",
            ),
            (
                "  phone page, first load (HTML + CSS + JS, gzip)",
                f"{first_full / 1000:.1f} KB with 32 games, {first_empty / 1000:.1f} KB empty",
                "≤ 60 KB",
            ),
            ("  one later game (request + answer, gzip)", f"{later_game / 1000:.1f} KB", "≤ 5 KB"),
        ]

    async def table_phones(
        self, base: str, slug: str, plans: list, players: int, seconds: float, warm: float
    ) -> TableRun:
        """One phone per table and ``players`` players on the standings, for ``warm`` seconds
        and then the measured ``seconds``; the games still queued at the end are sent again
        until the server answers them, as the phone would."""
        import aiohttp

        begin = time.monotonic()
        run = TableRun(measuring=begin + warm, end=begin + warm + seconds)
        pages = max(1, -(-players // 50))
        # A browser sends a request again that failed on a connection the server had just closed
        # after its keep-alive (5 s); the bench closes idle connections before the server does.
        connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=4)
        timeout = aiohttp.ClientTimeout(total=None)  # as the phone's fetch: no time limit
        headers = {"Accept-Encoding": "gzip, deflate"}
        async with aiohttp.ClientSession(
            base_url=base, connector=connector, timeout=timeout, headers=headers
        ) as session:

            async def ask(
                kind: str, method: str, url: str, **options
            ) -> tuple[int | None, bytes, float, float]:
                started = time.monotonic()
                status, body = None, b""
                run.requests[kind] += 1
                try:
                    async with session.request(method, url, **options) as response:
                        status, body = response.status, await response.read()
                except (TimeoutError, aiohttp.ClientError) as error:
                    run.why[f"{type(error).__name__} {error}"[:70]] += 1
                except asyncio.CancelledError:  # still unanswered when the bench stopped waiting
                    run.errors[kind] += 1
                    run.cut_off += 1
                    raise
                if status is None or not 200 <= status < 300:
                    run.errors[kind] += 1
                if status is not None and not 200 <= status < 300:
                    run.why[f"HTTP {status}"] += 1
                return status, body, started, time.monotonic() - started

            async def send(code: str, item: dict) -> bool:
                """One game from the queue; False when it stays queued (no answer, or the answer
                was lost on its way back)."""
                payload = {"key": item["key"], "action": "game", "data": item["data"]}
                place = (code, item["data"]["number"])
                run.sent[place] = (item["data"]["notation"], item["key"])
                first = item["answer"] is None and not item["tries"]
                item["tries"] += 1
                status, body, started, took = await ask(
                    "entry" if first else "resend",
                    "POST",
                    f"/tisch/{code}/send",
                    json=payload,
                    headers={"Accept": "application/json"},
                )
                if status is None or status >= 500:
                    return False  # static/js/table.js tries again at its next tick
                try:
                    answer = json.loads(body)
                except ValueError:
                    run.errors["unreadable"] += 1
                    run.why["unreadable"] += 1
                    return False
                if first and run.measured(started):
                    run.entry_times.append(took)
                    run.entry_log.append((started - run.measuring, took))
                before = item["answer"]
                if before is not None and (
                    not answer.get("repeated") or (answer.get("ok"), answer.get("version")) != before
                ):
                    run.not_repeated += 1
                if not answer.get("ok"):
                    if status < 300:
                        run.errors["refused"] += 1
                        run.why["refused"] += 1
                    return True
                run.confirmed[place] = run.sent[place]
                if first and run.measured(started):
                    run.entries += 1
                if item["lose"] and before is None:
                    item["answer"] = (answer.get("ok"), answer.get("version"))
                    run.resent += 1
                    return False
                item["etag"] = (answer.get("state") or {}).get("etag")
                return True

            async def phone(code: str, games: list[str], chance: random.Random):
                queue: list[dict] = []
                try:
                    await table(code, games, chance, queue)
                finally:
                    run.unsent += [(code, item) for item in queue]

            async def table(code: str, games: list[str], chance: random.Random, queue: list[dict]):
                opened = begin + chance.uniform(0, POLL_SECONDS)  # the tables sit down over a while
                await asyncio.sleep(opened - time.monotonic())
                status, page, _started, _took = await ask("page", "GET", f"/tisch/{code}/")
                found = re.search(rb'<script id="state" type="application/json">(.*?)</script>', page)
                etag = json.loads(found.group(1)).get("etag", "") if found else ""
                number, next_game, next_tick = 1, opened + chance.uniform(*ENTRY_PAUSE), opened + POLL_SECONDS
                busy_until = opened

                async def flush():
                    nonlocal etag
                    while queue:
                        if not await send(code, queue[0]):
                            return
                        etag = queue.pop(0).get("etag") or etag

                while True:
                    game_due = number <= len(games) and next_game <= next_tick
                    due = next_game if game_due else next_tick
                    if due >= run.end:
                        break
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                    if game_due:  # the players tapped the game in: it is sent at once
                        queue.append(
                            {
                                "key": secrets.token_hex(16),
                                "data": {"number": number, "notation": games[number - 1]},
                                "lose": chance.random() < RESENT,
                                "answer": None,
                                "tries": 0,
                            }
                        )
                        number += 1
                        next_game += chance.uniform(*ENTRY_PAUSE)
                        await flush()
                        busy_until = time.monotonic()
                        continue
                    missed = next_tick < busy_until  # the script's tick came while it was sending
                    while next_tick <= time.monotonic():
                        next_tick += POLL_SECONDS
                    if missed:
                        continue
                    if queue:
                        await flush()
                        busy_until = time.monotonic()
                        continue
                    status, body, started, took = await ask(
                        "poll", "GET", f"/tisch/{code}/part", params={"seen": etag},
                        headers={"Accept": "application/json"},
                    )  # fmt: skip
                    if status == 200:
                        try:
                            etag = json.loads(body)["state"]["etag"]
                        except (ValueError, KeyError, TypeError):
                            run.errors["unreadable"] += 1
                            run.why["unreadable"] += 1
                    if status in (200, 204) and run.measured(started):
                        run.poll_times.append(took)

            async def player(seed: int):
                """A player opens the standings (a page of them, or his own line) once; the page
                then asks for its table every 30 s as its htmx does (templates/public/
                _standings.html: the part only, with htmx's headers)."""
                chance = random.Random(seed)
                own = str(chance.randint(1, players))
                due = begin + chance.uniform(0, READ_EVERY)
                browsing = chance.random() < 0.5
                params = {"page": str(chance.randint(1, pages))} if browsing else {"q": own}
                polled: dict[str, str] = {}  # the first request is the whole page
                while due < run.end:
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                    status, _body, started, took = await ask(
                        "standings", "GET", f"/t/{slug}/standings/", params=params, headers=polled
                    )
                    if status == 200 and run.measured(started):
                        run.read_times.append(took)
                    polled = {"HX-Request": "true", "HX-Target": "standings"}
                    due += READ_EVERY

            await within(
                [phone(code, games, random.Random(f"phone-{n}")) for n, (code, games) in enumerate(plans)]
                + [player(n) for n in range(players)],
                run.end + GRACE_SECONDS,
            )

            async def settle(code: str, item: dict):
                while not await send(code, item):  # until answered, as the phone would
                    await asyncio.sleep(POLL_SECONDS)

            # What was queued when the time was up: sent again until answered, for a while.
            unsent, run.unsent = run.unsent, []
            await within([settle(code, item) for code, item in unsent], time.monotonic() + GRACE_SECONDS)
        return run

    def table_checks(self, match, run: TableRun) -> tuple[int, int, int]:
        """Lost: a game the server confirmed that the database does not hold as sent, or holds
        without the receipt of its key (a resend would be carried out again). Duplicated: a
        stored game no phone sent, a game stored twice, a key kept twice, or a resend carried
        out again instead of answered from its receipt. Unconfirmed: stored, but its answer
        never reached the phone (a resend would get it)."""
        rules = match.tournament.rules
        stored = {
            (entry.scoresheet.code, entry.number): format_game(to_engine(entry, {}, rules))
            for entry in GameEntry.objects.filter(scoresheet__match=match).select_related("scoresheet")
        }
        receipts = Counter(PhoneReceipt.objects.filter(scoresheet__match=match).values_list("key", flat=True))
        lost = sum(
            1
            for place, (notation, key) in run.confirmed.items()
            if stored.get(place) != notation or key not in receipts
        )
        twice = (
            LogEntry.objects.filter(scoresheet__match=match, action="entry.create")
            .values("scoresheet", "game")
            .annotate(times=Count("id"))
            .filter(times__gt=1)
        )
        duplicated = (
            len(set(stored) - set(run.sent))
            + sum(t["times"] - 1 for t in twice)
            + sum(times - 1 for times in receipts.values())
            + run.not_repeated
        )
        return lost, duplicated, len(set(stored) - set(run.confirmed))

    def first_load(self, base: str, code: str) -> int:
        """The bytes of a phone opening its table's page: the page, its stylesheet and its
        script, each request and answer as they travel (compressed where the phone asks)."""
        sent, received, page = http_bytes(
            base,
            [
                f"GET /tisch/{code}/ HTTP/1.1",
                "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,*/*;q=0.8",
                "Upgrade-Insecure-Requests: 1",
            ],
        )
        total = sent + received
        found = re.findall(rb'<link rel="stylesheet" href="([^"]+)"|<script src="([^"]+)"', page)
        if len(found) != 2:
            raise CommandError(f"the phone page links {len(found)} stylesheets and scripts, not 2")
        for css, js in found:
            accept = "Accept: text/css,*/*;q=0.1" if css else "Accept: */*"
            path = (css or js).decode()
            sent, received, _content = http_bytes(
                base, [f"GET {path} HTTP/1.1", accept, f"Referer: {base}/tisch/{code}/"]
            )
            total += sent + received
        return total

    def later_game(self, base: str, code: str, games: list[str]) -> tuple[int, int]:
        """The bytes of the last game of a sheet (request and answer), the other games entered
        first, and then of the first load of the full sheet."""
        import httpx

        entered = set(GameEntry.objects.filter(scoresheet__code=code).values_list("number", flat=True))
        with httpx.Client(base_url=base, timeout=30) as client:
            for number, notation in enumerate(games[:-1], start=1):
                if number not in entered:
                    payload = {
                        "key": secrets.token_hex(16),
                        "action": "game",
                        "data": {"number": number, "notation": notation},
                    }
                    answer = client.post(
                        f"/tisch/{code}/send", json=payload, headers={"Accept": "application/json"}
                    )
                    if not answer.json().get("ok"):
                        raise CommandError(f"game {number} of {code} refused: {answer.text[:300]}")
        body = json.dumps(
            {
                "key": secrets.token_hex(16),
                "action": "game",
                "data": {"number": len(games), "notation": games[-1]},
            }
        ).encode()
        sent, received, answer = http_bytes(
            base,
            [
                f"POST /tisch/{code}/send HTTP/1.1",
                "Content-Type: application/json",
                "Accept: application/json",
                f"Origin: {base}",
                f"Referer: {base}/tisch/{code}/",
            ],
            body,
        )
        if not json.loads(answer).get("ok"):
            raise CommandError(f"the last game of {code} was refused: {answer[:300]!r}")
        return sent + received, self.first_load(base, code)

    def pdf(self, tournament: Tournament) -> list[tuple[str, str, str]]:
        """500 pre-filled scoresheets of match 1 as one PDF, in a fresh process (time and peak
        memory), against a plain WeasyPrint table layout of the same sheet drawn here."""
        seconds, peak, pages = self.print_run(tournament, blank=True)
        sample = list(sheets_of(tournament.matches.get(number=1)))[:20]
        rows = []  # the same rows as the sheet: games, rounds, the total
        for n in range(1, tournament.rules.games_per_match + 1):
            rows.append({"kind": "game", "number": n, "dealer": (n - 1) % 4 + 1, "label": ""})
            if n % 4 == 0:
                label = _("Round %(n)s") % {"n": n // 4}
                rows.append({"kind": "round", "number": "", "dealer": "", "label": f"{label} · Σ = 0"})
        rows.append({"kind": "round", "number": "", "dealer": "", "label": _("Match total")})
        html = Template(TABLE_LAYOUT).render(
            Context({"pages": [sheet_context(sheet, blank=True) for sheet in sample], "rows": rows})
        )
        start = time.perf_counter()
        render_pdf(html)
        table_rate = len(sample) / (time.perf_counter() - start)
        rate = pages / seconds
        # Sheets with their 32 games each, as printed after a match (no target in the issue).
        filled = list(sheets_of(tournament.matches.get(number=1)))[:100]
        start = time.perf_counter()
        filled_pages = len(PdfReader(io.BytesIO(scoresheets_pdf(filled, blank=False))).pages)
        filled_seconds = time.perf_counter() - start
        return [
            (
                f"{pages} pre-filled scoresheets as one PDF (all cores)",
                f"{seconds:.1f} s, peak {peak:.0f} MB (all processes, PSS)",
                "≤ 25 s, ≤ 600 MB",
            ),
            (
                "  pages per second: ours vs. a plain table layout",
                f"{rate:.1f} vs {table_rate:.1f}: {rate / table_rate:.1f} ×",
                "≥ 8 ×",
            ),
            (
                f"{filled_pages} scoresheets with their games as one PDF (all cores)",
                f"{filled_seconds:.1f} s, {filled_pages / filled_seconds:.1f} pages/s",
                "—",
            ),
        ]

    def game_entry(self, tournament: Tournament) -> tuple[str, str, str]:
        """Change the last game of 50 sheets through the service: lock, rescore, store, history."""
        times = []
        sheets = Scoresheet.objects.filter(match__tournament=tournament).select_related(
            "match__tournament", "table"
        )[:50]
        for index, sheet in enumerate(sheets):
            game = Game(
                sheet.match.tournament.rules.games_per_match,
                Contract.RUFER,
                1,
                suit=Suit.EICHEL,
                partner=2 + index % 3,
                result=Result.WON if index % 2 else Result.LOST,
            )
            start = time.perf_counter()
            scoresheets.save_entry(COMMAND_LINE, sheet, game, sheet.version, replace=True)
            times.append(time.perf_counter() - start)
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        return (
            "game entry through the service (median, p95)",
            f"{statistics.median(times) * 1000:.0f} ms, {p95 * 1000:.0f} ms",
            "—",
        )

    def handle(self, parts, runs, tables, readers, seconds, warm, pages=None, **options):
        if pages:
            self.pages(pages, runs)
            return
        wanted = set(parts or PARTS)
        rows: list = []
        if "draw" in wanted:
            rows += self.draws(runs)
        if wanted - {"draw", "table-entry"}:
            slugs = self.generated(rows)
            large = Tournament.objects.get(slug=slugs[2000])
            if "exchange" in wanted:
                rows += self.exchange(large)
            if "pdf" in wanted:
                rows += self.pdf(large)
            if "filled-pdf" in wanted:
                rows.append(self.filled_pdf(large))
            if "excel" in wanted:
                rows += self.excel(large, runs)
            if "pages" in wanted:
                rows += self.standings_pages(slugs, runs)
            if "entry" in wanted:
                rows.append(self.game_entry(large))
            if "hall-standings" in wanted:
                rows.append(self.hall_standings(large.slug, HALL_CLIENTS, HALL_SECONDS))
        if "table-entry" in wanted:
            rows += self.table_entry(tables, tables * 4 if readers is None else readers, seconds, warm)
        rows += [(figure, "not yet measured", target) for figure, target in NOT_YET]
        width = [max(len(str(r[i])) for r in rows) for i in range(3)]
        machine = f"{os.cpu_count()} cores, {platform.machine()}"
        self.stdout.write(
            f"Schafkopf-Turnier benchmarks: median of {runs} runs, {machine}, "
            f"Python {platform.python_version()}, {connection.vendor}"
        )
        header = ("figure", "measured", "target")
        self.stdout.write("  ".join(h.ljust(w) for h, w in zip(header, width, strict=True)))
        for row in rows:
            self.stdout.write("  ".join(str(c).ljust(w) for c, w in zip(row, width, strict=True)))
        for figure, measured, _target in rows:
            if figure in ONE_LINE:
                self.stdout.write(f"{figure}: {measured}")
