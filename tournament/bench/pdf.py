"""pdf and filled-pdf: every scoresheet of a match as one PDF in a fresh process, against a plain
table layout of the same sheet."""

import io
import os
import subprocess
import sys
import tempfile
import time

from django.core.management.base import CommandError
from django.template import Context, Template
from django.utils.translation import gettext as _
from pypdf import PdfReader

from ..documents.pdf import render_pdf
from ..models import Tournament
from ..printing.pdf import scoresheets_pdf, sheet_context, sheets_of
from .machine import tree_pss

# The comparison the scoresheet PDF is measured against: the same sheet as a plain table.
TABLE_LAYOUT = """{% load i18n %}<html><head><style>@page { size: A4; margin: 12mm; }
body { font: 9pt "DejaVu Sans"; } table { border-collapse: collapse; width: 100%; }
td, th { border: 0.2mm solid #000; padding: 0.5mm 1mm; height: 4mm; }
section { page-break-after: always; }</style></head><body>{% for page in pages %}<section>
<h1>{{ page.tournament.name }}</h1><p>{{ page.match.number }} / {{ page.sheet.table.number }}</p>
<table><tr><th>{% translate "Game" %}</th><th>{% translate "Dealer" %}</th>
<th>{% translate "Game played" %}</th>{% for s in page.seats %}<th>{{ s.name }}
</th>{% endfor %}</tr>{% for row in rows %}<tr><td>{{ row.number }}</td><td>{{ row.dealer }}</td>
<td></td><td></td><td></td><td></td><td></td></tr>{% endfor %}</table></section>{% endfor %}
</body></html>"""


def print_run(tournament: Tournament, blank: bool) -> tuple[float, float, int]:
    """Every scoresheet of match 1 as one PDF by the shell command in a fresh process, as
    the job worker makes it (two layout processes on two cores): seconds, peak memory of
    all its processes (MB, PSS) and pages."""
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "sheets.pdf")
        command = [sys.executable, "manage.py", "print_scoresheets", tournament.slug, "--match", "1"]
        command += ["--blank"] if blank else []
        start = time.perf_counter()
        process = subprocess.Popen(
            [*command, "-o", target], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ
        )
        peak = 0
        while process.poll() is None:  # the memory of the whole run: parent and workers
            peak = max(peak, tree_pss(process.pid))
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        if process.returncode:
            raise CommandError(process.stderr.read().decode())
        return seconds, peak / 1024, len(PdfReader(target).pages)


def filled_pdf(tournament: Tournament) -> tuple[str, str, str]:
    seconds, peak, pages = print_run(tournament, blank=False)
    return (
        "filled-pdf",
        f"{pages} filled scoresheets {seconds:.1f} s, peak {peak:.0f} MB (all processes)",
        "≤ 25 s, ≤ 600 MB",
    )


def pdf(tournament: Tournament) -> list[tuple[str, str, str]]:
    """500 pre-filled scoresheets of match 1 as one PDF, in a fresh process (time and peak
    memory), against a plain WeasyPrint table layout of the same sheet drawn here."""
    seconds, peak, pages = print_run(tournament, blank=True)
    sample = list(sheets_of(tournament.matches.get(number=1)))[:20]
    rows = []  # the same rows as the sheet: games, rounds, the total
    for n in range(1, tournament.rules.games_per_match + 1):
        rows.append({"kind": "game", "number": n, "dealer": (n - 1) % 4 + 1, "label": ""})
        if n % 4 == 0:
            label = _("Round %(n)s") % {"n": n // 4}
            rows.append({"kind": "round", "number": "", "dealer": "", "label": f"{label} · Σ = 0"})
    rows.append({"kind": "round", "number": "", "dealer": "", "label": _("Match total")})
    html = Template(TABLE_LAYOUT).render(
        Context({"pages": [sheet_context(sheet, blank=True) for sheet in sample], "rows": rows})
    )
    start = time.perf_counter()
    render_pdf(html)
    table_rate = len(sample) / (time.perf_counter() - start)
    rate = pages / seconds
    # Sheets with their 32 games each, as printed after a match (no target in the issue).
    filled = list(sheets_of(tournament.matches.get(number=1)))[:100]
    start = time.perf_counter()
    filled_pages = len(PdfReader(io.BytesIO(scoresheets_pdf(filled, blank=False))).pages)
    filled_seconds = time.perf_counter() - start
    return [
        (
            f"{pages} pre-filled scoresheets as one PDF (all cores)",
            f"{seconds:.1f} s, peak {peak:.0f} MB (all processes, PSS)",
            "≤ 25 s, ≤ 600 MB",
        ),
        (
            "  pages per second: ours vs. a plain table layout",
            f"{rate:.1f} vs {table_rate:.1f}: {rate / table_rate:.1f} ×",
            "≥ 8 ×",
        ),
        (
            f"{filled_pages} scoresheets with their games as one PDF (all cores)",
            f"{filled_seconds:.1f} s, {filled_pages / filled_seconds:.1f} pages/s",
            "—",
        ),
    ]
