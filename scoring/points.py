"""Points of a kind of entry under a profile (5.2.7 and RULINGS 3; 3.4.17 and RULINGS 9)."""

from __future__ import annotations

from .entries import SEATS, Family, Kind, Points
from .profiles import RuleProfile


def _soloist(declarer: int, won: bool, pair: tuple[int, int]) -> Points:
    declarer_value, defender_value = pair
    sign = 1 if won else -1
    return tuple(  # type: ignore[return-value]
        sign * declarer_value if seat == declarer else -sign * defender_value for seat in SEATS
    )


def _sanction(kind: Kind, liable_value: int) -> Points:
    """Solo or Tout sanction: a liable declarer pays each defender a third; a liable defender
    pays the declarer everything, the other two defenders get 0 (3.4.17)."""
    assert kind.liable is not None and kind.declarer is not None
    if kind.liable == kind.declarer:
        share = liable_value // 3
        return tuple(  # type: ignore[return-value]
            -liable_value if seat == kind.liable else share for seat in SEATS
        )
    return tuple(  # type: ignore[return-value]
        -liable_value if seat == kind.liable else liable_value if seat == kind.declarer else 0
        for seat in SEATS
    )


def points_of(kind: Kind, profile: RuleProfile) -> Points:
    """The points of seats 1–4 for one entry of this kind. Every result sums to zero."""
    table = profile.points
    match kind.family:
        case Family.RUFER:
            value = table.rufer[kind.level]
            return tuple(  # type: ignore[return-value]
                value if seat in kind.winners else -value for seat in SEATS
            )
        case Family.SOLO:
            assert kind.declarer is not None and kind.won is not None
            return _soloist(kind.declarer, kind.won, table.solo[kind.level])
        case Family.TOUT:
            assert kind.declarer is not None and kind.won is not None
            return _soloist(kind.declarer, kind.won, table.tout)
        case Family.SIE:
            assert kind.declarer is not None
            return _soloist(kind.declarer, True, table.sie)  # 2.9: always won
        case Family.SANCTION_RUFER:
            # 3.4.17: the liable player -4, his two opponents +2 each, his partner 0.
            liable_value, opponent_value = profile.sanctions.rufer
            return tuple(  # type: ignore[return-value]
                -liable_value if seat == kind.liable else 0 if seat == kind.liable_partner else opponent_value
                for seat in SEATS
            )
        case Family.SANCTION_SOLO:
            return _sanction(kind, profile.sanctions.solo)
        case Family.SANCTION_TOUT:
            return _sanction(kind, profile.sanctions.tout)
    raise ValueError(kind)
