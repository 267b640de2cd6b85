"""python manage.py print_scoresheets SLUG --match N [--blank] -o FILE.pdf"""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...printing.pdf import render_workers, scoresheets_pdf, sheets_of
from ..lookup import tournament_named


class Command(BaseCommand):
    help = (
        "Every scoresheet of a match in one PDF: pre-filled and blank to print before the "
        "match (--blank), or with the games entered."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--match", type=int, required=True)
        parser.add_argument("--blank", action="store_true")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, slug, match, blank, output, **options):
        tournament = tournament_named(slug, self.stderr)
        found = tournament.matches.filter(number=match).first()
        if found is None:
            count = tournament.matches.count()
            raise CommandError(f"'{slug}' has no match {match}: it has {count} (1 to {count}).")
        if not found.is_drawn:
            raise CommandError(f"Match {match} of '{slug}' is not drawn.")
        start = time.perf_counter()
        sheets = list(sheets_of(found))
        content = scoresheets_pdf(sheets, blank=blank, workers=render_workers())
        try:
            Path(output).write_bytes(content)
        except OSError as error:
            raise CommandError(f"{output}: {error.strerror}") from None
        self.stdout.write(f"{len(sheets)} scoresheets, {time.perf_counter() - start:.1f} s: {output}")
