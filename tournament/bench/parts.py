"""The parts of the bench and the order ``make bench`` measures them in."""

from ..models import Tournament
from .cluster_run import cluster_bench
from .data import generated
from .draw import draws
from .entry import game_entry
from .excel import excel
from .exchange import exchange
from .hall_standings import hall_standings
from .pages import standings_pages
from .pdf import filled_pdf, pdf
from .stats import stats
from .table_entry import table_entry

# What ``manage.py bench PART`` measures alone; ``make bench`` measures them all but those
# measured only when named (``cluster``: minutes, and a PostgreSQL server).
PARTS = (
    "draw",
    "exchange",
    "pdf",
    "filled-pdf",
    "excel",
    "pages",
    "entry",
    "hall-standings",
    "table-entry",
    "stats",
    "cluster",
)
ALL = tuple(part for part in PARTS if part != "cluster")
HALL_CLIENTS, HALL_SECONDS = 200, 30
TABLE_TABLES, TABLE_SECONDS = 500, 60


def measure(
    wanted: set[str], runs: int, tables: int, readers: int | None, seconds: int, warm: int, tournaments: int
) -> list:
    """The rows (figure, measured, target) of the parts ``wanted``."""
    rows: list = []
    if "draw" in wanted:
        rows += draws(runs)
    if wanted - {"draw", "table-entry", "stats", "cluster"}:
        slugs = generated(rows)
        large = Tournament.objects.get(slug=slugs[2000])
        if "exchange" in wanted:
            rows += exchange(large)
        if "pdf" in wanted:
            rows += pdf(large)
        if "filled-pdf" in wanted:
            rows.append(filled_pdf(large))
        if "excel" in wanted:
            rows += excel(large, runs)
        if "pages" in wanted:
            rows += standings_pages(slugs, runs)
        if "entry" in wanted:
            rows.append(game_entry(large))
        if "hall-standings" in wanted:
            rows.append(hall_standings(large.slug, HALL_CLIENTS, HALL_SECONDS))
    if "stats" in wanted:
        rows += stats(runs)
    if "table-entry" in wanted:
        rows += table_entry(tables, tables * 4 if readers is None else readers, seconds, warm)
    if "cluster" in wanted:
        rows += cluster_bench(tournaments, seconds)
    return rows
