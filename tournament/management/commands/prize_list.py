"""python manage.py prize_list SLUG --format csv|json: who gets what, best first (issue 17)."""

from django.core.management.base import BaseCommand, CommandError

from ...prizes import services
from ..lookup import tournament_named
from .standings import write_rows

FIELDS = ["place", "number", "name", "prize"]


class Command(BaseCommand):
    help = "Print the prize list, best first: place, start number, name, prize (euros or the goods)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, slug, format="csv", **options):
        tournament = tournament_named(slug, self.stderr)
        prizes = services.prize_list(tournament)
        if not prizes.declared:
            raise CommandError(f"'{slug}' has no prize list declared.")
        if prizes.problems:
            raise CommandError("\n".join(str(problem) for problem in prizes.problems))
        if not prizes.ranked:
            raise CommandError(f"'{slug}' is not drawn yet: the prize list follows the standings.")
        rows = [
            {"place": award.place, "number": award.number, "name": award.name, "prize": award.prize}
            for award in prizes.awards
        ]
        write_rows(self.stdout, rows, FIELDS, format)
