"""Printing scoresheets with WeasyPrint (5.3).

WeasyPrint's cost grows with the number of layout boxes, and tables are its slowest layout. So a
scoresheet page is one image with the grid and everything that is the same on every sheet (game
numbers, dealers, rounds, column heads), identical for every page of a run so that WeasyPrint
reads it once, plus a few absolutely positioned text boxes for what differs: names, results,
points. The games are one box per column for the whole sheet with a line a row (the players and
the result one box, a tab between them), the points columns one box in a monospaced font whose
spaces align the numbers to the columns: the lines of one box cost WeasyPrint a fraction of as
many boxes or inline elements. The same template is the HTML preview and the PDF. Long runs are
split over the cores and the parts joined.

A table of five (the dealer sits out, README readings) has a page of its own geometry: five
columns, 40 games, rounds of five, the sitting-out dealer's cell shaded in the grid and his 0 in
it; its sheets carry the class that scopes their rules, and their own grid image."""

from __future__ import annotations

import contextlib
import datetime
import functools
import io
import os
import signal
from multiprocessing import get_context

from django.conf import settings
from django.db import connections
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from pypdf import PdfWriter

from scoring.entries import zero

from ..documents.pdf import render_pdf
from ..documents.qr import qr_png
from ..draw.models import Match
from ..names import comma_parts
from ..results.load import load_sheets
from ..results.models import Scoresheet
from ..results.sheet import GameLine, SheetView, sheet_view
from .geometry import NAME_SIZES, TEXT_INSET, Geometry, Row, bottom_of, of, stylesheet, under_grid
from .grid import grid_png, text_mm
from .tablecodes import table_code

GAME_COLUMNS = ("contract", "players", "result", "points")
EN_SPACES = "\u2002\u2002"


def _points_line(values, chars: int, circled: int | None = None, struck: bool = False) -> str:
    """The seats' points as one line of the monospaced points box: each number right-aligned
    by spaces in a field of ``chars``, a seat column wide, the soloist's circled (5.3.3), struck
    ones struck (numbers only: a struck space would draw a line across the column). At a table
    of five the sitting-out dealer's 0 stands in his shaded cell."""
    fields = []
    for position, value in enumerate(values, start=1):
        text = str(int(value))  # a number: nothing to escape
        shown = f'<span class="ring">{text}</span>' if circled == position else text
        if struck:
            shown = f'<span class="struck">{shown}</span>'
        fields.append(" " * (chars - len(text)) + shown)
    return "".join(fields)


def name_fit(name: str, page: Geometry) -> tuple[str, int]:
    """The class of a seat's name on ``page``, and how many letters before its comma stay on the
    comma's line ("Nußbaumer, Hias" never printed as "Nußbaumer / , Hias", issue 28): the
    largest size at which the name has room and the word before its comma fits the column, that
    word kept whole (0). A word too long for the smallest size breaks where it must, shown whole
    rather than cut off, its last two letters kept with the comma."""
    kept = comma_parts(name)[1]
    width = page.seat_width - 2 * TEXT_INSET
    sizes = NAME_SIZES[page.seats]
    for css, points, most in sizes:
        if (most is None or len(name) <= most) and text_mm(kept, points) <= width:
            return css, 0
    return sizes[-1][0], 2


def _game_line(game: GameLine, void: bool, chars: int) -> dict[str, str]:
    """One game's line in each text column and in the points box, as HTML. The players and the
    result are one line of one box, a tab between them; a struck game's players, though, are a
    line of a box of their own: a tab after an inline element counts from that element's end."""
    if game.entry is None:
        return dict.fromkeys(GAME_COLUMNS, "")
    struck = game.struck or void  # 5.2.17, 5.3.6
    contract, players, result = game.short  # the usual German short forms
    note = f" <em>({escape(game.note)})</em>" if game.note else ""
    points = _points_line(game.points, chars, game.circled, struck)
    if struck:
        contract, players, result = (
            f'<span class="struck">{escape(text)}</span>' if text else ""
            for text in (contract, players, result)
        )
        return {"contract": contract, "players": players, "result": f"\t{result}{note}", "points": points}
    centred = EN_SPACES if len(players) == 1 else ""  # a single seat where "1 & 3" has its middle
    line = f"{centred}{escape(players)}\t{escape(result)}{note}"
    return {"contract": escape(contract), "players": "", "result": line, "points": points}


