"""python manage.py import_tournament FILE.json [--slug SLUG] (EXCHANGE.md)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...exchange.importer import import_plan
from ...exchange.reader import DocumentError, read_document
from ...tournaments.permissions import COMMAND_LINE


class Command(BaseCommand):
    help = "Import a tournament document; prints the new tournament's slug as the last line."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="the short name of the new tournament")

    def handle(self, file, slug=None, **options):
        try:
            content = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        try:
            plan = read_document(content, slug=slug)
        except DocumentError as error:
            raise CommandError(
                f"{file} was not imported:\n" + "\n".join(f"- {m}" for m in error.messages)
            ) from None
        tournament = import_plan(COMMAND_LINE, plan)
        self.stdout.write(
            f"{tournament.name}: {len(plan.participants)} participants, "
            f"{len(plan.tables)} scoresheets, {plan.games} games"
        )
        self.stdout.write(tournament.slug)
