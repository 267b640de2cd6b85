"""Team standings (Mannschaftswertung, issue 17): the sum of the members' points, then the sums
of their 5.4.2 counts in the order the individual standings use, then lots.

Built on the individual standings (``standings.compute``): a member's values are his start
number's, so a substitute's points count for the team as they count for the start number
(5.2.11, RULINGS 14), and void sheets and discarded draws count for nothing here as there.

Teams still equal after every count share a rank until the organiser draws lots for them
(``lots.draw_team_lots``, RULINGS 13). The latest ``TeamLotDraw`` decides each group that still
ties exactly as it did when the lot was drawn (the same key, the same teams); a group whose
teams or sums have changed since shares its rank again, as the individual lots do."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.ranking import Key, rank

from ..participants.models import Team
from ..standings import standings
from ..standings.standings import METRICS, StandingRow
from ..tournaments.models import Tournament
from .models import TeamLotDraw


@dataclass
class TeamRow:
    rank: int
    name: str
    values: dict[str, int]
    members: list[StandingRow]  # in the order of the individual standings
    team_id: int = 0
    by_lot: bool = False  # the rank was decided by the team lots

    @property
    def key(self) -> Key:
        return tuple(self.values[m.key] for m in METRICS)


@dataclass
class TeamStandings:
    tournament: Tournament
    rows: list[TeamRow]
    ties: list[list[TeamRow]]  # teams equal in everything, sharing a rank
    lot: TeamLotDraw | None = None
    stale_lot: bool = False  # a lot was drawn, but a tie it decided has changed since


def _member_row(number: int, name: str, club: str) -> StandingRow:
    """A member the individual standings do not list (a reserve player who never sat): zero."""
    return StandingRow(rank=0, number=number, name=name, club=club, values={m.key: 0 for m in METRICS})


def _lot_positions(lot: TeamLotDraw, rows: list[TeamRow]) -> tuple[dict[str, int], bool]:
    """The lot's order by team name (the ranking's ident) for each group that still ties as it
    did: a team deleted, moved or re-scored makes its group stale."""
    by_id, stale = standings.lot_positions(lot.groups, {row.team_id: row.key for row in rows})
    names = {row.team_id: row.name for row in rows}
    return {names[team_id]: index for team_id, index in by_id.items()}, stale


def compute(tournament: Tournament, use_lots: bool = True) -> TeamStandings:
    """The overall team standings, best first; equal teams share a rank, listed by name, until
    lots decide them (``use_lots=False``: the ties as they are without any lot). A team without
    members is not ranked."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("name").values_list("id", "name"))
    if not teams:
        return TeamStandings(tournament, [], [])
    individual = standings.compute(tournament)
    by_number = {row.number: row for row in individual.rows}
    order = {row.number: index for index, row in enumerate(individual.rows)}
    members: dict[int, list[StandingRow]] = {}
    found = (
        tournament.participants.filter(team__isnull=False)
        .order_by("number")
        .values_list("team_id", "number", "name", "club")
    )
    for team_id, number, name, club in found:
        members.setdefault(team_id, []).append(by_number.get(number) or _member_row(number, name, club))
    rows = []
    for team_id, name in teams:
        team_members = sorted(members.get(team_id, []), key=lambda row: order.get(row.number, len(order)))
        if team_members:
            values = {m.key: sum(row.values[m.key] for row in team_members) for m in METRICS}
            rows.append(TeamRow(0, name, values, team_members, team_id))
    lot = TeamLotDraw.objects.filter(tournament=tournament).first() if use_lots else None
    positions, stale = _lot_positions(lot, rows) if lot else ({}, False)
    placed = rank(rows, key=lambda row: row.key, ident=lambda row: row.name, lots=positions)
    ranked = []
    for entry in placed:
        entry.item.rank = entry.rank
        entry.item.by_lot = entry.by_lot
        ranked.append(entry.item)
    groups: dict[int, list[TeamRow]] = {}
    for row in ranked:
        groups.setdefault(row.rank, []).append(row)
    ties = [group for group in groups.values() if len(group) > 1]
    return TeamStandings(tournament, ranked, ties, lot, stale)
