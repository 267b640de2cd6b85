"""Scoring one entry in its place on the scoresheet (RULINGS 3 to 10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .approvals import needs_approval
from .describe import Described, describe_game, describe_sanction
from .entries import Entry, Family, Game, Kind, Points, Sanction, Transcribed, sitting_out, zero
from .points import points_of
from .problems import Problem
from .profiles import RuleProfile
from .ranking import Tally
from .transcription import transcribe


@dataclass(frozen=True)
class Scored:
    """An entry with its points for seats 1–4 (1–5 at a table of five, the sitting-out
    dealer's 0 included) and the reasons behind them.

    ``struck``: needed approval and had none: 0 points, counts for nothing (RULINGS 8).
    ``downgraded``: a Tout or a Schwarz in game 1, scored as a plain Solo/Wenz (RULINGS 6).
    An entry with problems is refused; a refused paper row keeps its numbers so that the round
    checksum shows the error as the paper does."""

    entry: Entry
    kind: Kind | None
    points: Points
    problems: tuple[Problem, ...] = ()
    downgraded: bool = False
    needs_approval: bool = False
    struck: bool = False

    @property
    def number(self) -> int:
        return self.entry.number

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def counted(self) -> bool:
        return self.ok and not self.struck

    @property
    def soloist(self) -> int | None:
        """The seat whose number is circled on the paper list (5.3.3)."""
        if self.kind is not None and self.kind.family.is_soloist:
            return self.kind.declarer
        return None

    def tally(self, seat: int) -> Tally:
        """This entry's contribution to ``seat``'s tie-break counts (RULINGS 13): only the
        declarer's own counted soloist games; struck games and sanctions count nowhere."""
        kind = self.kind
        if not self.counted or kind is None or kind.declarer != seat:
            return Tally()
        won = 1 if kind.won else 0
        if kind.family is Family.SIE:
            return Tally(sie=1)
        if kind.family is Family.TOUT:
            return Tally(tout_won=won, tout_played=1)
        if kind.family is Family.SOLO:
            return Tally(solo_won=won, solo_played=1)
        return Tally()


def describe(entry: Entry, profile: RuleProfile, seats: int = 4) -> Described:
    if isinstance(entry, Game):
        return describe_game(entry, profile, seats)
    if isinstance(entry, Sanction):
        return describe_sanction(entry, profile, seats)
    return transcribe(entry, profile, seats)


def score_entry(entry: Entry, profile: RuleProfile, earlier: Sequence[Scored] = (), seats: int = 4) -> Scored:
    """Score ``entry`` at a table of ``seats`` given the entries already on the sheet (for the
    approval count, which counts per table whatever its size: 5.2.16)."""
    described = describe(entry, profile, seats)
    if described.kind is None:
        raw = zero(seats)
        if (
            isinstance(entry, Transcribed)
            and len(entry.points) == seats
            and all(isinstance(v, int) and not isinstance(v, bool) for v in entry.points)
        ):
            raw = tuple(entry.points)
        return Scored(entry, None, raw, described.problems)
    kind = described.kind
    required = False
    if not kind.family.is_sanction and not (isinstance(entry, Game) and entry.invalid_announcement):
        # An invalid announcement ends the game before any approval could be asked for; it is
        # scored as lost whatever the approval (README: readings beyond RULINGS).
        required = needs_approval(kind, entry.number, earlier, profile)
    approved = isinstance(entry, Game | Transcribed) and entry.approved
    struck = required and not approved
    return Scored(
        entry,
        kind,
        zero(seats) if struck else points_of(kind, profile, seats, sitting_out(entry.number, seats)),
        downgraded=described.downgraded,
        needs_approval=required,
        struck=struck,
    )
