"""python manage.py export_tournament SLUG [-o FILE.json] (EXCHANGE.md)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...exchange.writer import dumps, export_document
from ..lookup import tournament_named


class Command(BaseCommand):
    help = "Write a tournament as one document of the exchange format."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="the file to write (default: standard output)")

    def handle(self, slug, output=None, **options):
        tournament = tournament_named(slug, self.stderr)
        text = dumps(export_document(tournament))
        if output:
            try:
                Path(output).write_text(text + "\n", encoding="utf-8")
            except OSError as error:
                raise CommandError(f"{output}: {error.strerror}") from None
        else:
            self.stdout.write(text)