def _game_blocks(rows: list[Row], view: SheetView, page: Geometry) -> list[dict]:
    """The games as one text box per column for the whole sheet, one line a row: WeasyPrint lays
    out the lines of one box far faster than as many boxes (or inline elements). A round's row is
    an empty line there; the running totals after each round, as the engine computed them, are a
    bold box of their own with one line every round's pitch, and the match total another (a
    higher row)."""
    void = view.void
    games = {game.number: game for game in view.games}
    running = {total.number: total.running for total in view.rounds}
    columns: dict[str, list[str]] = {key: [] for key in GAME_COLUMNS}
    rounds: list[str] = []
    totals = zero(view.size)
    blocks: list[dict] = []
    for row in rows:
        if row.kind == "game":
            for key, html in _game_line(games[row.number], void, page.points_chars).items():
                columns[key].append(html)
            continue
        # a round without games carries the totals so far, as the paper would
        totals = view.totals if row.kind == "total" else running.get(row.number, totals)
        if row.kind == "total":
            line = _points_line(totals, page.total_chars, struck=void)
            blocks.append(_block("total", row.top, page.points_left(), line))
            continue
        for key in GAME_COLUMNS:
            columns[key].append("")
        rounds.append(_points_line(totals, page.points_chars, struck=void))
    top = rows[0].top
    left = {"result": page.players_left(), "points": page.points_left()}
    games_blocks = [
        _block(key, top, left.get(key) or page.column_x(key), "\n".join(lines).rstrip("\n"))
        for key, lines in columns.items()
        if key != "players" or any(lines)  # only struck games' players stand there
    ]
    # the first round line's middle on the middle of the first round row
    first_round = next(row.top for row in rows if row.kind == "round")
    rounds_top = first_round + page.row / 2 - page.round_pitch / 2
    return [*games_blocks, _block("rounds", rounds_top, page.points_left(), "\n".join(rounds)), *blocks]


def _block(column: str, top: float, x: float, html: str) -> dict:
    css = f"pts {column}" if column in ("points", "rounds", "total") else f"lines c{column}"
    return {"column": column, "css": css, "top": top, "x": x, "html": mark_safe(html)}


