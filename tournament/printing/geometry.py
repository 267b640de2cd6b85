"""The one page geometry of a printed scoresheet (A4 portrait, millimetres): the grid image, the
text boxes over it and the stylesheet that places them are all made from these numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

PAGE_WIDTH, PAGE_HEIGHT = 210.0, 297.0
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
GRID_WIDTH = sum(width for _key, width in COLUMNS)
# Game rows and round rows are equally high, so that each text column is one box of the whole
# sheet with one line a row (WeasyPrint lays out the lines of one box far faster than boxes).
ROW = 4.9
HEAD_ROW, GAME_ROW, ROUND_ROW, TOTAL_ROW = 7.0, ROW, ROW, 6.0
ROUND_PITCH = 4 * GAME_ROW + ROUND_ROW  # from one round row to the next
HEAD_TOP = 10.0  # the tournament, the match and the table
SEAT_TOP, SEAT_HEIGHT = 38.0, 13.0  # the players' names above their columns
VOID_TOP = 30.0  # the notice of a void sheet (5.3.6)
TEXT_INSET, POINTS_INSET = 1.0, 2.0  # text from the column's left line; points from its right
# The four points columns are one box in DejaVu Sans Mono, a line a row, each number right-aligned
# by spaces in a field of POINTS_CHARS characters a seat column (TOTAL_CHARS in the match total's
# larger line): the font size makes a field exactly a column wide, so the numbers end
# POINTS_INSET left of each column's right line.
MONO_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_ADVANCE = 1233 / 2048  # every character's advance (regular and bold), in em
POINTS_CHARS, TOTAL_CHARS = 12, 10
# The declarer (with his partner) and the result are one box too, a line a game: the box starts
# where "1 & 3" (in DejaVu Sans at TEXT_SIZE) stands centred in the declarer column, a single seat
# is centred by two EN SPACEs before it, and a tab (stops count from the box's left edge, in whole
# CSS px as WeasyPrint counts them) goes on to the result.
TEXT_SIZE = 7 * 25.4 / 72  # the game columns' font size (7pt), in mm
PAIR_ADVANCE = 5505 / 2048  # "1 & 3" in em
PX = 25.4 / 96
# The four signature lines under the grid (5.3.2): every SIGN_PITCH mm, SIGN_WIDTH long,
# SIGN_LINE below the grid; a signed sheet puts each signature on its line, SIGN_HEIGHT high.
SIGN_PITCH, SIGN_WIDTH, SIGN_LINE, SIGN_HEIGHT = 47.0, 44.0, 19.0, 10.0
SIGN_LABEL = 19.0  # the line's printed label ("4: Unterschrift"); the signer's name after it
CORRECTIONS_GAP = 3.0  # corrections start this far under the grid
SIGNATURE_LIFT = 10.5  # a signature's image stands this far above its line
NAME_DROP, DIGEST_DROP = 1.0, 4.5  # the signer's name and the digest below the lines
FOOT_BOTTOM = 6.0
# The table code on a pre-filled sheet (issue 16): its QR code in the header's right corner, the
# label, the code and the address under it, right-aligned, ending above the players' names (in the
# fonts the sheet has already: another font is another subset in every PDF); the header's text
# keeps clear of the QR code.
CODE_QR, CODE_TOP, CODE_GAP = 20.0, 5.0, 0.8
CODE_TEXT_WIDTH = 95.0


def column_x(name: str) -> float:
    x = LEFT
    for key, width in COLUMNS:
        if key == name:
            return x
        x += width
    raise KeyError(name)


def column_width(name: str) -> float:
    return dict(COLUMNS)[name]


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


def under_grid(bottom: float) -> dict[str, float]:
    """Where the lines under a grid ending at ``bottom`` sit (mm from the page top)."""
    line = bottom + SIGN_LINE
    return {
        "foot": bottom + CORRECTIONS_GAP,
        "sign_top": line - SIGNATURE_LIFT,
        "name_top": line + NAME_DROP,
        "digest_top": line + DIGEST_DROP,
    }


def mono_size(chars: int) -> float:
    """The font size (mm) at which ``chars`` monospaced characters are a seat column wide."""
    return column_width("1") / chars / MONO_ADVANCE


def points_left() -> float:
    """Where the points box starts: its first field ends POINTS_INSET left of seat 1's right line."""
    return column_x("1") - POINTS_INSET


