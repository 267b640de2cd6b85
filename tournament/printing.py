"""Printing scoresheets with WeasyPrint (5.3).

WeasyPrint's cost grows with the number of layout boxes, and tables are its slowest layout. So a
scoresheet page is one image with the grid and everything that is the same on every sheet (game
numbers, dealers, rounds, column heads), identical for every page of a run so that WeasyPrint
reads it once, plus a few absolutely positioned text boxes for what differs: names, results,
points. The games are one box per column and round with a line per game, as the lines of one
box cost WeasyPrint a fraction of as many boxes. The same template is the HTML preview and the
PDF. Long runs are split over the cores and the parts joined."""

from __future__ import annotations

import base64
import io
import os
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing import get_context

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from scoring.scoresheet import dealer

from .entry_text import short_entry
from .models import Match, Scoresheet

# Geometry in millimetres (A4 portrait).
LEFT, TOP_GRID = 12.0, 52.0
COLUMNS = (
    ("game", 10.0),
    ("dealer", 10.0),
    ("contract", 27.0),
    ("players", 12.0),
    ("result", 55.0),
    ("1", 18.0),
    ("2", 18.0),
    ("3", 18.0),
    ("4", 18.0),
)
HEAD_ROW, GAME_ROW, ROUND_ROW, TOTAL_ROW = 7.0, 5.0, 4.6, 6.0
# The four signature lines under the grid (5.3.2): every SIGN_PITCH mm, SIGN_WIDTH long,
# SIGN_LINE below the grid; a signed sheet puts each signature on its line.
SIGN_PITCH, SIGN_WIDTH, SIGN_LINE = 47.0, 44.0, 19.0


def column_x(name: str) -> float:
    x = LEFT
    for key, width in COLUMNS:
        if key == name:
            return x
        x += width
    raise KeyError(name)


@dataclass(frozen=True)
class Row:
    kind: str  # "game", "round" or "total"
    number: int
    top: float


