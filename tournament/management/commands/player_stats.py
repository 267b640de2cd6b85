"""python manage.py player_stats SLUG --format csv|json (issue 30): one line per participant,
best first as in the standings, with his games, points, Solo, Tout and Sie counts and his rating
in this tournament (everybody starting fresh; README "Statistics and the rating")."""

from decimal import Decimal

from django.core.management.base import BaseCommand

from ...stats.players import tournament_stats
from ..lookup import tournament_named
from .standings import write_rows

FIELDS = [
    "number",
    "name",
    "games",
    "points",
    "points_per_game",
    "solo_played",
    "solo_won",
    "tout_played",
    "tout_won",
    "sie",
    "rating_mu",
    "rating_sigma",
    "rating",
]


def stats_row(stats, format: str) -> dict:
    """CSV writes ``points_per_game`` with two decimals and the rating with six; JSON the same
    values as numbers."""
    number = float if format == "json" else Decimal  # a number, never escaped as text ("-1.5")
    return {
        "number": stats.number,
        "name": stats.name,
        "games": stats.games,
        "points": stats.points,
        "points_per_game": number(stats.points_per_game_text or "0.00"),
        "solo_played": stats.solo_played,
        "solo_won": stats.solo_won,
        "tout_played": stats.tout_played,
        "tout_won": stats.tout_won,
        "sie": stats.sie,
        "rating_mu": number(f"{stats.rating.mu:.6f}"),
        "rating_sigma": number(f"{stats.rating.sigma:.6f}"),
        "rating": number(f"{stats.rating.ordinal:.6f}"),
    }


class Command(BaseCommand):
    help = "Print each participant's statistics and rating in the tournament, best first."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, slug, format="csv", **options):
        tournament = tournament_named(slug, self.stderr)
        write_rows(self.stdout, [stats_row(s, format) for s in tournament_stats(tournament)], FIELDS, format)
