"""Printing scoresheets with WeasyPrint (5.3).

WeasyPrint's cost grows with the number of layout boxes, and tables are its slowest layout. So a
scoresheet page is one image with the grid and everything that is the same on every sheet (game
numbers, dealers, rounds, column heads), identical for every page of a run so that WeasyPrint
reads it once, plus a few absolutely positioned text boxes for what differs: names, results,
points. The games are one box per column and round with a line per game, as the lines of one
box cost WeasyPrint a fraction of as many boxes. The same template is the HTML preview and the
PDF. Long runs are split over the cores and the parts joined."""

from __future__ import annotations

import datetime
import io
import os
from multiprocessing import get_context
from urllib.parse import urlparse

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connections
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from pypdf import PdfWriter
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from scoring.entries import ZERO

from ..draw.models import Match
from ..results.models import Scoresheet
from ..results.sheet import GameLine, SheetView, loaded, sheet_view
from .geometry import LEFT, SIGN_PITCH, Row, bottom_of, column_x, layout, stylesheet, under_grid
from .grid import grid_png

TEXT_COLUMNS = ("contract", "players", "result", "1", "2", "3", "4")


def _game_line(game: GameLine) -> dict[str, str]:
    """One game's line in each column, as HTML."""
    if game.entry is None:
        return dict.fromkeys(TEXT_COLUMNS, "")
    note = game.note
    contract, players, result = game.short  # the usual German short forms
    struck = '<span class="struck">{}</span>' if game.struck else "{}"
    line = {
        "contract": format_html(struck, contract),
        "players": format_html(struck, players),
        "result": format_html(struck, result) + (format_html(" <em>({})</em>", note) if note else ""),
    }
    for position, value in enumerate(game.points, start=1):
        # 5.3.3: the soloist's points circled (a paper row's circled seat)
        shown = format_html('<span class="ring">{}</span>', value) if game.circled == position else str(value)
        line[str(position)] = format_html(struck, mark_safe(shown))
    return line


def _game_blocks(rows: list[Row], view: SheetView) -> tuple[list[dict], list[dict]]:
    """The games as one text box per column and run of game rows (a round), one line per game:
    WeasyPrint lays out the lines of one box far faster than as many boxes of one line. And the
    running totals after every round and the match, as the engine computed them."""
    blocks: list[dict] = []
    totals_rows: list[dict] = []
    run: list[dict[str, str]] = []
    run_top = 0.0
    games = {game.number: game for game in view.games}
    running = {total.number: total.running for total in view.rounds}
    totals = ZERO

    def close_run():
        for key in TEXT_COLUMNS:
            html = "\n".join(line[key] for line in run)
            blocks.append({"top": run_top, "x": column_x(key), "column": key, "html": mark_safe(html)})
        run.clear()

    for row in rows:
        if row.kind == "game":
            if not run:
                run_top = row.top
            run.append(_game_line(games[row.number]))
            continue
        if run:
            close_run()
        # a round without games carries the totals so far, as the paper would
        totals = view.totals if row.kind == "total" else running.get(row.number, totals)
        totals_rows.append(
            {
                "top": row.top,
                "kind": row.kind,
                "points": [{"x": column_x(str(p)), "value": v} for p, v in enumerate(totals, start=1)],
            }
        )
    if run:
        close_run()
    return blocks, totals_rows


def sheet_context(sheet: Scoresheet, blank: bool) -> dict:
    """What one printed sheet shows: header, seats, and unless blank every game."""
    match = sheet.match
    tournament = match.tournament
    rules = tournament.rules
    rows = layout(rules.games_per_match)
    bottom = bottom_of(rows)
    view = sheet_view(sheet, rules=rules, seats=sheet.table.seats.all())
    seats = [
        {
            "position": seat.position,
            "number": seat.number,
            "name": seat.name,
            "x": column_x(str(seat.position)),
            "scorekeeper": seat.position == sheet.table.scorekeeper,
        }
        for seat in view.seats
    ]
    blocks: list[dict] = []
    totals_rows: list[dict] = []
    if not blank:
        blocks, totals_rows = _game_blocks(rows, view)
    heading = {"name": tournament.name, "date": tournament.date, "venue": tournament.venue}
    if not blank and sheet.status == Scoresheet.Status.SIGNED and sheet.signed_as:
        # The tournament as the players signed it (renamed since, say).
        signed = sheet.signed_as.get("tournament", {})
        heading["name"] = signed.get("name", tournament.name)
        heading["date"] = datetime.date.fromisoformat(signed.get("date", tournament.date.isoformat()))
    return {
        "sheet": sheet,
        "match": match,
        "tournament": tournament,
        "heading": heading,
        "seats": seats,
        "blocks": blocks,
        "totals": totals_rows,
        "blank": blank,
        "void": not blank and view.void,  # 5.3.6
        # Each signature on its line of the grid, the signer's name beside the line's label.
        "signatures": [
            {"x": LEFT + (s.position - 1) * SIGN_PITCH, "image": s.image, "name": s.name}
            for s in (sheet.signatures.all() if not blank else ())
        ],
        "corrections": sheet.corrections if not blank else [],
        **under_grid(bottom),
    }


