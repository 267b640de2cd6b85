"""entry: changing a game through the service (lock, rescore, store, history)."""

import statistics
import time

from scoring import Contract, Game, Result, Suit

from ..models import Scoresheet, Tournament
from ..results import services as scoresheets
from ..tournaments.permissions import COMMAND_LINE


def game_entry(tournament: Tournament) -> tuple[str, str, str]:
    """Change the last game of 50 sheets through the service: lock, rescore, store, history."""
    times = []
    sheets = Scoresheet.objects.filter(match__tournament=tournament).select_related(
        "match__tournament", "table"
    )[:50]
    for index, sheet in enumerate(sheets):
        game = Game(
            sheet.match.tournament.rules.games_per_match,
            Contract.RUFER,
            1,
            suit=Suit.EICHEL,
            partner=2 + index % 3,
            result=Result.WON if index % 2 else Result.LOST,
        )
        start = time.perf_counter()
        scoresheets.save_entry(COMMAND_LINE, sheet, game, sheet.version, replace=True)
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    return (
        "game entry through the service (median, p95)",
        f"{statistics.median(times) * 1000:.0f} ms, {p95 * 1000:.0f} ms",
        "—",
    )