def sheet_context(sheet: Scoresheet, blank: bool, request=None, view: SheetView | None = None) -> dict:
    """What one printed sheet shows: header, seats, and unless blank every game. A blank sheet
    whose code still works carries the table code for the players' phones (issue 16), its address
    taken from ``request`` where there is no ``HALL_URL``; a sheet with games has been played
    (or is played on paper) and goes without it."""
    match = sheet.match
    tournament = match.tournament
    rules = tournament.rules
    view = view or sheet_view(sheet, rules=rules, seats=sheet.table.seats.all())
    page = of(view.size)
    rows = page.layout(rules.games_for(view.size))
    bottom = bottom_of(rows)
    seats = [
        {
            "position": seat.position,
            "number": seat.number,
            "name": seat.name,
            "x": page.column_x(str(seat.position)),
            "scorekeeper": seat.position == sheet.table.scorekeeper,
        }
        for seat in view.seats
    ]
    for seat in seats:
        seat["fit"], seat["keep"] = name_fit(seat["name"], page)
    blocks = _game_blocks(rows, view, page) if not blank else []
    heading = {"name": tournament.name, "date": tournament.date, "venue": tournament.venue}
    if not blank and sheet.status == Scoresheet.Status.SIGNED and sheet.signed_as:
        # The tournament as the players signed it (renamed since, say).
        signed = sheet.signed_as.get("tournament", {})
        heading["name"] = signed.get("name", tournament.name)
        heading["date"] = datetime.date.fromisoformat(signed.get("date", tournament.date.isoformat()))
    code = table_code(sheet, request) if blank else None
    return {
        "sheet": sheet,
        "match": match,
        "tournament": tournament,
        "heading": heading,
        "seats": seats,
        "size": view.size,  # four seats, or five where the dealer sits out
        "scope": page.scope,  # the class of the sheet's page in the stylesheet
        # contract, declarer, result, the seats' points, the totals after each round and the
        # match total: a text box each
        "blocks": blocks,
        "blank": blank,
        "void": not blank and view.void,  # 5.3.6
        "code": code,
        "qr": qr_png(code.url) if code and code.scannable else "",
        # Each signature on its line of the grid, the signer's name beside the line's label.
        "signatures": [
            {"x": page.sign_x(s.position), "image": s.image, "name": s.name}
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


def render_html(sheets, blank: bool, request=None) -> str:
    sheets = list(sheets)
    if not sheets:
        return render_to_string("print/scoresheets.html", {"pages": [], "geometry_css": stylesheet()})
    rules = sheets[0].match.tournament.rules
    language = translation.get_language() or settings.LANGUAGE_CODE
    pages = [sheet_context(read.sheet, blank, request, read.view(rules)) for read in load_sheets(sheets)]
    sizes = tuple(sorted({page["size"] for page in pages}))
    # One image a size: WeasyPrint reads each once for the whole run.
    grids = {size: grid_png(rules.games_for(size), language, size) for size in sizes}
    for page in pages:
        page["grid"] = grids[page["size"]]
    return render_to_string(
        "print/scoresheets.html",
        {
            "pages": pages,
            "geometry_css": stylesheet(sizes),
            "tournament": sheets[0].match.tournament,
        },
    )


def _plain_signals() -> None:
    """A layout process forked from the job worker answers SIGTERM and SIGINT as any process
    does: the worker's own handlers (finish the task, then stop) came with the fork and kept
    the pool's terminate waiting for a child that only noted the signal."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def scoresheets_pdf(sheets, blank: bool, workers: int = 1, progress=None, request=None) -> bytes:
    """One PDF of the given sheets, drawn in parts so that ``progress(done, total)`` can follow
    it sheet by sheet. With ``workers`` above 1 (the job worker and the shell command only, never
    a web request) the parts are laid out in that many forked processes: this process reads the
    database and writes each part's HTML, closes its database connections before forking, and
    joins the parts in order. ``request``: see ``sheet_context``."""
    sheets = list(sheets)
    total = len(sheets)
    size = PART_SHEETS_BLANK if blank else PART_SHEETS_FILLED
    parts_html = [render_html(sheets[i : i + size], blank, request) for i in range(0, total, size)]
    report = progress or (lambda done, total: None)
    report(0, total)
    if len(parts_html) <= 1:  # one part (or none): its PDF is the document
        pdf = render_pdf(parts_html[0] if parts_html else render_html([], blank))
        report(total, total)
        return pdf
    parts: list[bytes] = []
    with contextlib.ExitStack() as stack:
        if workers > 1:
            connections.close_all()  # a forked child must never share the parent's connection
            pool = stack.enter_context(get_context("fork").Pool(workers, _plain_signals, maxtasksperchild=1))
            laid_out = pool.imap(render_pdf, parts_html, chunksize=1)
            # A worker killed (out of memory, say) would leave the wait going for ever.
            next_part = functools.partial(laid_out.next, timeout=PART_TIMEOUT)
        else:
            next_part = map(render_pdf, parts_html).__next__
        for _part in parts_html:
            parts.append(next_part())
            report(min(len(parts) * size, total), total)
        if workers > 1:
            # Ended gently: each worker reads its sentinel and leaves, rather than terminated
            # (the block's exit, kept for errors) while the pool may be forking a replacement
            # (maxtasksperchild) that then waits for the task queue's lock a killed worker held.
            pool.close()
            pool.join()
    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()
