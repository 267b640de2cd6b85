"""The referee's short notation: every form reads as meant; what it writes it reads back."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import Code, Contract, Result, Suit
from scoring.notation import NotationError, format_game, format_row, parse_game, parse_row
from tests.scoring.strategies import games

WON, LOST = Result.WON, Result.LOST


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("re13+", dict(contract=Contract.RUFER, suit=Suit.EICHEL, declarer=1, partner=3, result=WON)),
        ("RG24-S", dict(contract=Contract.RUFER, suit=Suit.GRAS, partner=4, result=LOST, schneider=True)),
        ("rs13+x", dict(suit=Suit.SCHELLEN, result=WON, schwarz=True)),
        ("re13 75", dict(declarer_points=75, result=None)),
        ("sh2+", dict(contract=Contract.SOLO, suit=Suit.HERZ, declarer=2, result=WON)),
        ("ss2 95", dict(contract=Contract.SOLO, suit=Suit.SCHELLEN, declarer_points=95)),
        ("w3-s", dict(contract=Contract.WENZ, declarer=3, result=LOST, schneider=True)),
        ("w3 120x", dict(contract=Contract.WENZ, declarer_points=120, schwarz=True)),
        ("tg1+", dict(contract=Contract.SOLO_TOUT, suit=Suit.GRAS, declarer=1, result=WON)),
        ("wt4-", dict(contract=Contract.WENZ_TOUT, declarer=4, result=LOST)),
        ("sie2", dict(contract=Contract.SIE, declarer=2)),
        ("sh2!", dict(contract=Contract.SOLO, invalid_announcement=True, result=None)),
        (" r e 1 3 + ", dict(contract=Contract.RUFER, declarer=1, partner=3, result=WON)),
    ],
)
def test_notation_reads_as_meant(text, expected):
    game = parse_game(text, 7)
    assert game.number == 7
    for key, value in expected.items():
        assert getattr(game, key) == value, key


@pytest.mark.parametrize("text", ["", "re13", "q1+", "sh5+", "re1+", "sie", "w3++", "sh2 1200"])
def test_unreadable_notation(text):
    with pytest.raises(NotationError) as error:
        parse_game(text, 1)
    assert error.value.code.name.startswith("NOTATION_")


@given(st.integers(1, 32).flatmap(games))
def test_what_is_written_reads_back(game):
    """Approvals are the supervisor's records, not part of what the referee types; Schwarz
    decides the level, so a Schneider flag beside it is not written."""
    expected = replace(game, approved=False, schneider=game.schneider and not game.schwarz)
    assert parse_game(format_game(game), game.number) == expected


@pytest.mark.parametrize(
    ("text", "points", "circled"),
    [
        ("6* -2 -2 -2", (6, -2, -2, -2), 1),
        ("(6) -2 -2 -2", (6, -2, -2, -2), 1),
        ("-2 -2 -2 (6)", (-2, -2, -2, 6), 4),
        ("1 -1 1 -1", (1, -1, 1, -1), None),
        ("+9, -3, -3, -3*", (9, -3, -3, -3), 4),
    ],
)
def test_paper_rows(text, points, circled):
    row = parse_row(text, 5)
    assert (row.points, row.declarer) == (points, circled)
    assert parse_row(format_row(row), 5) == row


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("6 -2 -2", Code.POINTS_NOT_FOUR),
        ("6 -2 -2 x", Code.POINTS_NOT_FOUR),
        ("(6 -2 -2 -2", Code.POINTS_NOT_FOUR),
        ("6* -2* -2 -2", Code.ROW_CIRCLED_TWICE),
    ],
)
def test_malformed_paper_rows(text, code):
    with pytest.raises(NotationError) as error:
        parse_row(text, 5)
    assert error.value.code is code


@pytest.mark.parametrize("typed", ["re13٧٥", "re13 ٧٥", "sh2 ９５", "w3 1２0x"])
def test_only_ascii_digits_are_card_points(typed):
    """Digits of other scripts are not card points (issue 13: re13٧٥ counted as 75)."""
    with pytest.raises(NotationError):
        parse_game(typed, 5)


def test_a_paper_row_takes_only_ascii_digits():
    with pytest.raises(NotationError):
        parse_row("٦* -2 -2 -2", 5)


@pytest.mark.parametrize(
    ("typed", "code", "value"),
    [
        ("re13", Code.NOTATION_RESULT_MISSING, None),
        ("re15+", Code.NOTATION_SEAT_UNKNOWN, "5"),
        ("sz2+", Code.NOTATION_SUIT_UNKNOWN, "z"),
        ("s2+", Code.NOTATION_SUIT_MISSING, None),
        ("re1+", Code.NOTATION_PARTNER_MISSING, None),
        ("w7-", Code.NOTATION_SEAT_UNKNOWN, "7"),
        ("sh2", Code.NOTATION_RESULT_MISSING, None),
        ("hallo", Code.NOTATION_UNREADABLE, None),
    ],
)
def test_a_typo_is_told_what_is_wrong(typed, code, value):
    """Issue 14, finding 9: not the generic list of examples, but what is wrong."""
    with pytest.raises(NotationError) as refused:
        parse_game(typed, 5)
    assert (refused.value.code, refused.value.value) == (code, value)
