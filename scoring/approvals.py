"""Which entries need the supervisor's approval before play (5.2.14, 5.2.16, RULINGS 7)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol

from .cards import Contract, Suit
from .describe import describe_game
from .entries import Entry, Family, Game, Kind, Result, Transcribed, family_of, playing
from .problems import Problem
from .profiles import RuleProfile
from .transcription import transcribe


class Scored(Protocol):
    """What the count reads of an earlier entry as scored (``outcome.Scored``, which asks this
    module whether an entry needs approval: a protocol, not an import back)."""

    @property
    def number(self) -> int: ...

    @property
    def counted(self) -> bool: ...

    @property
    def kind(self) -> Kind | None: ...


def soloist_games_before(number: int, earlier: Iterable[Scored]) -> int:
    """Counted entries of contract Solo, Wenz, Solo Tout or Wenz Tout before game ``number``
    at this table in this match, whether it seats four or five (5.2.16). Struck entries and
    sanctions do not count (RULINGS 7, 8); a Sie is not one of these contracts."""
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
    if kind.family is Family.SOLO:
        return _needed(kind, soloist_games_before(number, earlier), profile)
    return _needed(kind, 0, profile)


def _needed(kind: Kind, soloists: int, profile: RuleProfile) -> bool:
    if kind.family in (Family.SIE, Family.TOUT):
        return True  # 5.2.14
    if kind.family is Family.SOLO:
        # 5.2.16: from the n-th Solo or Wenz of the match on (official: the 5th).
        return soloists >= profile.solo_approval_from - 1
    return False


class Need(StrEnum):
    """What a contract announced for a game asks of the table before it is played."""

    NONE = "none"  # play it: no approval needed (a Sauspiel; a Tout in game 1, RULINGS 6)
    APPROVAL = "approval"  # the supervisor approves it first (5.2.14, 5.2.16)
    REFUSED = "refused"  # it cannot count in this game (a Sie in game 1, RULINGS 5)


def approval_need(
    contract: Contract, number: int, soloists: int, profile: RuleProfile, seats: int = 4
) -> tuple[Need, Problem | None]:
    """What announcing ``contract`` for game ``number`` asks of the table, with ``soloists``
    counted Solo/Wenz/Tout games before it (RULINGS 7): the game is described as the engine
    scores it (a Tout in game 1 is a plain Solo there, RULINGS 6), and one the engine refuses
    (a Sie in game 1, RULINGS 5) is refused before anyone is called, with the problem why."""
    players = playing(number, seats)
    suit = Suit.EICHEL if contract is Contract.RUFER else Suit.HERZ if contract in SUITED else None
    partner = players[1] if contract is Contract.RUFER else None
    game = Game(number, contract, players[0], suit=suit, partner=partner, result=Result.WON)
    described = describe_game(game, profile, seats)
    if described.kind is None:
        return Need.REFUSED, described.problems[0]
    return (Need.APPROVAL if _needed(described.kind, soloists, profile) else Need.NONE), None


SUITED = (Contract.SOLO, Contract.SOLO_TOUT)


# The contract an approval of a paper row names: one that scores as the row does.
ROW_APPROVAL = {Family.SOLO: Contract.SOLO, Family.TOUT: Contract.SOLO_TOUT, Family.SIE: Contract.SIE}


def approval_covers(contract: Contract, entry: Entry, profile: RuleProfile, seats: int = 4) -> bool:
    """Whether the supervisor's approval of ``contract`` for the entry's game number covers the
    entry: a described game only by an approval of its own contract (an approved Solo-Tout does
    not cover a Wenz-Tout), a paper-list row by one whose contract scores as the row does (a
    Tout row by a Solo-Tout or Wenz-Tout approval). A sanction is never approved."""
    if isinstance(entry, Game):
        return contract is entry.contract
    if isinstance(entry, Transcribed):
        kind = transcribe(entry, profile, seats).kind
        return kind is not None and family_of(contract) is kind.family
    return False


def approval_contract(entry: Entry, profile: RuleProfile, seats: int = 4) -> Contract | None:
    """The contract an approval of this entry names, or None where none is ever needed (a
    Sauspiel, a sanction, a row that reads as neither Solo, Tout nor Sie)."""
    if isinstance(entry, Game):
        return None if entry.contract is Contract.RUFER else entry.contract
    if isinstance(entry, Transcribed):
        kind = transcribe(entry, profile, seats).kind
        return ROW_APPROVAL.get(kind.family) if kind is not None else None
    return None
