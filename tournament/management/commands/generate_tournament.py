"""python manage.py generate_tournament --players N [--matches M] [--games G] --slug S
[--profile P] [--seed X] [--results]"""

import datetime
import random
import time

from django.core.management.base import BaseCommand, CommandError

from scoring.draw import draw_problems
from scoring.profiles import PROFILES, ProfileError

from ...demo import generator
from ...draw import services as draw_service
from ...models import Tournament
from ...problems import problem_messages
from ...tournaments.permissions import COMMAND_LINE
from ...tournaments.services import create_tournament


class Command(BaseCommand):
    help = (
        "Create a tournament with plausible Bavarian names, draw every match and, with "
        "--results, fill every scoresheet with valid random games."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--matches", type=int)
        parser.add_argument("--games", type=int, help="games per match")
        parser.add_argument("--slug", required=True)
        parser.add_argument("--profile", choices=sorted(PROFILES), default="schafkopfschule-2007")
        parser.add_argument("--seed", default="1")
        parser.add_argument("--results", action="store_true")

    def handle(self, players, slug, profile, seed, results, matches=None, games=None, **options):
        if draw_problems(players):
            raise CommandError(f"{players} players do not fill tables of four.")
        if Tournament.objects.filter(slug=slug).exists():
            raise CommandError(f"The slug '{slug}' is taken.")
        overrides = {k: v for k, v in (("matches", matches), ("games_per_match", games)) if v}
        start = time.perf_counter()
        rng = random.Random(seed)
        try:
            tournament = create_tournament(
                COMMAND_LINE,
                name=f"Generiertes Turnier {slug}",
                slug=slug,
                date=datetime.date.today(),
                profile=profile,
                rule_overrides=overrides,
                status=Tournament.Status.RUNNING,
            )
        except ProfileError as error:
            raise CommandError("; ".join(problem_messages(error.problems))) from None
        generator.add_participants(tournament, players, rng)
        draw_service.draw_all(COMMAND_LINE, tournament, seed=str(seed))
        games_written = generator.fill_results(COMMAND_LINE, tournament, rng) if results else 0
        self.stdout.write(
            f"{players} participants, {tournament.rules.matches} matches drawn, "
            f"{games_written} games, {time.perf_counter() - start:.1f} s"
        )
        self.stdout.write(tournament.slug)
