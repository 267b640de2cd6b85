"""Hand checks for the supervisor: from eight cards and a contract, is it a Sie (2.9), how many
runners (4.2.2), does a Tout hand meet the stated requirements (5.2.14), may this Ace be called
(2.5.1, 2.5.3), is the trump suit held (2.6.4). Advice only: the supervisor decides."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .cards import (
    CALLABLE_ACES,
    SIDE_SUIT_ORDER,
    WENZ_SIDE_SUIT_ORDER,
    Card,
    Contract,
    Rank,
    Suit,
    trumps,
)
from .problems import Code, Problem


class Criterion(StrEnum):
    SOLO_TOUT_RUNNERS = "solo_tout_runners"  # at least 3 runners
    SOLO_TOUT_SIDE_SUITS = "solo_tout_side_suits"  # side suits only Aces or Ace/Ten
    WENZ_TOUT_UNTERS = "wenz_tout_unters"  # 2 running Unters, or 3 Unters with the Eichel-Unter
    WENZ_TOUT_SIDE_SUITS = "wenz_tout_side_suits"  # side suits Ace/Ten (and a third card)


@dataclass(frozen=True)
class CriterionResult:
    criterion: Criterion
    met: bool
    failing_suits: tuple[Suit, ...] = ()


@dataclass(frozen=True)
class HandCheck:
    cards: tuple[Card, ...]
    contract: Contract
    suit: Suit | None
    is_sie: bool
    runners: int
    criteria: tuple[CriterionResult, ...]
    problems: tuple[Problem, ...]

    @property
    def requirements_met(self) -> bool | None:
        """For a Tout: whether every criterion of 5.2.14 is met; otherwise None."""
        if not self.criteria:
            return None
        return all(c.met for c in self.criteria)


def parse_hand(tokens: Iterable[str]) -> tuple[tuple[Card, ...], tuple[Problem, ...]]:
    cards: list[Card] = []
    problems: list[Problem] = []
    for token in tokens:
        try:
            card = Card.parse(token)
        except ValueError:
            problems.append(Problem(Code.HAND_CARD_UNKNOWN, value=token))
            continue
        if card in cards:
            problems.append(Problem(Code.HAND_CARD_TWICE, value=str(card)))
        cards.append(card)
    if len(cards) != 8 and not problems:
        problems.append(Problem(Code.HAND_NOT_EIGHT_CARDS, value=len(cards)))
    return tuple(cards), tuple(problems)


def is_sie(cards: Iterable[Card]) -> bool:
    """All four Obers and all four Unters (2.9.1)."""
    lords = {c for c in cards if c.rank in (Rank.OBER, Rank.UNTER)}
    return len(lords) == 8


def runners(cards: Iterable[Card], contract: Contract, suit: Suit | None = None) -> int:
    """Trumps held in an unbroken sequence from the highest down (4.2.2)."""
    held = set(cards)
    count = 0
    for trump in trumps(contract, suit):
        if trump not in held:
            break
        count += 1
    return count


def _side_suits(cards: Iterable[Card], contract: Contract, suit: Suit | None) -> dict[Suit, list[Card]]:
    trump_cards = set(trumps(contract, suit))
    holdings: dict[Suit, list[Card]] = {}
    for card in cards:
        if card not in trump_cards:
            holdings.setdefault(card.suit, []).append(card)
    return holdings


def _top_sequence(holding: list[Card], order: tuple[Rank, ...]) -> bool:
    """The holding is the Ace and the cards directly below it, nothing else."""
    ranks = {card.rank for card in holding}
    return ranks == set(order[: len(ranks)])


def _solo_tout_criteria(cards: tuple[Card, ...], suit: Suit | None) -> tuple[CriterionResult, ...]:
    # 5.2.14: at least 3 runners with either Aces or Ace/Ten combinations in a side suit.
    failing = tuple(
        s
        for s, holding in sorted(_side_suits(cards, Contract.SOLO_TOUT, suit).items())
        if not _top_sequence(holding, SIDE_SUIT_ORDER) or len(holding) > 2
    )
    return (
        CriterionResult(Criterion.SOLO_TOUT_RUNNERS, runners(cards, Contract.SOLO_TOUT, suit) >= 3),
        CriterionResult(Criterion.SOLO_TOUT_SIDE_SUITS, not failing, failing),
    )


def _wenz_tout_criteria(cards: tuple[Card, ...]) -> tuple[CriterionResult, ...]:
    # 5.2.14: at least 2 running Unters or 3 Unters including the Unter of Acorns; the other
    # cards combinations of at least Ace/Ten, or Ace/Ten and a third card of the same suit.
    unters = {c.suit for c in cards if c.rank is Rank.UNTER}
    unters_ok = runners(cards, Contract.WENZ_TOUT) >= 2 or (len(unters) >= 3 and Suit.EICHEL in unters)
    failing = []
    for s, holding in sorted(_side_suits(cards, Contract.WENZ_TOUT, None).items()):
        ranks = {card.rank for card in holding}
        ace_ten = {Rank.ASS, Rank.ZEHN} <= ranks
        if not ace_ten or (len(holding) > 3 and not _top_sequence(holding, WENZ_SIDE_SUIT_ORDER)):
            failing.append(s)
    return (
        CriterionResult(Criterion.WENZ_TOUT_UNTERS, unters_ok),
        CriterionResult(Criterion.WENZ_TOUT_SIDE_SUITS, not failing, tuple(failing)),
    )


def called_ace_problems(cards: Iterable[Card], suit: Suit | None) -> list[Problem]:
    """May the holder of these cards call the Ace of ``suit`` in a Rufer (2.5.1, 2.5.3)?"""
    held = set(cards)
    aces = {Card(s, Rank.ASS) for s in CALLABLE_ACES}
    if aces <= held:
        return [Problem(Code.ALL_ACES_HELD)]
    if suit is None:
        return [Problem(Code.SUIT_MISSING, field="suit")]
    if suit not in CALLABLE_ACES:
        return [Problem(Code.CALLED_ACE_HERZ, field="suit")]
    if Card(suit, Rank.ASS) in held:
        return [Problem(Code.CALLED_ACE_HELD, field="suit")]
    if not any(c.suit is suit and c.rank not in (Rank.OBER, Rank.UNTER) for c in held):
        return [Problem(Code.CALLED_SUIT_NOT_HELD, field="suit")]
    return []


def check_hand(tokens: Iterable[str], contract: Contract, suit: Suit | None = None) -> HandCheck:
    cards, problems = parse_hand(tokens)
    found = list(problems)
    criteria: tuple[CriterionResult, ...] = ()
    count = 0
    if contract in (Contract.SOLO, Contract.SOLO_TOUT) and suit is None:
        found.append(Problem(Code.SUIT_MISSING, field="suit"))
    if not found:
        count = runners(cards, contract, suit)  # a Rufer's trumps do not depend on the call
        if contract is Contract.SOLO_TOUT:
            criteria = _solo_tout_criteria(cards, suit)
        elif contract is Contract.WENZ_TOUT:
            criteria = _wenz_tout_criteria(cards)
        elif contract is Contract.RUFER:
            found += called_ace_problems(cards, suit)
        if (
            contract in (Contract.SOLO, Contract.SOLO_TOUT)
            and suit is not None
            and not any(c.suit is suit and c.rank not in (Rank.OBER, Rank.UNTER) for c in cards)
        ):
            found.append(Problem(Code.TRUMP_SUIT_NOT_HELD, field="suit"))  # 2.6.4
    return HandCheck(
        cards=cards,
        contract=contract,
        suit=suit,
        is_sie=not problems and is_sie(cards),
        runners=count,
        criteria=criteria,
        problems=tuple(found),
    )
