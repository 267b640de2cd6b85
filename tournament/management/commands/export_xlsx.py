"""python manage.py export_xlsx SLUG -o FILE.xlsx"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...printing.workbook import EXPORTERS
from ..lookup import tournament_named


class Command(BaseCommand):
    help = "Write standings, every game and every scoresheet of a tournament as one Excel file."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, slug, output, **options):
        tournament = tournament_named(slug, self.stderr)
        _name, _mime, content = EXPORTERS["xlsx"].render(tournament)
        try:
            Path(output).write_bytes(content)
        except OSError as error:
            raise CommandError(f"{output}: {error.strerror}") from None
        self.stdout.write(output)
