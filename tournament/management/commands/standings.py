"""python manage.py standings SLUG [--match N] --format csv|json (EXCHANGE.md)."""

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from ...standings import standings
from ..lookup import tournament_named

FIELDS = ["rank", "number", "name", *(m.key for m in standings.METRICS)]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A text cell a spreadsheet program will not run as a formula: one beginning with = + - @
    (or a tab or carriage return) gets a leading apostrophe. Numbers are written as numbers."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def write_rows(out, rows: list[dict], fields: list[str], format: str) -> None:
    """The rows as a JSON list, or as CSV with ``fields`` for columns: every text made
    spreadsheet-safe, yes/no as ``true``/``false`` (the commands that print tables share it)."""
    if format == "json":
        out.write(json.dumps(rows, ensure_ascii=False, indent=2))
        return

    def cell(value):
        if isinstance(value, bool):
            return "true" if value else "false"
        return spreadsheet_safe(value) if isinstance(value, str) else value

    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: cell(value) for key, value in row.items()} for row in rows)


class Command(BaseCommand):
    help = "Print the standings, best first: overall, or one match with --match."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--match", type=int)
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, slug, match=None, format="csv", **options):
        tournament = tournament_named(slug, self.stderr)
        if match is not None and not tournament.matches.filter(number=match).exists():
            raise CommandError(
                f"Match {match} does not exist: '{slug}' has {tournament.matches.count()} matches."
            )
        rows = [
            {"rank": row.rank, "number": row.number, "name": row.name, **row.values}
            for row in standings.compute(tournament, match).rows
        ]
        write_rows(self.stdout, rows, FIELDS, format)
