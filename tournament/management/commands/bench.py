"""Measures the performance targets of the issues and prints one table: figure, measured, target.

Run through ``make bench``, which points DATABASE_URL at a throwaway SQLite file. The parts live
in ``tournament.bench``; this command reads the arguments and prints."""

import argparse
import json

from django.core.management.base import BaseCommand

from ...bench.cluster_run import TOURNAMENTS, measure_cluster
from ...bench.pages import pages as measure_pages
from ...bench.parts import ALL, PARTS, TABLE_SECONDS, TABLE_TABLES, measure
from ...bench.report import report
from ...bench.server import WARM_SECONDS


class Command(BaseCommand):
    help = "Measure the performance targets (use make bench: it uses a throwaway database)."

    def add_arguments(self, parser):
        parser.add_argument(
            "parts",
            nargs="*",
            choices=[[], *PARTS],
            metavar="PART",
            help=f"only these parts ({', '.join(PARTS)}); all but cluster when none is named",
        )
        parser.add_argument("--runs", type=int, default=5)
        parser.add_argument(
            "--tables", type=int, default=TABLE_TABLES, help="table-entry: tables, four players each"
        )
        parser.add_argument(
            "--readers", type=int, help="table-entry: players reading the standings (four per table)"
        )
        parser.add_argument(
            "--seconds", type=int, default=TABLE_SECONDS, help="table-entry, cluster: measured seconds"
        )
        parser.add_argument(
            "--tournaments", type=int, default=TOURNAMENTS, help="cluster: tournaments of 20 tables each"
        )
        parser.add_argument("--inside-cluster", action="store_true", help=argparse.SUPPRESS)
        parser.add_argument("--warm", type=int, default=WARM_SECONDS, help=argparse.SUPPRESS)
        parser.add_argument("--pages", nargs="+", help=argparse.SUPPRESS)

    def handle(self, parts, runs, tables, readers, seconds, warm, tournaments, pages=None, **options):
        if pages:  # the pages part's fresh process: the figures as JSON for the parent
            self.stdout.write(json.dumps(measure_pages(pages, runs)))
            return
        if options["inside_cluster"]:  # the cluster part's process on its PostgreSQL database
            self.stdout.write(json.dumps(measure_cluster(tournaments, seconds)))
            return
        rows = measure(set(parts or ALL), runs, tables, readers, seconds, warm, tournaments)
        for line in report(rows, runs):
            self.stdout.write(line)
