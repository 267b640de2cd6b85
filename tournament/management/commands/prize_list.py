"""python manage.py prize_list SLUG --format csv|json: who gets what, best first (issue 17)."""

from django.core.management.base import BaseCommand, CommandError

from ...prizes import services
from ...prizes.reckoning import Award
from ..lookup import tournament_named
from .standings import write_rows

# cash and goods apart (issue 28, item 17), so that a spreadsheet adds the cash up; ``prize``
# stays last as before, both in one text ("2 € + Brotzeit") as the pages say it.
FIELDS = ["place", "number", "name", "cash", "goods", "prize"]


def award_row(award: Award) -> dict:
    return {
        "place": award.place,
        "number": award.number,
        "name": award.name,
        "cash": award.amount,  # whole euros; empty (null) for goods alone
        "goods": award.goods_text,
        "prize": award.prize,
    }


class Command(BaseCommand):
    help = "Print the prize list, best first: place, start number, name, cash (whole euros), goods, prize."

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
        rows = [award_row(award) for award in prizes.awards]
        write_rows(self.stdout, rows, FIELDS, format)
