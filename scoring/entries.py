"""What a referee writes down for one game number, and what kind of entry it turns out to be.

Three ways to write a game number (EXCHANGE.md, fields of a game):
- ``Game``: the described game (contract, declarer, result or card points …);
- ``Sanction``: a sanction that replaced the game (3.4.17, RULINGS 9);
- ``Transcribed``: the numbers copied from the paper list, one per seat (RULINGS 12).

All three are reduced to a ``Kind``: the scoring-relevant facts of the entry. Two entries of the
same kind score the same points, and transcription recognises kinds.

A table has four seats, or five where the dealer sits out the game he dealt (tables of five,
README readings): four players play every game either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from .cards import Contract, Suit

SEATS: tuple[int, int, int, int] = (1, 2, 3, 4)
TABLE_SIZES = (4, 5)

Points = tuple[int, ...]  # one number per seat, in seat order


def seats_of(count: int) -> tuple[int, ...]:
    """The seats of a table of ``count``: 1–4, or 1–5 at a table of five."""
    if count not in TABLE_SIZES:
        raise ValueError(f"a table has 4 or 5 seats, not {count}")
    return tuple(range(1, count + 1))


def zero(count: int) -> Points:
    return (0,) * len(seats_of(count))


def dealer(game_number: int, seats: int = 4) -> int:
    """Seat 1 deals game 1, then clockwise (2.2.2, RULINGS 1; at five: README readings)."""
    return (game_number - 1) % len(seats_of(seats)) + 1


def round_of(game_number: int, seats: int = 4) -> int:
    """Each seat deals once a round: games 1–4 are round 1 (2.4.15), at five games 1–5."""
    return (game_number - 1) // len(seats_of(seats)) + 1


def sitting_out(game_number: int, seats: int = 4) -> int | None:
    """The seat that does not play game ``game_number``: at a table of five its dealer, who
    scores 0 and may not be declarer, partner or liable (tables of five, README readings)."""
    return dealer(game_number, seats) if seats == 5 else None


def playing(game_number: int, seats: int = 4) -> tuple[int, ...]:
    """The four seats that play game ``game_number``."""
    out = sitting_out(game_number, seats)
    return tuple(seat for seat in seats_of(seats) if seat != out)


class Result(StrEnum):
    WON = "won"
    LOST = "lost"


class Level(IntEnum):
    """Normal, Schneider (4.1.3) or Schwarz (4.1.4)."""

    NORMAL = 0
    SCHNEIDER = 1
    SCHWARZ = 2


class Family(StrEnum):
    """How an entry is scored. Solo and Wenz score alike, as do Solo Tout and Wenz Tout
    (5.2.7), so a paper list cannot tell them apart and neither does the kind."""

    RUFER = "rufer"
    SOLO = "solo"  # Solo or Wenz
    TOUT = "tout"  # Solo Tout or Wenz Tout
    SIE = "sie"
    SANCTION_RUFER = "sanction_rufer"
    SANCTION_SOLO = "sanction_solo"
    SANCTION_TOUT = "sanction_tout"

    @property
    def is_sanction(self) -> bool:
        return self.name.startswith("SANCTION_")

    @property
    def is_soloist(self) -> bool:
        return self in (Family.SOLO, Family.TOUT, Family.SIE)


def family_of(contract: Contract) -> Family:
    if contract is Contract.RUFER:
        return Family.RUFER
    if contract in (Contract.SOLO, Contract.WENZ):
        return Family.SOLO
    if contract.is_tout:
        return Family.TOUT
    return Family.SIE


def sanction_family_of(contract: Contract) -> Family | None:
    """The sanction table row for the contract being played (RULINGS 9); a Sie has none."""
    return {
        Family.RUFER: Family.SANCTION_RUFER,
        Family.SOLO: Family.SANCTION_SOLO,
        Family.TOUT: Family.SANCTION_TOUT,
    }.get(family_of(contract))


@dataclass(frozen=True)
class Kind:
    """The facts that decide the points of an entry.

    - Rufer: ``level`` and ``winners`` (the two seats that scored plus; which of them declared
      does not change the points).
    - Solo, Tout, Sie: ``declarer``, ``won`` and (Solo only) ``level``.
    - Sanctions: ``liable``; Rufer: ``liable_partner`` (who gets 0); Solo/Tout: ``declarer``.
    """

    family: Family
    level: Level = Level.NORMAL
    won: bool | None = None
    declarer: int | None = None
    winners: frozenset[int] = frozenset()
    liable: int | None = None
    liable_partner: int | None = None


@dataclass(frozen=True)
class Game:
    """A described game (EXCHANGE.md). Either ``result`` (with ``schneider``/``schwarz``) or
    ``declarer_points`` (0–120, with ``schwarz``) says how it ended (RULINGS 4)."""

    number: int
    contract: Contract
    declarer: int
    suit: Suit | None = None
    partner: int | None = None
    result: Result | None = None
    schneider: bool = False
    schwarz: bool = False
    declarer_points: int | None = None
    invalid_announcement: bool = False  # RULINGS 10
    approved: bool = False  # RULINGS 7

    def __post_init__(self) -> None:
        # Names as in the exchange format ("solo", "won") become enums; a wrong name raises
        # ValueError here instead of scoring with the wrong sign later.
        object.__setattr__(self, "contract", Contract(self.contract))
        if self.suit is not None:
            object.__setattr__(self, "suit", Suit(self.suit))
        if self.result is not None:
            object.__setattr__(self, "result", Result(self.result))


@dataclass(frozen=True)
class Sanction:
    """A sanction that replaced game ``number`` (3.4.17). ``liable`` is the infringer, or under
    3.4.18 the player who revealed his cards (RULINGS 9)."""

    number: int
    contract: Contract
    declarer: int
    liable: int
    partner: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "contract", Contract(self.contract))


@dataclass(frozen=True)
class Transcribed:
    """The numbers of a paper-list row in seat order (four, or five with the sitting-out
    dealer's 0), and the circled seat if the row holds a soloist's circled number (RULINGS 12,
    5.3.3)."""

    number: int
    points: tuple[int, ...]
    declarer: int | None = None
    approved: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", tuple(self.points))


Entry = Game | Sanction | Transcribed
