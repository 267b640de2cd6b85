"""excel: the workbook of the large tournament."""

from ..models import Tournament
from ..printing.workbook import EXPORTERS
from .figures import median_seconds


def excel(large: Tournament, runs: int) -> list[tuple[str, str, str]]:
    seconds, (_name, _mime, workbook) = median_seconds(lambda: EXPORTERS["xlsx"].render(large), runs)
    return [
        (
            "Excel of 48,000 entries (standings, games, 1,500 scoresheets)",
            f"{seconds:.1f} s, {len(workbook) / 1e6:.1f} MB",
            "≈ 8 s (a background job)",
        )
    ]