def result_x() -> float:
    return column_x("result") + TEXT_INSET


def players_tab() -> int:
    """From the players' box's left edge to the result (CSS px)."""
    pair = PAIR_ADVANCE * TEXT_SIZE
    centred = column_x("players") + (column_width("players") - pair) / 2
    return round((result_x() - centred) / PX)


def players_left() -> float:
    """Where the box of the players and results starts: "1 & 3" centred in its column."""
    return result_x() - players_tab() * PX


def _mm(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") + "mm"


@cache
def stylesheet() -> str:
    """The positions and sizes of the boxes over the grid: the part of the print stylesheet
    that must agree with the grid image (static/css/scoresheet.css holds the rest)."""
    seats = 4 * column_width("1")
    rules = [
        f".sheet, .grid {{ width: {_mm(PAGE_WIDTH)}; height: {_mm(PAGE_HEIGHT)}; }}",
        f".head {{ left: {_mm(LEFT)}; top: {_mm(HEAD_TOP)}; width: {_mm(GRID_WIDTH)}; }}",
        f".seat {{ top: {_mm(SEAT_TOP)}; height: {_mm(SEAT_HEIGHT)}; "
        f"width: {_mm(column_width('1') - 2 * TEXT_INSET)}; padding-left: {_mm(TEXT_INSET)}; }}",
        f".lines {{ line-height: {_mm(GAME_ROW)}; }}",
        f".lines.ccontract {{ padding-left: {_mm(TEXT_INSET)}; "
        f"width: {_mm(column_width('contract') - TEXT_INSET)}; }}",
        f".lines.cplayers {{ width: {_mm(column_width('players'))}; }}",
        f".lines.cresult {{ width: {_mm(column_x('1') - players_left())}; "  # to the points
        f"tab-size: {players_tab()}px; }}",
        f".pts {{ width: {_mm(seats)}; font-size: {_mm(mono_size(POINTS_CHARS))}; "
        f"line-height: {_mm(ROW)}; }}",
        f".pts.rounds {{ line-height: {_mm(ROUND_PITCH)}; }}",
        f".pts.total {{ font-size: {_mm(mono_size(TOTAL_CHARS))}; height: {_mm(TOTAL_ROW)}; "
        f"line-height: {_mm(TOTAL_ROW)}; }}",
        f".void-notice {{ left: {_mm(LEFT)}; top: {_mm(VOID_TOP)}; width: {_mm(GRID_WIDTH - 2)}; }}",
        f".corrections, .digest {{ left: {_mm(LEFT)}; width: {_mm(GRID_WIDTH)}; }}",
        f".sign {{ width: {_mm(SIGN_WIDTH)}; height: {_mm(SIGN_HEIGHT)}; }}",
        f".sign img, .sign .paper {{ height: {_mm(SIGN_HEIGHT)}; }}",
        f".sign .paper {{ line-height: {_mm(SIGN_HEIGHT)}; }}",
        f".signer {{ margin-left: {_mm(SIGN_LABEL)}; width: {_mm(SIGN_WIDTH - SIGN_LABEL)}; }}",
        f".page-foot {{ left: {_mm(LEFT)}; bottom: {_mm(FOOT_BOTTOM)}; }}",
        *_code_rules(),
    ]
    return "\n".join(rules)


def _code_rules() -> list[str]:
    """The table code's box on a pre-filled sheet (scoresheet.css knows nothing of it): one box
    with the QR code as a block and the text lines under it, cheaper for WeasyPrint than a box
    each; plain lines (``pre-line``), the code alone in bold."""
    right = LEFT + GRID_WIDTH
    return [
        f".coded .head {{ width: {_mm(right - CODE_QR - 2 * CODE_GAP - LEFT)}; }}",
        f".code {{ position: absolute; margin: 0; left: {_mm(right - CODE_TEXT_WIDTH)}; "
        f"top: {_mm(CODE_TOP)}; width: {_mm(CODE_TEXT_WIDTH)}; text-align: right; "
        "white-space: pre-line; font-size: 6.5pt; line-height: 1.25; }",
        f".code img {{ display: block; width: {_mm(CODE_QR)}; height: {_mm(CODE_QR)}; "
        f"margin: 0 0 {_mm(CODE_GAP)} auto; image-rendering: pixelated; }}",
        ".code b { font-size: 9pt; }",
    ]
