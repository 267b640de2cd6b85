"""Drawing lots for participants still equal after 5.4.2 (RULINGS 13)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.ranking import draw_lots as draw_order
from scoring.ranking import new_seed

from ..errors import ServiceError
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from ..tournaments.prize_places import prize_places
from . import standings
from .models import LotDraw


@transaction.atomic
def draw_lots(
    user,
    tournament: Tournament,
    match: int | None = None,
    prize_places_only: bool = False,
    seed: str | None = None,
) -> LotDraw:
    """Decide the order of every tied group (or those touching the prize places) by lot. The
    seed is stored and shown; the same seed and the same ties give the same order."""
    require(user, tournament, Perm.DRAW_LOTS)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if match is not None and not tournament.matches.filter(number=match).exists():
        raise ServiceError(
            _("Match %(match)s does not exist: the tournament has %(count)s matches.")
            % {"match": match, "count": tournament.matches.count()}
        )
    # The ties as they stand without any lot: a new draw replaces the earlier one.
    ties = standings.compute(tournament, match, use_lots=False).ties
    if prize_places_only:
        prized = prize_places(tournament)  # the declared places, or the setting (issue 28)
        ties = [group for group in ties if prized.touches(group[0].rank, group[0].rank + len(group) - 1)]
    if not ties:
        raise ServiceError(_("There is no tie to decide by lot."))
    seed = (seed or "").strip() or new_seed()
    groups = [
        {
            "key": list(group[0].key),
            "rank": group[0].rank,
            "members": draw_order([row.number for row in group], seed),
        }
        for group in ties
    ]
    lot = LotDraw.objects.create(
        tournament=tournament,
        match=match,
        seed=seed,
        prize_places_only=prize_places_only,
        groups=groups,
        drawn_by=user if getattr(user, "pk", None) else None,
    )
    record(tournament, user, "lots.draw", match=match, seed=seed, groups=[g["members"] for g in groups])
    return lot
