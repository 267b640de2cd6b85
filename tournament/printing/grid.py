"""The grid of a scoresheet and everything that is the same on every sheet, drawn once as an
image: one for the sheets of four, one for the sheets of five, where the seat that deals a game
sits it out and its cell is shaded in the game's row (README readings)."""

from __future__ import annotations

import base64
import io
from functools import lru_cache

from django.utils import translation
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from scoring.scoresheet import dealer

from .geometry import HEAD_ROW, SEAT_TOP, SIGN_LINE, TOP_GRID, TOTAL_ROW, bottom_of, of

DPI = 200
SITTING_OUT = 218  # the grey of a seat's cell in the game its dealer sits out (a round's row: 240)
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)


def _font(size_mm: float, bold: bool = False):
    size = round(size_mm * DPI / 25.4)
    try:
        return ImageFont.truetype(FONT_FILES[1 if bold else 0], size)
    except OSError:
        return ImageFont.load_default(size)


@lru_cache(maxsize=1)
def _measure():
    try:
        return ImageFont.truetype(FONT_FILES[0], 100)
    except OSError:
        return ImageFont.load_default(100)


def text_mm(text: str, points: float) -> float:
    """How wide ``text`` prints in DejaVu Sans at ``points`` (the sheet's font), in millimetres."""
    return _measure().getlength(text) / 100 * points * 25.4 / 72


@lru_cache(maxsize=8)
def grid_png(games: int, language: str, seats: int = 4) -> str:
    """The grid of a sheet of ``games`` games at a table of ``seats`` with its fixed labels as
    one image (a data URL): embedded once in a PDF and only referenced by every page, where an
    SVG would be drawn anew on each."""
    page = of(seats)

    def px(mm: float) -> int:
        return round(mm * DPI / 25.4)

    with translation.override(language):
        heads = {
            "game": _("Game"),
            "dealer": _("Dealer"),
            "contract": _("Game played"),
            "players": _("Declarer"),
            "result": _("Result"),
            **{str(seat): _("Points") for seat in range(1, seats + 1)},  # the names stand above
        }
        round_label, total_label = _("Round"), _("Match total")
    left, width, column_x = page.left, page.grid_width, page.column_x
    rows = page.layout(games)
    bottom = bottom_of(rows)
    image = Image.new("L", (px(210), px(297)), 255)
    draw = ImageDraw.Draw(image)
    regular, small, bold = _font(2.8), _font(2.4), _font(2.8, bold=True)
    narrow = _font(2.2, bold=True)  # a column head too wide for its column
    draw.rectangle((px(left), px(TOP_GRID), px(left + width), px(TOP_GRID + HEAD_ROW)), fill=232)
    for row in rows:
        height = TOTAL_ROW if row.kind == "total" else page.row
        if row.kind != "game":
            draw.rectangle((px(left), px(row.top), px(left + width), px(row.top + height)), fill=240)
        elif seats == 5:  # the dealer sits out: his cell has no points but his 0
            out = column_x(str(dealer(row.number, seats)))
            draw.rectangle(
                (px(out), px(row.top), px(out + page.seat_width), px(row.top + height)), fill=SITTING_OUT
            )
        draw.line((px(left), px(row.top), px(left + width), px(row.top)), fill=80, width=1)
        middle = px(row.top + height / 2)
        if row.kind == "game":
            draw.text(
                (px(column_x("dealer") - 1.5), middle), str(row.number), font=regular, fill=0, anchor="rm"
            )
            draw.text(
                (px(column_x("contract") - 5), middle),
                str(dealer(row.number, seats)),
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
    draw.line((px(left), px(bottom), px(left + width), px(bottom)), fill=0, width=2)
    # A signature line a seat (5.3.2), the same on every sheet.
    with translation.override(language):
        signature = _("signature")
    for seat in range(1, seats + 1):
        x0 = page.sign_x(seat)
        line = bottom + SIGN_LINE
        draw.line((px(x0), px(line), px(x0 + page.sign_width), px(line)), fill=0, width=2)
        draw.text((px(x0), px(line + 1)), f"{seat}: {signature}", font=small, fill=60, anchor="lt")
    # The players' names stand in boxes over their columns, one box a seat.
    first_seat = column_x("1")
    draw.line((px(first_seat), px(SEAT_TOP - 1), px(left + width), px(SEAT_TOP - 1)), fill=0, width=1)
    x = left
    for key, column in (*page.columns, ("end", 0)):
        strong = key in ("1", "contract", "end") or x == left
        top = SEAT_TOP - 1 if x >= first_seat else TOP_GRID
        draw.line((px(x), px(top), px(x), px(bottom)), fill=0, width=2 if strong else 1)
        label = heads.get(key)
        if label:
            font = bold if bold.getlength(label) <= px(column - 1.5) else narrow
            draw.text((px(x + 0.7), px(TOP_GRID + HEAD_ROW / 2)), label, font=font, fill=0, anchor="lm")
        x += column
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
