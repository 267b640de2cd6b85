"""The bench's table: figure, measured, target; and the one-line figures."""

import os
import platform

from django.db import connection

NOT_YET: list[tuple[str, str]] = []
# The parts whose figure is also printed as one line of its own, e.g.
# "hall-standings: 200 clients 30 s, 5,400 requests, p95 84 ms, errors 0".
ONE_LINE = ("filled-pdf", "hall-standings", "table-entry", "cluster")


def report(rows: list, runs: int) -> list[str]:
    """The lines printed for ``rows`` measured with the median of ``runs`` runs."""
    rows = rows + [(figure, "not yet measured", target) for figure, target in NOT_YET]
    width = [max(len(str(r[i])) for r in rows) for i in range(3)]
    machine = f"{os.cpu_count()} cores, {platform.machine()}"
    lines = [
        f"Schafkopf-Turnier benchmarks: median of {runs} runs, {machine}, "
        f"Python {platform.python_version()}, {connection.vendor}"
    ]
    header = ("figure", "measured", "target")
    lines.append("  ".join(h.ljust(w) for h, w in zip(header, width, strict=True)))
    for row in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(row, width, strict=True)))
    for figure, measured, _target in rows:
        if figure in ONE_LINE:
            lines.append(f"{figure}: {measured}")
    return lines
