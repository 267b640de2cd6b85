"""What a checked document becomes: the plan ``importer.import_plan`` writes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from scoring.entries import Entry
from scoring.profiles import RuleProfile

from ...results.models import Scoresheet, Seal


@dataclass
class TablePlan:
    match: int
    draw: int
    number: int
    seats: list[int]
    entries: list[Entry]
    approvals: list[dict]  # game, contract, by, username, at, hand, hand_check
    status: str = Scoresheet.Status.OPEN
    scorekeeper: int = 1
    signing: dict = field(default_factory=dict)  # signed_as, digest, lock, void, signatures, corrections
    scan: tuple[str, bytes] | None = None  # suffix, content

    @property
    def approved(self) -> dict[int, str]:
        return {a["game"]: a["contract"] for a in self.approvals}


@dataclass
class DrawPlan:
    """One draw of a match: the current one, or one a redraw discarded."""

    match: int
    draw: int
    seed: str
    drawn_at: datetime.datetime | None
    discarded_at: datetime.datetime | None = None


@dataclass
class Plan:
    name: str
    date: datetime.date
    venue: str
    organiser: str
    slug: str
    profile: RuleProfile
    status: str
    prize_places: int
    retention_until: datetime.date | None
    participants: list[dict]
    substitutions: list[dict]
    draws: list[DrawPlan]
    tables: list[TablePlan]
    lots: list[dict] = field(default_factory=list)
    staff: list[tuple[str, str]] = field(default_factory=list)  # username, role
    log: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what is imported with a caveat
    teams: list[dict] = field(default_factory=list)  # issue 17: name, members (start numbers)
    check_in: bool = False  # issue 17
    prizes: dict | None = None  # issue 17: the prize declaration
    seals: list[Seal] = field(default_factory=list)  # issue 27: the chain, checked, not yet saved

    @property
    def games(self) -> int:
        return sum(len(t.entries) for t in self.tables)

    @property
    def matches(self) -> dict[int, str]:
        """The current draw's seed of each drawn match."""
        return {d.match: d.seed for d in self.draws if d.discarded_at is None}
