"""What a write did to the games of a sheet: the sheet scored before it against the sheet scored
after it (issue 26).

A game's points depend on the games before it: an approval given or withdrawn, a Solo entered,
changed or deleted changes how many Solos count before a later one, which then needs approval
or no longer does (5.2.16), and is struck or counts again (5.2.17, RULINGS 8). ``changes`` names
every game whose points, strike or downgrade differ, each with before → after and the rule."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .approvals import soloist_games_before
from .entries import Family, Points
from .outcome import Scored
from .scoresheet import Row, Sheet


class Effect(StrEnum):
    ENTERED = "entered"  # on the sheet after the write, not before (the write's own game)
    DELETED = "deleted"  # on the sheet before the write, not after (the write's own game)
    STRUCK = "struck"  # needed approval and has none now (5.2.14, 5.2.16)
    COUNTS_AGAIN = "counts_again"  # was struck, counts now
    DOWNGRADED = "downgraded"  # scored as a plain Solo/Wenz in game 1 now (5.2.15)
    POINTS = "points"  # counts before and after, with other points


@dataclass(frozen=True)
class GameState:
    """How the engine scored one game: its points per seat, whether it is struck and by which
    rule, whether it is downgraded, and for a Solo the how-manieth counted Solo it would be."""

    points: Points
    struck: bool
    downgraded: bool
    rule: str | None = None  # the rule that struck it: "5.2.14" (Tout, Sie) or "5.2.16"
    nth_solo: int | None = None  # a Solo or Wenz: the counted Solos before it, plus one


@dataclass(frozen=True)
class Change:
    """Game ``number`` scored differently after a write than before it (None: not on that
    sheet, the game entered or deleted)."""

    number: int
    before: GameState | None
    after: GameState | None

    @property
    def effect(self) -> Effect:
        if self.before is None:
            return Effect.ENTERED
        if self.after is None:
            return Effect.DELETED
        if self.after.struck and not self.before.struck:
            return Effect.STRUCK
        if self.before.struck and not self.after.struck:
            return Effect.COUNTS_AGAIN
        if self.after.downgraded and not self.before.downgraded:
            return Effect.DOWNGRADED
        return Effect.POINTS


def state_of(row: Row, earlier: tuple[Scored, ...]) -> GameState:
    """``row`` as scored, with ``earlier``: the sheet's games scored before it."""
    scored = row.scored
    family = scored.kind.family if scored.kind is not None else None
    rule = None
    if scored.struck:
        rule = "5.2.14" if family in (Family.SIE, Family.TOUT) else "5.2.16"
    nth = soloist_games_before(row.number, earlier) + 1 if family is Family.SOLO else None
    return GameState(scored.points, scored.struck, scored.downgraded, rule, nth)


def states(sheet: Sheet) -> dict[int, GameState]:
    """Every game of ``sheet`` by number, as scored."""
    scored = tuple(row.scored for row in sheet.rows)
    return {row.number: state_of(row, scored) for row in sheet.rows}


def changes(before: Sheet, after: Sheet) -> tuple[Change, ...]:
    """The games whose points, strike or downgrade differ between the two sheets, and those on
    one sheet only (entered or deleted: only ever the write's own game), in game order."""
    was, now = states(before), states(after)
    found = []
    for number in sorted(was.keys() | now.keys()):
        old, new = was.get(number), now.get(number)
        if old is None or new is None or _scored(old) != _scored(new):
            found.append(Change(number, old, new))
    return tuple(found)


def _scored(state: GameState) -> tuple[Points, bool, bool]:
    """What the standings and the paper list see of a game."""
    return state.points, state.struck, state.downgraded
