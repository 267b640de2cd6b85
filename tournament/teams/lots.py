"""Drawing lots for teams still equal after the sums of points and of the 5.4.2 counts
(issue 17, RULINGS 13), as ``standings.lots`` does for participants."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.ranking import draw_lots as draw_order
from scoring.ranking import new_seed

from ..errors import ServiceError
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from . import standings as team_standings
from .models import TeamLotDraw


@transaction.atomic
def draw_team_lots(user, tournament: Tournament, seed: str | None = None) -> TeamLotDraw:
    """Decide the order of every group of tied teams by lot. The lot is drawn over the teams'
    names, so that anyone can check it from the seed shown: the same seed and the same tied
    teams give the same order. A new draw replaces the earlier one."""
    require(user, tournament, Perm.DRAW_LOTS)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    ties = team_standings.compute(tournament, use_lots=False).ties
    if not ties:
        raise ServiceError(
            _("No teams are equal after their points and 5.4.2 counts: there is nothing to decide by lot.")
        )
    seed = (seed or "").strip() or new_seed()
    if len(seed) > 64 or "\x00" in seed:
        raise ServiceError(_("A seed is at most %(limit)s characters.") % {"limit": 64})
    groups = []
    for group in ties:
        ids = {row.name: row.team_id for row in group}
        order = draw_order(list(ids), seed)
        groups.append({"key": list(group[0].key), "rank": group[0].rank, "members": [ids[n] for n in order]})
    lot = TeamLotDraw.objects.create(
        tournament=tournament,
        seed=seed,
        groups=groups,
        drawn_by=user if getattr(user, "pk", None) else None,
    )
    names = {row.team_id: row.name for group in ties for row in group}
    record(
        tournament,
        user,
        "lots.draw",
        teams=True,
        seed=seed,
        groups=[[names[team_id] for team_id in g["members"]] for g in groups],
    )
    return lot