def layout(games: int) -> list[Row]:
    """Where every game row, round row and the total row sits (mm from the page top)."""
    rows, y = [], TOP_GRID + HEAD_ROW
    for number in range(1, games + 1):
        rows.append(Row("game", number, y))
        y += GAME_ROW
        if number % 4 == 0:
            rows.append(Row("round", number // 4, y))
            y += ROUND_ROW
    rows.append(Row("total", 0, y))
    return rows


def bottom_of(rows: list[Row]) -> float:
    """Where the grid ends (mm from the page top)."""
    return rows[-1].top + TOTAL_ROW


DPI = 200
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)


def _font(size_mm: float, bold: bool = False):
    from PIL import ImageFont

    size = round(size_mm * DPI / 25.4)
    try:
        return ImageFont.truetype(FONT_FILES[1 if bold else 0], size)
    except OSError:
        return ImageFont.load_default(size)


@lru_cache(maxsize=8)
def grid_png(games: int, language: str) -> str:
    """The grid of a sheet with its fixed labels as one image (a data URL): embedded once in a
    PDF and only referenced by every page, where an SVG would be drawn anew on each."""
    from PIL import Image, ImageDraw

    def px(mm: float) -> int:
        return round(mm * DPI / 25.4)

    with translation.override(language):
        heads = {
            "game": _("Game"),
            "dealer": _("Dealer"),
            "contract": _("Game played"),
            "players": _("Declarer"),
            "result": _("Result"),
        }
        round_label, total_label = _("Round"), _("Match total")
    width = sum(w for _k, w in COLUMNS)
    rows = layout(games)
    bottom = bottom_of(rows)
    image = Image.new("L", (px(210), px(297)), 255)
    draw = ImageDraw.Draw(image)
    regular, small, bold = _font(2.8), _font(2.4), _font(2.8, bold=True)
    narrow = _font(2.2, bold=True)  # a column head too wide for its column
    draw.rectangle((px(LEFT), px(TOP_GRID), px(LEFT + width), px(TOP_GRID + HEAD_ROW)), fill=232)
    for row in rows:
        height = {"game": GAME_ROW, "round": ROUND_ROW, "total": TOTAL_ROW}[row.kind]
        if row.kind != "game":
            draw.rectangle((px(LEFT), px(row.top), px(LEFT + width), px(row.top + height)), fill=240)
        draw.line((px(LEFT), px(row.top), px(LEFT + width), px(row.top)), fill=80, width=1)
        middle = px(row.top + height / 2)
        if row.kind == "game":
            draw.text(
                (px(column_x("dealer") - 1.5), middle), str(row.number), font=regular, fill=0, anchor="rm"
            )
            draw.text(
                (px(column_x("contract") - 5), middle),
                str(dealer(row.number)),
                font=regular,
                fill=110,
                anchor="mm",
            )
        elif row.kind == "round":
            draw.text(
                (px(column_x("contract") + 1), middle),
                f"{round_label} {row.number} · Σ = 0",
                font=small,
                fill=80,
                anchor="lm",
            )
        else:
            draw.text((px(column_x("contract") + 1), middle), total_label, font=bold, fill=0, anchor="lm")
    draw.line((px(LEFT), px(bottom), px(LEFT + width), px(bottom)), fill=0, width=2)
    # The four signature lines (5.3.2), the same on every sheet.
    with translation.override(language):
        signature = _("signature")
    for seat in range(4):
        x0 = LEFT + seat * SIGN_PITCH
        line = bottom + SIGN_LINE
        draw.line((px(x0), px(line), px(x0 + SIGN_WIDTH), px(line)), fill=0, width=2)
        draw.text((px(x0), px(line + 1)), f"{seat + 1}: {signature}", font=small, fill=60, anchor="lt")
    x = LEFT
    for key, column in (*COLUMNS, ("end", 0)):
        strong = key in ("1", "contract", "end") or x == LEFT
        draw.line((px(x), px(TOP_GRID), px(x), px(bottom)), fill=0, width=2 if strong else 1)
        label = heads.get(key)
        if label:
            font = bold if bold.getlength(label) <= px(column - 1.5) else narrow
            draw.text((px(x + 0.7), px(TOP_GRID + HEAD_ROW / 2)), label, font=font, fill=0, anchor="lm")
        x += column
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


TEXT_COLUMNS = ("contract", "players", "result", "1", "2", "3", "4")


def note_text(entry) -> str:
    """The mark printed after a game's result."""
    if entry.struck:
        return _("struck")
    if entry.downgraded:
        return _("plain in game 1")  # 5.2.15
    if entry.approved:
        return _("approved")  # 5.2.14, 5.2.16: the supervisor approved it
    return ""


def _game_line(entry) -> dict[str, str]:
    """One game's line in each column, as HTML."""
    # 5.3.3: the soloist's points circled (a paper row's circled seat)
    soloist = (
        entry.declarer
        if not entry.struck and entry.kind != "sanction" and entry.contract != "rufer"
        else None
    )
    note = note_text(entry)
    contract, players, result = short_entry(entry)  # the usual German short forms
    struck = '<span class="struck">{}</span>' if entry.struck else "{}"
    line = {
        "contract": format_html(struck, contract),
        "players": format_html(struck, players),
        "result": format_html(struck, result) + (format_html(" <em>({})</em>", note) if note else ""),
    }
    for position, value in enumerate(entry.points, start=1):
        shown = format_html('<span class="ring">{}</span>', value) if soloist == position else str(value)
        line[str(position)] = format_html(struck, mark_safe(shown))
    return line


def _game_blocks(rows: list[Row], entries: dict) -> tuple[list[dict], list[dict]]:
    """The games as one text box per column and run of game rows (a round), one line per game:
    WeasyPrint lays out the lines of one box far faster than as many boxes of one line. And the
    running totals after every round and the match, each summing to zero."""
    blocks: list[dict] = []
    totals_rows: list[dict] = []
    run: list[dict[str, str]] = []
    run_top = 0.0
    totals = [0, 0, 0, 0]

    def close_run():
        for key in TEXT_COLUMNS:
            html = "\n".join(line[key] for line in run)
            blocks.append({"top": run_top, "x": column_x(key), "column": key, "html": mark_safe(html)})
        run.clear()

    for row in rows:
        if row.kind == "game":
            if not run:
                run_top = row.top
            entry = entries.get(row.number)
            run.append(_game_line(entry) if entry else dict.fromkeys(TEXT_COLUMNS, ""))
            if entry:
                totals = [t + v for t, v in zip(totals, entry.points, strict=True)]
            continue
        if run:
            close_run()
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
    seats = [
        {
            "position": s.position,
            "number": s.participant.number,
            "name": s.participant.player_name(match.number, 1),
            "x": column_x(str(s.position)),
            "scorekeeper": s.position == sheet.table.scorekeeper,
        }
        for s in sheet.table.seats.all()
    ]
    blocks: list[dict] = []
    totals_rows: list[dict] = []
    if not blank:
        blocks, totals_rows = _game_blocks(rows, {e.number: e for e in sheet.entries.all()})
    return {
        "sheet": sheet,
        "match": match,
        "tournament": tournament,
        "seats": seats,
        "blocks": blocks,
        "totals": totals_rows,
        "blank": blank,
        "void": not blank and sheet.status == Scoresheet.Status.VOID,  # 5.3.6
        # Each signature on its line of the grid, the signer's name beside the line's label.
        "signatures": [
            {"x": LEFT + (s.position - 1) * SIGN_PITCH, "image": s.image, "name": s.name}
            for s in (sheet.signatures.all() if not blank else ())
        ],
        "corrections": list(sheet.corrections.all()) if not blank else [],
        "foot": bottom + 3,
        "sign_top": bottom + SIGN_LINE - 10.5,
        "name_top": bottom + SIGN_LINE + 1,
        "digest_top": bottom + SIGN_LINE + 4.5,
    }


def sheets_of(match: Match):
    return (
        Scoresheet.objects.filter(match=match)
        .select_related("table", "match__tournament")
        .order_by("table__number")
    )


MIN_PART = 20  # fewer sheets than two parts of this are drawn in one process
PARTS_PER_WORKER = 2
MAX_FILLED_PART = 50  # a filled sheet's layout is several times a blank one's: smaller parts
PART_TIMEOUT = 600  # seconds for the whole run
BATCH = 100  # sheets loaded at once: SQLite refuses the SQL of much larger prefetches


def _loaded(sheets):
    """The sheets with everything a page shows, in their order, loaded in batches."""
    ids = [sheet.pk for sheet in sheets]
    for start in range(0, len(ids), BATCH):
        batch = {
            s.pk: s
            for s in Scoresheet.objects.filter(pk__in=ids[start : start + BATCH])
            .select_related("table", "match__tournament")
            .prefetch_related(
                "table__seats__participant__substitutions", "entries", "signatures", "corrections"
            )
        }
        yield from (batch[pk] for pk in ids[start : start + BATCH])


def render_html(sheets, blank: bool) -> str:
    sheets = list(sheets)
    if not sheets:
        return render_to_string("print/scoresheets.html", {"pages": [], "grid": ""})
    games = sheets[0].match.tournament.rules.games_per_match
    return render_to_string(
        "print/scoresheets.html",
        {
            "pages": [sheet_context(sheet, blank) for sheet in _loaded(sheets)],
            "grid": grid_png(games, translation.get_language() or settings.LANGUAGE_CODE),
            "tournament": sheets[0].match.tournament,
        },
    )


def _fetcher():
    """WeasyPrint reads /static/... from the static folders, as the browser does, and nothing
    from the network: documents hold only our files and data URLs (signatures, the grid)."""
    from urllib.parse import urlparse

    from django.contrib.staticfiles import finders
    from weasyprint.urls import URLFetcher

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
    from weasyprint import HTML

    return HTML(string=html, base_url="file:///", url_fetcher=_fetcher()).write_pdf()


def scoresheets_pdf(sheets, blank: bool, workers: int | None = None) -> bytes:
    """One PDF of the given sheets. Long runs are split over the cores: this process reads the
    database and writes the HTML of each part; the workers only lay out and draw and never use
    the database connection they inherit; the parts are joined in order."""
    sheets = list(sheets)
    workers = workers or min(os.cpu_count() or 1, 4)
    if workers < 2 or len(sheets) < 2 * MIN_PART:
        return _pdf(render_html(sheets, blank))
    # Several parts per worker, each worker process renewed after its part: a worker holds the
    # layout of a few dozen pages at a time, not of half the run.
    size = max(MIN_PART, -(-len(sheets) // (workers * PARTS_PER_WORKER)))
    if not blank:
        size = min(size, MAX_FILLED_PART)
    parts_html = [render_html(sheets[i : i + size], blank) for i in range(0, len(sheets), size)]
    with get_context("fork").Pool(workers, maxtasksperchild=1) as pool:
        # A worker killed (out of memory, say) would leave map() waiting for ever.
        parts = pool.map_async(_pdf, parts_html, chunksize=1).get(timeout=PART_TIMEOUT)
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()
