"""Measures the performance targets of the issues and prints one table: figure, measured, target.

Run through ``make bench``, which points DATABASE_URL at a throwaway SQLite file."""

import argparse
import asyncio
import datetime
import io
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext as _
from pypdf import PdfReader

from scoring import Contract, Game, Result, Suit
from scoring.draw import draw_matches

from ...draw import services as draw_service
from ...exchange.importer import import_plan
from ...exchange.reader import read_document
from ...exchange.writer import dumps, export_document
from ...models import Participant, Scoresheet, Tournament
from ...printing.pdf import _pdf, scoresheets_pdf, sheet_context, sheets_of
from ...printing.workbook import EXPORTERS
from ...results import services as scoresheets
from ...tournaments.permissions import COMMAND_LINE
from ...tournaments.services import create_tournament

NOT_YET: list[tuple[str, str]] = []
# What ``manage.py bench PART`` measures alone; ``make bench`` measures them all.
PARTS = ("draw", "exchange", "pdf", "filled-pdf", "excel", "pages", "entry", "hall-standings")
# The parts whose figure is also printed as one line of its own, e.g.
# "hall-standings: 200 clients 30 s, 5,400 requests, p95 84 ms, errors 0".
ONE_LINE = ("filled-pdf", "hall-standings")
HALL_CLIENTS, HALL_SECONDS = 200, 30
THINK_SECONDS = (0.5, 1.5)  # a phone's pause between two pages: reading, scrolling
WARM_SECONDS = 10  # the same load before the measured seconds: each process draws the pages once

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

    def hall_standings(self, slug: str, clients: int, seconds: float) -> tuple[str, str, str]:
        """The hall server (make hall's gunicorn and worker) on 127.0.0.1 only, and as many
        phones as ``clients``, each asking for a page of the public standings or for its own
        player's line (a search by start number), reading it for about a second, asking again,
        for ``seconds``."""
        import httpx

        with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
            probe.close()
            env = {**os.environ, "SECRET_KEY_FILE": os.path.join(folder, "key"), "PORT": str(port)}
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
                        httpx.get(f"{base}/t/{slug}/standings/", timeout=30).raise_for_status()
                        break
                    except httpx.TransportError:
                        if server.poll() is not None or time.monotonic() > deadline:
                            raise CommandError("The hall server did not start.") from None
                        time.sleep(0.5)
                pages = max(1, -(-Participant.objects.filter(tournament__slug=slug).count() // 50))
                times, errors = asyncio.run(self.phones(base, slug, pages, clients, seconds))
            finally:
                os.killpg(server.pid, signal.SIGINT)
                server.wait(timeout=60)
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
        _pdf(html)
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

    def handle(self, parts, runs, pages=None, **options):
        if pages:
            self.pages(pages, runs)
            return
        wanted = set(parts or PARTS)
        rows: list = []
        if "draw" in wanted:
            rows += self.draws(runs)
        if wanted - {"draw"}:
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
