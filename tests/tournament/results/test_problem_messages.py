from django.utils import translation

from scoring import Code, Problem
from tournament.problems import MESSAGES, problem_message


def test_every_code_has_a_message():
    assert set(MESSAGES) == set(Code)


def test_every_message_is_translated_into_german():
    with translation.override("en"):
        english = {code: str(text) for code, text in MESSAGES.items()}
    with translation.override("de"):
        untranslated = [code for code, text in MESSAGES.items() if str(text) == english[code]]
    assert untranslated == []


def test_message_names_the_game():
    problem = Problem(Code.CALLED_ACE_HERZ, game=7, field="suit")
    with translation.override("de"):
        assert problem_message(problem) == (
            "Spiel 7: Die Herz-Sau kann nicht gerufen werden: Herz ist beim Sauspiel Trumpf (2.5.1)."
        )
    with translation.override("en"):
        assert problem_message(problem).startswith("Game 7: The Herz-Sau cannot be called")


def test_message_with_values():
    problem = Problem(Code.POINTS_DO_NOT_SUM_TO_ZERO, game=3, value=2)
    with translation.override("de"):
        assert problem_message(problem) == "Spiel 3: Die vier Zahlen ergeben 2, nicht 0."
