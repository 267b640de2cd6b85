"""python manage.py table_codes SLUG --match N"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ...printing.tablecodes import code_works
from ...results.models import Scoresheet
from ...tablephone.views import table_url
from ..lookup import tournament_named


class Command(BaseCommand):
    help = (
        "The address each table's code opens in a match, one line a table: the table's number "
        "and the address, for the organiser's own lists (issue 16). The addresses start with "
        "HALL_URL where it is set (as `make hall` does); otherwise they are paths only, to put "
        "after the server's address. A table whose sheet is signed or void is marked: its code "
        "no longer works."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--match", type=int, required=True)

    def handle(self, slug, match, **options):
        tournament = tournament_named(slug, self.stderr)
        found = tournament.matches.filter(number=match).first()
        if found is None:
            count = tournament.matches.count()
            raise CommandError(f"'{slug}' has no match {match}: it has {count} (1 to {count}).")
        if not found.is_drawn:
            raise CommandError(f"Match {match} of '{slug}' is not drawn: its tables have no codes yet.")
        if not settings.HALL_URL:
            self.stderr.write("HALL_URL is not set: the addresses are paths only.")
        sheets = (
            Scoresheet.objects.filter(match=found).select_related("table", "match").order_by("table__number")
        )
        for sheet in sheets:
            line = f"{sheet.table.number} {table_url(sheet)}"
            if not code_works(sheet):
                line += f" ({sheet.status}: the code no longer works)"
            self.stdout.write(line)
