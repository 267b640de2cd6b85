"""Which entries need the supervisor's approval before play (5.2.14, 5.2.16, RULINGS 7)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .entries import Family, Kind
from .profiles import RuleProfile

if TYPE_CHECKING:
    from .outcome import Scored


def soloist_games_before(number: int, earlier: Iterable[Scored]) -> int:
    """Counted entries of contract Solo, Wenz, Solo Tout or Wenz Tout before game ``number``
    at this table in this match. Struck entries and sanctions do not count (RULINGS 7, 8);
    a Sie is not one of these contracts."""
    return sum(
        1
        for scored in earlier
        if scored.number < number
        and scored.counted
        and scored.kind is not None
        and scored.kind.family in (Family.SOLO, Family.TOUT)
    )


def needs_approval(kind: Kind, number: int, earlier: Iterable[Scored], profile: RuleProfile) -> bool:
    """``kind`` is the entry as scored: a Tout in game 1 is already a plain Solo there
    (RULINGS 6) and needs no approval for being a Tout."""
    if kind.family in (Family.SIE, Family.TOUT):
        return True  # 5.2.14
    if kind.family is Family.SOLO:
        # 5.2.16: from the n-th Solo or Wenz of the match on (official: the 5th).
        return soloist_games_before(number, earlier) >= profile.solo_approval_from - 1
    return False
