"""The team standings as a worksheet of the tournament's workbook (issue 17)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..standings.standings import METRICS
from ..tournaments.models import Tournament
from . import standings as team_standings


def team_worksheets(tournament: Tournament) -> list[tuple[str, list, list]]:
    """The "Teams" worksheet (Mannschaften): one row per team, then a row per member with his
    own values; none when the tournament has no team with members. When lots decided a tie of
    teams, a last column "decided by lot" marks the teams they placed."""
    result = team_standings.compute(tournament)
    if not result.rows:
        return []
    by_lot = any(row.by_lot for row in result.rows)
    header = [_("Rank"), _("Team"), _("No."), _("Name"), *(str(m.label) for m in METRICS)]
    if by_lot:
        header.append(_("decided by lot"))
    rows: list[list] = []
    for row in result.rows:
        rows.append([row.rank, row.name, "", "", *(row.values[m.key] for m in METRICS)])
        if by_lot:
            rows[-1].append(_("yes") if row.by_lot else "")
        rows += [
            ["", "", member.number, member.name, *(member.values[m.key] for m in METRICS)]
            for member in row.members
        ]
    return [(_("Teams"), header, rows)]
