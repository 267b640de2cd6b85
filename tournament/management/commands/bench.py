"""Measures the performance targets of the issues and prints one table: figure, measured, target.

Run through ``make bench``, which points DATABASE_URL at a throwaway SQLite file."""

import datetime
import os
import platform
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection

from scoring.draw import draw_matches

from ...models import Participant, Tournament
from ...permissions import COMMAND_LINE
from ...services import draw as draw_service
from ...services.tournaments import create_tournament

NOT_YET = [
    ("standings page, 2,000 vs 16 participants", "≤ 150 ms, ≤ 3×, ≤ 12 queries"),
    ("game entry through the service (median, p95)", "—"),
    ("import and export of the large tournament", "—"),
    ("generator, 2,000 × 3 × 32 with results", "≤ 60 s"),
    ("500 pre-filled scoresheets as one PDF", "≤ 25 s, ≤ 600 MB"),
    ("Excel of 48,000 entries", "≤ 5 s"),
]


def median_seconds(action, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


class Command(BaseCommand):
    help = "Measure the performance targets (use make bench: it uses a throwaway database)."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=5)

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
            Participant(tournament=tournament, number=n, name=f"Spieler {n}") for n in range(1, players + 1)
        )
        return tournament

    def handle(self, runs, **options):
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
            seconds, _ = median_seconds(
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
