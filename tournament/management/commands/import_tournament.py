"""python manage.py import_tournament FILE.json [--slug SLUG] [--organisation SLUG] (EXCHANGE.md).
The organisation (issue 29): named, or the site's only one."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...exchange.importer import import_plan
from ...exchange.reader import MAX_DOCUMENT_BYTES, DocumentError, read_document
from ...tournaments.permissions import COMMAND_LINE
from ..lookup import organisation_named


class Command(BaseCommand):
    help = "Import a tournament document; prints the new tournament's slug as the last line."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="the short name of the new tournament")
        parser.add_argument(
            "--organisation",
            help="the short name of the organisation it belongs to (needed where the site has several)",
        )

    def handle(self, file, slug=None, organisation=None, **options):
        owner = organisation_named(organisation)
        try:
            if Path(file).stat().st_size > MAX_DOCUMENT_BYTES:
                raise CommandError(f"{file} is larger than {MAX_DOCUMENT_BYTES >> 20} MB: not imported.")
            content = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        try:
            plan = read_document(content, slug=slug)
        except DocumentError as error:
            raise CommandError(
                f"{file} was not imported:\n" + "\n".join(f"- {m}" for m in error.messages)
            ) from None
        try:
            tournament = import_plan(COMMAND_LINE, plan, owner)
        except DocumentError as error:
            raise CommandError(
                f"{file} was not imported:\n" + "\n".join(f"- {m}" for m in error.messages)
            ) from None
        for note in plan.notes:
            self.stdout.write(f"Note: {note}")
        self.stdout.write(
            f"{tournament.name}: {len(plan.participants)} participants, "
            f"{len(plan.tables)} scoresheets, {plan.games} games"
        )
        self.stdout.write(tournament.slug)
