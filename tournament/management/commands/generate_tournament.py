"""python manage.py generate_tournament --players N [--matches M] [--games G] --slug S
[--profile P] [--seed X] [--results] [--only-fours] [--organisation SLUG]

A field that does not divide by four is drawn with tables of five, where the dealer sits out
the game he dealt (README readings); ``--only-fours`` turns the rule profile's option off."""

import datetime
import random
import time

from django.core.management.base import BaseCommand, CommandError

from scoring.draw import draw_problems
from scoring.profiles import PROFILES, ProfileError, build_profile

from ...demo import generator
from ...draw import services as draw_service
from ...models import Tournament
from ...problems import problem_messages
from ...tournaments.permissions import COMMAND_LINE
from ...tournaments.services import create_tournament
from ..lookup import organisation_named


class Command(BaseCommand):
    help = (
        "Create a tournament with plausible Bavarian names, draw every match (tables of five "
        "where the field does not divide by four) and, with --results, fill every scoresheet "
        "with valid random games."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--matches", type=int)
        parser.add_argument("--games", type=int, help="games per match")
        parser.add_argument("--slug", required=True)
        parser.add_argument("--profile", choices=sorted(PROFILES), default="schafkopfschule-2007")
        parser.add_argument("--seed", default="1")
        parser.add_argument("--results", action="store_true")
        parser.add_argument(
            "--only-fours", action="store_true", help="no tables of five (rules.tables_of_five false)"
        )
        parser.add_argument("--organisation", help="its organisation (needed where the site has several)")

    def handle(
        self,
        players,
        slug,
        profile,
        seed,
        results,
        matches=None,
        games=None,
        only_fours=False,
        organisation=None,
        **options,
    ):
        owner = organisation_named(organisation)
        overrides = {k: v for k, v in (("matches", matches), ("games_per_match", games)) if v}
        if only_fours:
            overrides["tables_of_five"] = False
        try:
            five = build_profile(profile, overrides).tables_of_five
        except ProfileError as error:
            raise CommandError("; ".join(problem_messages(error.problems))) from None
        if draw_problems(players, five):
            tables = "tables of four and five" if five else "tables of four"
            raise CommandError(f"{players} players do not fill {tables}.")
        if Tournament.objects.filter(slug=slug).exists():
            raise CommandError(f"The slug '{slug}' is taken.")
        start = time.perf_counter()
        rng = random.Random(seed)
        try:
            tournament = create_tournament(
                COMMAND_LINE,
                organisation=owner,
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
