"""The models' lists of contracts, suits and results are the rules engine's."""

import pytest
from django.core.exceptions import ImproperlyConfigured

import scoring
from tournament.results.models import GameEntry, choices_of


@pytest.mark.parametrize(
    ("choices", "enum"),
    [
        (GameEntry.Contract, scoring.Contract),
        (GameEntry.Suit, scoring.Suit),
        (GameEntry.Result, scoring.Result),
    ],
)
def test_model_choices_are_the_engines_enums(choices, enum):
    assert choices.values == [member.value for member in enum]
    assert all(str(label) for label in choices.labels)


def test_a_member_without_a_label_fails():
    with pytest.raises(ImproperlyConfigured, match="schellen"):
        choices_of(
            scoring.Suit,
            {scoring.Suit.EICHEL: "Eichel", scoring.Suit.GRAS: "Gras", scoring.Suit.HERZ: "Herz"},
        )
