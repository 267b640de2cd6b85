"""The one page geometry of a printed scoresheet (A4 portrait, millimetres): the grid image, the
text boxes over it and their stylesheet are all placed from here."""

from __future__ import annotations

from dataclasses import dataclass

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
