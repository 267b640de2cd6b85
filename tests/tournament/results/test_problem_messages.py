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


def test_every_translation_keeps_the_placeholders_of_its_source():
    """A translation with other placeholders breaks the page that shows it."""
    import re
    from pathlib import Path

    po = Path(__file__).resolve().parents[3] / "tournament/locale/de/LC_MESSAGES/django.po"
    blocks = po.read_text(encoding="utf-8").split("\n\n")
    placeholder = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")

    def joined(block, key):
        found = re.search(rf'^{key} ((?:".*"\n?)+)', block + "\n", re.M)
        return "".join(re.findall(r'"(.*)"', found.group(1))) if found else ""

    checked = 0
    for block in blocks:
        if "fuzzy" in block or "msgid_plural" in block:
            continue
        source, target = joined(block, "msgid"), joined(block, "msgstr")
        if source and target:
            assert sorted(placeholder.findall(source)) == sorted(placeholder.findall(target)), (
                source,
                target,
            )
            checked += 1
    assert checked > 300
