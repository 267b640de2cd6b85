"""Points of a kind of entry under a profile (5.2.7 and RULINGS 3; 3.4.17 and RULINGS 9).

Four players play every game. At a table of five the dealer sits out the game he dealt: he
scores 0, and the tables apply to the four others as at a table of four (tables of five, README
readings)."""

from __future__ import annotations

from collections.abc import Sequence

from .entries import Family, Kind, Points, seats_of
from .profiles import RuleProfile


def _soloist(declarer: int, won: bool, pair: tuple[int, int], players: Sequence[int]) -> list[int]:
    declarer_value, defender_value = pair
    sign = 1 if won else -1
    return [sign * declarer_value if seat == declarer else -sign * defender_value for seat in players]


def _sanction(kind: Kind, liable_value: int, players: Sequence[int]) -> list[int]:
    """Solo or Tout sanction: a liable declarer pays each defender a third; a liable defender
    pays the declarer everything, the other two defenders get 0 (3.4.17)."""
    assert kind.liable is not None and kind.declarer is not None
    if kind.liable == kind.declarer:
        share = liable_value // 3
        return [-liable_value if seat == kind.liable else share for seat in players]
    return [
        -liable_value if seat == kind.liable else liable_value if seat == kind.declarer else 0
        for seat in players
    ]


def _points_of_players(kind: Kind, profile: RuleProfile, players: Sequence[int]) -> list[int]:
    table = profile.points
    match kind.family:
        case Family.RUFER:
            value = table.rufer[kind.level]
            return [value if seat in kind.winners else -value for seat in players]
        case Family.SOLO:
            assert kind.declarer is not None and kind.won is not None
            return _soloist(kind.declarer, kind.won, table.solo[kind.level], players)
        case Family.TOUT:
            assert kind.declarer is not None and kind.won is not None
            return _soloist(kind.declarer, kind.won, table.tout, players)
        case Family.SIE:
            assert kind.declarer is not None
            return _soloist(kind.declarer, True, table.sie, players)  # 2.9: always won
        case Family.SANCTION_RUFER:
            # 3.4.17: the liable player -4, his two opponents +2 each, his partner 0.
            liable_value, opponent_value = profile.sanctions.rufer
            return [
                -liable_value if seat == kind.liable else 0 if seat == kind.liable_partner else opponent_value
                for seat in players
            ]
        case Family.SANCTION_SOLO:
            return _sanction(kind, profile.sanctions.solo, players)
        case Family.SANCTION_TOUT:
            return _sanction(kind, profile.sanctions.tout, players)
    raise ValueError(kind)


def points_of(kind: Kind, profile: RuleProfile, seats: int = 4, out: int | None = None) -> Points:
    """The points of every seat of a table of ``seats`` for one entry of this kind; ``out`` is
    the seat that sits out (at five the dealer: 0 points, nobody's opponent). Every result sums
    to zero."""
    players = [seat for seat in seats_of(seats) if seat != out]
    if len(players) != 4:
        raise ValueError(f"four players play a game, not {len(players)}")
    by_seat = dict(zip(players, _points_of_players(kind, profile, players), strict=True))
    return tuple(by_seat.get(seat, 0) for seat in seats_of(seats))