def sheets_of(match: Match):
    return (
        Scoresheet.objects.filter(match=match)
        .select_related("table", "match__tournament")
        .order_by("table__number")
    )


# The sheets of a run are laid out in parts of this many: the layout of one part at a time is
# held in memory, and the progress of a job moves part by part.
PART_SHEETS_BLANK = 50
PART_SHEETS_FILLED = 25
PART_TIMEOUT = 600  # seconds for one part
RENDER_WORKERS = 2  # layout processes of a job on a machine with two or more cores


def render_workers() -> int:
    """How many layout processes a job or the shell command uses: two where there are two cores
    (1.45 × faster on two cores, measured by ``manage.py bench filled-pdf``), one otherwise."""
    return max(1, min(os.cpu_count() or 1, RENDER_WORKERS))


def render_html(sheets, blank: bool) -> str:
    sheets = list(sheets)
    if not sheets:
        return render_to_string(
            "print/scoresheets.html", {"pages": [], "grid": "", "geometry_css": stylesheet()}
        )
    games = sheets[0].match.tournament.rules.games_per_match
    return render_to_string(
        "print/scoresheets.html",
        {
            "pages": [sheet_context(sheet, blank) for sheet in loaded(sheets)],
            "grid": grid_png(games, translation.get_language() or settings.LANGUAGE_CODE),
            "geometry_css": stylesheet(),
            "tournament": sheets[0].match.tournament,
        },
    )


def _fetcher():
    """WeasyPrint reads /static/... from the static folders, as the browser does, and nothing
    from the network: documents hold only our files and data URLs (signatures, the grid)."""

    class StaticFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            path = urlparse(url).path
            if url.startswith("file:") and path.startswith(settings.STATIC_URL):
                found = finders.find(path[len(settings.STATIC_URL) :])
                if found:
                    url = f"file://{found}"
            return super().fetch(url, headers)

    return StaticFetcher(allowed_protocols=("file", "data"))


def _pdf(html: str) -> bytes:
    return HTML(string=html, base_url="file:///", url_fetcher=_fetcher()).write_pdf()


def scoresheets_pdf(sheets, blank: bool, workers: int = 1, progress=None) -> bytes:
    """One PDF of the given sheets, drawn in parts so that ``progress(done, total)`` can follow
    it sheet by sheet. With ``workers`` above 1 (the job worker and the shell command only, never
    a web request) the parts are laid out in that many forked processes: this process reads the
    database and writes each part's HTML, closes its database connections before forking, and
    joins the parts in order."""
    sheets = list(sheets)
    total = len(sheets)
    size = PART_SHEETS_BLANK if blank else PART_SHEETS_FILLED
    starts = list(range(0, total, size))
    if progress:
        progress(0, total)
    if len(starts) <= 1:
        pdf = _pdf(render_html(sheets, blank))
        if progress:
            progress(total, total)
        return pdf
    parts_html = [render_html(sheets[i : i + size], blank) for i in starts]
    sizes = [min(size, total - i) for i in starts]
    parts: list[bytes] = []
    done = 0
    if workers > 1:
        connections.close_all()  # a forked child must never share the parent's connection
        with get_context("fork").Pool(workers, maxtasksperchild=1) as pool:
            results = pool.imap(_pdf, parts_html, chunksize=1)
            for part_size in sizes:
                # A worker killed (out of memory, say) would leave the wait going for ever.
                parts.append(results.next(timeout=PART_TIMEOUT))
                done += part_size
                if progress:
                    progress(done, total)
    else:
        for html, part_size in zip(parts_html, sizes, strict=True):
            parts.append(_pdf(html))
            done += part_size
            if progress:
                progress(done, total)
    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()
