"""Hand checks for the supervisor (2.5.1, 2.6.4, 2.9, 4.2.2, 5.2.14)."""

import pytest

from scoring import Code, Contract, Suit
from scoring.cards import Card
from scoring.hands import Criterion, check_hand, runners


def cards(text):
    return [Card.parse(t) for t in text.split()]


def test_sie():
    check = check_hand(["EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU"], Contract.SIE)
    assert check.is_sie and check.problems == ()
    assert check.runners == 8


@pytest.mark.parametrize(
    ("hand", "contract", "suit", "count"),
    [
        ("EO GO HO EU HA S7 S8 G9", Contract.RUFER, Suit.SCHELLEN, 3),
        ("EO GO SO EU GU HU SU HA", Contract.SOLO, Suit.HERZ, 2),
        ("GO HO SO EU GU HU SU HA", Contract.SOLO, Suit.HERZ, 0),
        ("EU GU SU EA E10 GA G10 S7", Contract.WENZ, None, 2),
        ("EO GO HO SO EU GU HU SU", Contract.SOLO, Suit.EICHEL, 8),
    ],
)
def test_runners(hand, contract, suit, count):
    assert runners(cards(hand), contract, suit) == count


def test_solo_tout_meeting_the_requirements():
    check = check_hand(["EO", "GO", "HO", "EU", "HA", "H10", "SA", "GA"], Contract.SOLO_TOUT, Suit.HERZ)
    assert check.requirements_met is True


def test_solo_tout_with_a_loose_side_card():
    check = check_hand(["EO", "GO", "HO", "EU", "HA", "H10", "SA", "G9"], Contract.SOLO_TOUT, Suit.HERZ)
    assert check.requirements_met is False
    side = next(c for c in check.criteria if c.criterion is Criterion.SOLO_TOUT_SIDE_SUITS)
    assert side.failing_suits == (Suit.GRAS,)


def test_solo_tout_with_two_runners():
    check = check_hand(["EO", "GO", "SO", "EU", "HA", "H10", "SA", "S10"], Contract.SOLO_TOUT, Suit.HERZ)
    runners_met = {c.criterion: c.met for c in check.criteria}
    assert runners_met[Criterion.SOLO_TOUT_RUNNERS] is False


@pytest.mark.parametrize(
    ("hand", "met"),
    [
        ("EU GU EA E10 GA G10 SA S10", True),  # two running Unters, Ace/Ten
        ("EU HU SU EA E10 EK GA G10", True),  # three Unters with the Eichel-Unter, A/10/third
        ("GU HU SU EA E10 GA G10 SA", False),  # three Unters without the Eichel-Unter
        ("EU GU EA E10 GA G10 SA S9", False),  # Schellen: Ace without the Ten
    ],
)
def test_wenz_tout_requirements(hand, met):
    assert check_hand(hand.split(), Contract.WENZ_TOUT).requirements_met is met


@pytest.mark.parametrize(
    ("hand", "suit", "code"),
    [
        ("EO GO HO EU EA S7 S8 G9", Suit.EICHEL, Code.CALLED_ACE_HELD),
        ("EO GO HO EU HA S7 S8 G9", Suit.EICHEL, Code.CALLED_SUIT_NOT_HELD),
        ("EO GO HO EU EA GA SA G9", Suit.GRAS, Code.ALL_ACES_HELD),
        ("EO GO HO EU HA S7 S8 G9", Suit.HERZ, Code.CALLED_ACE_HERZ),
    ],
)
def test_called_ace(hand, suit, code):
    assert [p.code for p in check_hand(hand.split(), Contract.RUFER, suit).problems] == [code]


def test_valid_call():
    hand = ["EO", "GO", "HO", "EU", "HA", "S7", "S8", "G9"]
    assert check_hand(hand, Contract.RUFER, Suit.GRAS).problems == ()


def test_solo_trump_suit_must_be_held():
    check = check_hand(["EO", "GO", "HO", "EU", "HA", "H10", "SA", "GA"], Contract.SOLO, Suit.EICHEL)
    assert [p.code for p in check.problems] == [Code.TRUMP_SUIT_NOT_HELD]


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        ("EO GO HO SO EU GU HU", Code.HAND_NOT_EIGHT_CARDS),
        ("EO GO HO SO EU GU HU HU", Code.HAND_CARD_TWICE),
        ("EO GO HO SO EU GU HU X5", Code.HAND_CARD_UNKNOWN),
    ],
)
def test_malformed_hands(hand, code):
    assert [p.code for p in check_hand(hand.split(), Contract.SIE).problems] == [code]


def test_card_notation():
    assert str(Card.parse("s10")) == "S10" == str(Card.parse("SZ"))
    assert Card.parse("ha") == Card(Suit.HERZ, Card.parse("EA").rank)


def test_rufer_check_without_a_call():
    check = check_hand(["EO", "GO", "HO", "EU", "HA", "S7", "S8", "G9"], Contract.RUFER, None)
    assert [p.code for p in check.problems] == [Code.SUIT_MISSING]
    assert check.runners == 3
