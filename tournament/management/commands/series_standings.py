"""python manage.py series_standings SERIES --format csv|json (issue 17)."""

from django.core.management.base import BaseCommand, CommandError

from ...series import standings as series_standings
from ...series.models import Series
from .standings import write_rows

FIELDS = [key for key, _label in series_standings.COLUMNS]


class Command(BaseCommand):
    help = (
        "Print a series' standings, best first, then the players not yet ranked (too few "
        "attendances, rank empty): rank,number,name,club,attendances,counted,total,qualified."
    )

    def add_arguments(self, parser):
        parser.add_argument("series", help="the series' short name")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, series, format="csv", **options):
        found = Series.objects.filter(slug=series).first()
        if found is None:
            raise CommandError(f"There is no series '{series}'.")
        standings = series_standings.compute(found)
        rows = [series_standings.as_record(row) for row in standings.rows]
        if format == "json":
            for record, row in zip(rows, standings.rows, strict=True):
                record["results"] = [
                    {"tournament": r.slug, "points": r.points, "counted": r.counted} for r in row.results
                ]
        write_rows(self.stdout, rows, FIELDS, format)
