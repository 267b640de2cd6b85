"""Load the demo tournaments into an empty database (make run does this)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from ...exchange.importer import import_plan
from ...exchange.reader import read_document
from ...models import Tournament
from ...tournaments.permissions import COMMAND_LINE

# demo-five.json: 21 participants, four tables of four and one of five (README readings).
DEMOS = ("demo.json", "demo-3x16.json", "demo-five.json")


class Command(BaseCommand):
    help = "Load the demo tournaments from fixtures/ when the database holds no tournament yet."

    def handle(self, **options):
        if Tournament.objects.exists():
            self.stdout.write("The database already holds tournaments: no demo loaded.")
            return
        for name in DEMOS:
            path = Path(settings.BASE_DIR) / "fixtures" / name
            if path.exists():
                tournament = import_plan(COMMAND_LINE, read_document(path.read_bytes()))
                self.stdout.write(f"Demo loaded: {tournament.name} (/t/{tournament.slug}/)")
