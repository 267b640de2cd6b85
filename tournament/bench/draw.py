"""draw: the draw of 2,000 × 3 and 16 × 5, the algorithm alone and the service with its writes."""

from scoring.draw import draw_matches

from ..draw import services as draw_service
from ..tournaments.permissions import COMMAND_LINE
from .data import bare_tournament
from .figures import median_seconds


def draws(runs: int) -> list[tuple[str, str, str]]:
    rows = []
    for players, matches, target in ((2000, 3, 2.0), (16, 5, None)):
        seconds, draw = median_seconds(lambda p=players, m=matches: draw_matches(range(p), m, "bench"), runs)
        rows.append(
            (
                f"draw {players} × {matches}, algorithm",
                f"{seconds:.3f} s, {draw.repeats} repeated table-mates",
                f"≤ {target:.0f} s, 0 repeated" if target else "0 repeated",
            )
        )
        tournament = bare_tournament(f"bench-{players}", players, matches)
        seconds, _result = median_seconds(
            lambda t=tournament: draw_service.draw_all(COMMAND_LINE, t, seed="bench"), runs
        )
        repeats = draw_service.repeated_table_mates(tournament)
        rows.append(
            (
                f"draw {players} × {matches}, service with database writes",
                f"{seconds:.3f} s, {repeats} repeated table-mates",
                f"≤ {target:.0f} s, 0 repeated" if target else "0 repeated",
            )
        )
    return rows
