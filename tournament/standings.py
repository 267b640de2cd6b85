"""Standings: points, then the 5.4.2 tie-break, then lots (5.4.1, RULINGS 13).

One definition, the ordered list of metrics, feeds the pages, the ``standings`` command and the
exports. The numbers come from one aggregation over the seats, which the scoresheet service
keeps up to date; void scoresheets count for nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from scoring.ranking import CRITERIA, Key, rank

from .models import LotDraw, Participant, Scoresheet, Substitution, Tournament


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    short: str


# 5.4.1 and 5.4.2 a-e, in their order of precedence.
METRICS: tuple[Metric, ...] = (
    Metric("points", _("Points"), _("Pts.")),
    Metric("sie", _("Sie played"), _("Sie")),
    Metric("tout_won", _("Touts won"), _("Tout won")),
    Metric("tout_played", _("Touts played"), _("Tout pl.")),
    Metric("solo_won", _("Solos/Wenz won"), _("Solo won")),
    Metric("solo_played", _("Solos/Wenz played"), _("Solo pl.")),
)
assert tuple(m.key for m in METRICS) == CRITERIA


@dataclass
class StandingRow:
    rank: int
    participant: Participant
    values: dict[str, int]
    by_lot: bool = False

    @property
    def key(self) -> Key:
        return tuple(self.values[m.key] for m in METRICS)

    @property
    def number(self) -> int:
        return self.participant.number

    @property
    def name(self) -> str:
        return self.participant.name

    @property
    def substitutes(self) -> list[Substitution]:
        return list(self.participant.substitutions.all())


@dataclass
class Standings:
    tournament: Tournament
    match: int | None
    rows: list[StandingRow]
    lot: LotDraw | None = None
    stale_lot: bool = False  # a lot was drawn, but the tie it decided has changed since
    ties: list[list[StandingRow]] = field(default_factory=list)

    def row(self, number: int) -> StandingRow | None:
        return next((row for row in self.rows if row.number == number), None)


def _participants(tournament: Tournament, match: int | None):
    counted = Q(seats__table__scoresheet__status__in=[Scoresheet.Status.OPEN, Scoresheet.Status.COMPLETE])
    seated = Q(seats__isnull=False)
    if match is not None:
        counted &= Q(seats__match__number=match)
        seated &= Q(seats__match__number=match)
    sums = {m.key: Coalesce(Sum(f"seats__{m.key}", filter=counted), 0) for m in METRICS}
    return (
        tournament.participants.annotate(**sums, seated=Count("seats", filter=seated))
        .prefetch_related(
            Prefetch("substitutions", queryset=Substitution.objects.order_by("from_match", "from_game"))
        )
        .order_by("number")
    )


def tie_groups(rows: Sequence[StandingRow]) -> list[list[StandingRow]]:
    """Participants sharing a rank, in standings order."""
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.rank, []).append(row)
    return [group for group in groups.values() if len(group) > 1]


def _lot_positions(lot: LotDraw, keyed: dict[int, Key]) -> tuple[dict[int, int], bool]:
    """The lot's order for each group that still ties exactly as it did when it was drawn."""
    positions: dict[int, int] = {}
    stale = False
    members_by_key: dict[Key, list[int]] = {}
    for number, key in keyed.items():
        members_by_key.setdefault(key, []).append(number)
    for group in lot.groups:
        key, members = tuple(group["key"]), group["members"]
        if sorted(members_by_key.get(key, [])) != sorted(members):
            stale = True
            continue
        positions.update({number: index for index, number in enumerate(members)})
    return positions, stale


def compute(tournament: Tournament, match: int | None = None, use_lots: bool = True) -> Standings:
    """Overall standings, or those of one match (5.4.1): best first, with shared ranks until
    lots are drawn (RULINGS 13)."""
    participants = [
        p
        for p in _participants(tournament, match)
        if p.seated or (match is None and p.status == Participant.Status.ACTIVE)
    ]
    values = {p.number: {m.key: getattr(p, m.key) for m in METRICS} for p in participants}
    keyed = {number: tuple(v[m.key] for m in METRICS) for number, v in values.items()}
    lot = LotDraw.objects.filter(tournament=tournament, match=match).first() if use_lots else None
    positions, stale = _lot_positions(lot, keyed) if lot else ({}, False)
    placed = rank(participants, key=lambda p: keyed[p.number], ident=lambda p: p.number, lots=positions)
    rows = [StandingRow(p.rank, p.item, values[p.item.number], p.by_lot) for p in placed]
    return Standings(tournament, match, rows, lot, stale, tie_groups(rows))
