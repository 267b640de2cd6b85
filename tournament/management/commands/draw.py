from django.core.management.base import BaseCommand, CommandError

from ...draw import services as draw_service
from ...errors import ServiceError
from ...tournaments.permissions import COMMAND_LINE
from ..lookup import tournament_named


class Command(BaseCommand):
    help = "Draw tables and seats by lot (5.2.2): all matches, or one with --match."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--match", type=int, help="draw only this match, keeping the others")
        parser.add_argument("--seed", help="the seed of the lot; the same seed gives the same draw")
        parser.add_argument(
            "--discard-results",
            action="store_true",
            help="confirm that results already entered in the match are discarded",
        )

    def handle(self, slug, match=None, seed=None, discard_results=False, **options):
        tournament = tournament_named(slug, self.stderr)
        try:
            if match:
                drawn = [
                    draw_service.draw_one(
                        COMMAND_LINE, tournament, match, seed=seed, discard_results=discard_results
                    )
                ]
            else:
                drawn = draw_service.draw_all(
                    COMMAND_LINE, tournament, seed=seed, discard_results=discard_results
                )
        except ServiceError as error:
            raise CommandError(str(error.message)) from None
        repeats = draw_service.repeated_table_mates(tournament)
        for m in drawn:
            self.stdout.write(f"match {m.number}: {m.tables.count()} tables, seed {m.seed}")
        self.stdout.write(f"repeated table-mates over all drawn matches: {repeats}")
