"""The page geometry of a printed scoresheet (A4 portrait, millimetres): the grid image, the text
boxes over it and the stylesheet that places them are all made from these numbers.

A table of five (the dealer sits out the game he dealt, README readings) has its own page: five
seat columns, 40 games and eight rounds of five on the same A4 page, so its grid is a little
wider and its rows a little lower. Its stylesheet rules are scoped to the ``five`` class of its
sheets, so that one run prints tables of four and of five with one stylesheet."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

PAGE_WIDTH, PAGE_HEIGHT = 210.0, 297.0
TOP_GRID = 52.0
# The columns before the seats', the same at four and at five (the longest game texts fit them).
TEXT_COLUMNS = (
    ("game", 10.0),
    ("dealer", 10.0),
    ("contract", 27.0),
    ("players", 12.0),
    ("result", 55.0),
)
HEAD_ROW, TOTAL_ROW = 7.0, 6.0
HEAD_TOP = 10.0  # the tournament, the match and the table
SEAT_TOP, SEAT_HEIGHT = 38.0, 13.0  # the players' names above their columns
VOID_TOP = 30.0  # the notice of a void sheet (5.3.6)
TEXT_INSET, POINTS_INSET = 1.0, 2.0  # text from the column's left line; points from its right
# The points columns are one box in DejaVu Sans Mono, a line a row, each number right-aligned by
# spaces in a field of ``points_chars`` characters a seat column (``total_chars`` in the match
# total's larger line): the font size makes a field exactly a column wide, so the numbers end
# POINTS_INSET left of each column's right line.
MONO_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_ADVANCE = 1233 / 2048  # every character's advance (regular and bold), in em
# The declarer (with his partner) and the result are one box too, a line a game: the box starts
# where "1 & 3" (in DejaVu Sans at TEXT_SIZE) stands centred in the declarer column, a single seat
# is centred by two EN SPACEs before it, and a tab (stops count from the box's left edge, in whole
# CSS px as WeasyPrint counts them) goes on to the result.
TEXT_SIZE = 7 * 25.4 / 72  # the game columns' font size (7pt), in mm
PAIR_ADVANCE = 5505 / 2048  # "1 & 3" in em
PX = 25.4 / 96
# A signature line a seat under the grid (5.3.2), SIGN_LINE below the grid; a signed sheet puts
# each signature on its line, SIGN_HEIGHT high.
SIGN_LINE, SIGN_HEIGHT = 19.0, 10.0
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


@dataclass(frozen=True)
class Geometry:
    """The page of a sheet of ``seats`` columns. Game rows and round rows are equally high
    (``row``), so that each text column is one box of the whole sheet with one line a row
    (WeasyPrint lays out the lines of one box far faster than boxes)."""

    seats: int
    left: float  # the grid's left edge (and the page's right margin)
    seat_width: float
    row: float
    points_chars: int
    total_chars: int
    sign_pitch: float  # from one signature line to the next
    sign_width: float
    scope: str  # the class of its sheets in the stylesheet; "" for the page of four

    @cached_property
    def columns(self) -> tuple[tuple[str, float], ...]:
        return (*TEXT_COLUMNS, *((str(seat), self.seat_width) for seat in range(1, self.seats + 1)))

    @property
    def grid_width(self) -> float:
        return sum(width for _key, width in self.columns)

    @property
    def round_pitch(self) -> float:
        """From one round row to the next: a round is a game a seat (2.4.15)."""
        return self.seats * self.row + self.row

    def column_x(self, name: str) -> float:
        x = self.left
        for key, width in self.columns:
            if key == name:
                return x
            x += width
        raise KeyError(name)

    def column_width(self, name: str) -> float:
        return dict(self.columns)[name]

    def layout(self, games: int) -> list[Row]:
        """Where every game row, round row and the total row sits (mm from the page top)."""
        rows, y = [], TOP_GRID + HEAD_ROW
        for number in range(1, games + 1):
            rows.append(Row("game", number, y))
            y += self.row
            if number % self.seats == 0:
                rows.append(Row("round", number // self.seats, y))
                y += self.row
        rows.append(Row("total", 0, y))
        return rows

    def mono_size(self, chars: int) -> float:
        """The font size (mm) at which ``chars`` monospaced characters are a seat column wide."""
        return self.seat_width / chars / MONO_ADVANCE

    def points_left(self) -> float:
        """Where the points box starts: its first field ends POINTS_INSET left of seat 1's right
        line."""
        return self.column_x("1") - POINTS_INSET

    def result_x(self) -> float:
        return self.column_x("result") + TEXT_INSET

    def players_tab(self) -> int:
        """From the players' box's left edge to the result (CSS px)."""
        pair = PAIR_ADVANCE * TEXT_SIZE
        centred = self.column_x("players") + (self.column_width("players") - pair) / 2
        return round((self.result_x() - centred) / PX)

    def players_left(self) -> float:
        """Where the box of the players and results starts: "1 & 3" centred in its column."""
        return self.result_x() - self.players_tab() * PX

    def sign_x(self, position: int) -> float:
        """Where the signature line of seat ``position`` starts."""
        return self.left + (position - 1) * self.sign_pitch


# The page every sheet had before tables of five: its stylesheet is unchanged by them.
FOUR = Geometry(
    seats=4,
    left=12.0,
    seat_width=18.0,
    row=4.9,
    points_chars=12,
    total_chars=10,
    sign_pitch=47.0,
    sign_width=44.0,
    scope="",
)
# Five columns of 16 mm where four had 18: the margins narrow to 8 mm. The rows are lower, so
# that 40 games and 8 rounds fit the page above the five signature lines (as 32 and 8 do at
# four: a longer match fits neither). The points nearly as large as at four (11 characters a
# field, the total 9).
FIVE = Geometry(
    seats=5,
    left=8.0,
    seat_width=16.0,
    row=4.0,
    points_chars=11,
    total_chars=9,
    sign_pitch=39.5,
    sign_width=36.0,
    scope="five",
)
GEOMETRIES = {geometry.seats: geometry for geometry in (FOUR, FIVE)}
# A seat's name over its column, largest first: its class, its size (pt) and the longest name
# (characters) whose three lines hold at that size; over four as scoresheet.css has them, over
# five one size smaller (``_narrow_names``).
NAME_SIZES = {
    4: (("", 7.5, 28), ("long", 6.0, 48), ("longer", 5.0, None)),
    5: (("", 6.5, 28), ("long", 5.2, 48), ("longer", 4.4, None)),
}


def of(seats: int) -> Geometry:
    """The page of a table of ``seats`` (4 or 5)."""
    return GEOMETRIES[seats]


@dataclass(frozen=True)
class Row:
    kind: str  # "game", "round" or "total"
    number: int
    top: float


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


def _mm(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") + "mm"


@cache
def stylesheet(sizes: tuple[int, ...] = (4,)) -> str:
    """The positions and sizes of the boxes over the grid: the part of the print stylesheet
    that must agree with the grid image (static/css/scoresheet.css holds the rest). The rules of
    the page of four, and where ``sizes`` has a table of five those of its page that differ,
    scoped to its sheets."""
    four = _geometry_rules(FOUR)
    rules = [f".sheet, .grid {{ width: {_mm(PAGE_WIDTH)}; height: {_mm(PAGE_HEIGHT)}; }}", *four]
    if 5 in sizes:
        scoped = _geometry_rules(FIVE, FIVE.scope)
        rules += [
            rule for plain, rule in zip(_geometry_rules(FIVE), scoped, strict=True) if plain not in four
        ]
        rules += _narrow_names(f".{FIVE.scope} ")
    return "\n".join(rules)


def _geometry_rules(g: Geometry, scope: str = "") -> list[str]:
    """The rules of page ``g``; with ``scope``, for the sheets of that class only."""
    inner = f".{scope} " if scope else ""  # the boxes of its sheets
    sheet = f".{scope}" if scope else ""  # its sheets themselves
    seat = g.column_width("1")
    right = g.left + g.grid_width
    return [
        f"{inner}.head {{ left: {_mm(g.left)}; top: {_mm(HEAD_TOP)}; width: {_mm(g.grid_width)}; }}",
        f"{inner}.seat {{ top: {_mm(SEAT_TOP)}; height: {_mm(SEAT_HEIGHT)}; "
        f"width: {_mm(seat - 2 * TEXT_INSET)}; padding-left: {_mm(TEXT_INSET)}; }}",
        f"{inner}.lines {{ line-height: {_mm(g.row)}; }}",
        f"{inner}.lines.ccontract {{ padding-left: {_mm(TEXT_INSET)}; "
        f"width: {_mm(g.column_width('contract') - TEXT_INSET)}; }}",
        f"{inner}.lines.cplayers {{ width: {_mm(g.column_width('players'))}; }}",
        f"{inner}.lines.cresult {{ width: {_mm(g.column_x('1') - g.players_left())}; "  # to the points
        f"tab-size: {g.players_tab()}px; }}",
        f"{inner}.pts {{ width: {_mm(g.seats * seat)}; font-size: {_mm(g.mono_size(g.points_chars))}; "
        f"line-height: {_mm(g.row)}; }}",
        f"{inner}.pts.rounds {{ line-height: {_mm(g.round_pitch)}; }}",
        f"{inner}.pts.total {{ font-size: {_mm(g.mono_size(g.total_chars))}; height: {_mm(TOTAL_ROW)}; "
        f"line-height: {_mm(TOTAL_ROW)}; }}",
        f"{inner}.void-notice {{ left: {_mm(g.left)}; top: {_mm(VOID_TOP)}; "
        f"width: {_mm(g.grid_width - 2)}; }}",
        f"{inner}.corrections, {inner}.digest {{ left: {_mm(g.left)}; width: {_mm(g.grid_width)}; }}",
        f"{inner}.sign {{ width: {_mm(g.sign_width)}; height: {_mm(SIGN_HEIGHT)}; }}",
        f"{inner}.sign img, {inner}.sign .paper {{ height: {_mm(SIGN_HEIGHT)}; }}",
        f"{inner}.sign .paper {{ line-height: {_mm(SIGN_HEIGHT)}; }}",
        f"{inner}.signer {{ margin-left: {_mm(SIGN_LABEL)}; width: {_mm(g.sign_width - SIGN_LABEL)}; }}",
        f"{inner}.page-foot {{ left: {_mm(g.left)}; width: {_mm(g.grid_width)}; "
        f"bottom: {_mm(FOOT_BOTTOM)}; }}",
        # The table code's box on a pre-filled sheet (scoresheet.css knows nothing of it): one box
        # with the QR code as a block and the text lines under it, cheaper for WeasyPrint than a
        # box each; plain lines (``pre-line``), the code alone in bold.
        f"{sheet}.coded .head {{ width: {_mm(right - CODE_QR - 2 * CODE_GAP - g.left)}; }}",
        f"{inner}.code {{ position: absolute; margin: 0; left: {_mm(right - CODE_TEXT_WIDTH)}; "
        f"top: {_mm(CODE_TOP)}; width: {_mm(CODE_TEXT_WIDTH)}; text-align: right; "
        "white-space: pre-line; font-size: 6.5pt; line-height: 1.25; }",
        f"{inner}.code img {{ display: block; width: {_mm(CODE_QR)}; height: {_mm(CODE_QR)}; "
        f"margin: 0 0 {_mm(CODE_GAP)} auto; image-rendering: pixelated; }}",
        f"{inner}.code b {{ font-size: 9pt; }}",
    ]


def _narrow_names(inner: str) -> list[str]:
    """The names over the narrower columns of five one size smaller than scoresheet.css gives
    them over four, so that as many characters fit a line (and "5 · Nr. 105 · ✎" its line)."""
    return [
        *(
            f"{inner}.seat{f'.{css}' if css else ''} {{ font-size: {points}pt; }}"
            for css, points, _most in NAME_SIZES[5]
        ),
        f"{inner}.seat .no {{ font-size: 5.5pt; }}",
    ]
