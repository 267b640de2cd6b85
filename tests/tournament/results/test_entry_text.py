"""How a game reads on a printed sheet: the usual German short forms."""

import pytest
from django.utils import translation

from tournament.models import GameEntry
from tournament.results.text import contract_short, contract_text, short_entry


@pytest.mark.parametrize(
    ("contract", "suit", "expected"),
    [
        ("rufer", "eichel", "Ei-Sau"),
        ("rufer", "schellen", "Schell-Sau"),
        ("solo", "herz", "Herz-Solo"),
        ("solo_tout", "gras", "Gras-Tout"),
        ("solo", "", "Solo"),  # a sanction may name the contract without its suit
        ("solo_tout", "", "Solo-Tout"),
        ("rufer", "", "Sauspiel"),
        ("wenz", "", "Wenz"),
        ("wenz_tout", "", "Wenz-Tout"),
        ("sie", "", "Sie"),
    ],
)
def test_contract_short_forms(contract, suit, expected):
    assert contract_short(contract, suit) == expected


def test_long_forms_without_a_suit():
    assert contract_text("solo_tout", "") == "Solo-Tout"
    assert contract_text("solo", "herz") == "Herz-Solo"


def entry(**fields):
    return GameEntry(**{"kind": GameEntry.Kind.GAME, "suit": "", "partner": None, **fields})


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            dict(contract="rufer", suit="eichel", declarer=1, partner=3, result="won"),
            ("Ei-Sau", "1 & 3", "gewonnen"),
        ),
        (
            dict(contract="solo", suit="herz", declarer=2, declarer_points=95),
            ("Herz-Solo", "2", "95 Augen"),
        ),
        (
            dict(contract="wenz", declarer=4, result="lost", schneider=True),
            ("Wenz", "4", "verloren Schneider"),
        ),
        (dict(contract="sie", declarer=3), ("Sie", "3", "")),
        (
            dict(
                kind=GameEntry.Kind.SANCTION, contract="rufer", suit="gras", declarer=1, partner=3, liable=2
            ),
            ("Strafe Gras-Sau", "1 & 3", "Platz 2 schuldig"),
        ),
        (
            dict(kind=GameEntry.Kind.TRANSCRIBED, contract="", declarer=2, written=[6, -2, -2, -2]),
            ("Liste", "2", ""),
        ),
    ],
)
def test_short_entries_in_german(fields, expected):
    with translation.override("de"):
        assert short_entry(entry(**fields)) == expected
