"""A player's season as a small chart drawn on the server (issue 30): his placing in each
tournament (as a share of the field, best at the top) and his rating after it (μ − 3σ, with the
band μ ± σ). Only the geometry is computed here; templates/public/_player_chart.html draws the
SVG, so a phone shows it without any script."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .players import Placing

WIDTH, HEIGHT = 320, 110
LEFT, RIGHT, TOP, BOTTOM = 36, 10, 10, 22


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str  # the tournament and value, the dot's title


@dataclass(frozen=True)
class Panel:
    dots: list[Dot]
    line: str  # the polyline's points
    band: str  # a polygon (the rating's μ ± σ), empty for placings
    ticks: list[tuple[float, str]]  # (y, label) on the left axis
    first: str  # the first and the last tournament's date under the axis
    last: str
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM


def _xs(count: int) -> list[float]:
    span = WIDTH - LEFT - RIGHT
    if count == 1:
        return [LEFT + span / 2]
    return [LEFT + span * i / (count - 1) for i in range(count)]


def _y(value: float, low: float, high: float) -> float:
    """``low`` at the bottom, ``high`` at the top."""
    span = HEIGHT - TOP - BOTTOM
    return round(TOP + span * (high - value) / (high - low), 1) if high != low else TOP + span / 2


def _points(pairs) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pairs)


def placings(placed: Sequence[Placing]) -> Panel | None:
    """Rank as a share of the field: 0 % at the top, 100 % at the bottom."""
    if not placed:
        return None
    xs = _xs(len(placed))
    dots = [
        Dot(x, _y(-p.percent, -100, 0), f"{p.date:%d.%m.%Y} {p.name}: {p.rank}/{p.field} ({p.percent} %)")
        for x, p in zip(xs, placed, strict=True)
    ]
    ticks = [(_y(-v, -100, 0), f"{v} %") for v in (0, 50, 100)]
    return Panel(dots, _points((d.x, d.y) for d in dots), "", ticks, _date(placed[0]), _date(placed[-1]))


def ratings(placed: Sequence[Placing]) -> Panel | None:
    """The rating after each tournament, in the band of μ ± σ."""
    rated = [p for p in placed if p.rating is not None]
    if not rated:
        return None
    xs = _xs(len(rated))
    values = [(p.rating.ordinal, p.rating.mu - p.rating.sigma, p.rating.mu + p.rating.sigma) for p in rated]  # type: ignore[union-attr]
    low = min(v for triple in values for v in triple)
    high = max(v for triple in values for v in triple)
    low, high = low - 1, high + 1
    dots = [
        Dot(x, _y(ordinal, low, high), f"{p.date:%d.%m.%Y} {p.name}: {ordinal:.2f}")
        for x, p, (ordinal, _a, _b) in zip(xs, rated, values, strict=True)
    ]
    upper = [(x, _y(top, low, high)) for x, (_o, _bottom, top) in zip(xs, values, strict=True)]
    lower = [(x, _y(bottom, low, high)) for x, (_o, bottom, _top) in zip(xs, values, strict=True)]
    if len(rated) == 1:  # a band needs a width: half a step either way
        upper = [(upper[0][0] - 8, upper[0][1]), (upper[0][0] + 8, upper[0][1])]
        lower = [(lower[0][0] - 8, lower[0][1]), (lower[0][0] + 8, lower[0][1])]
    band = _points([*upper, *reversed(lower)])
    ticks = [(_y(v, low, high), f"{v:.0f}") for v in (high - 1, (low + high) / 2, low + 1)]
    return Panel(dots, _points((d.x, d.y) for d in dots), band, ticks, _date(rated[0]), _date(rated[-1]))


def _date(placing: Placing) -> str:
    return f"{placing.date:%d.%m.%y}"
