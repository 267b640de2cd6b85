"""One log: every service writes its entries through ``audit.record``, and every action has a
label in both languages."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

from tournament.results import substitutes
from tournament.tournaments.audit import record
from tournament.tournaments.models import ACTIONS, LogEntry

SOURCE = Path(__file__).resolve().parents[3] / "tournament"


def recorded_actions() -> set[str]:
    """The action of every ``record(…)`` and ``record_sheet(…)`` call in the app's code (but
    ``record_sheet``'s and ``rewrite``'s own calls of ``record``, which pass their action on),
    and every ``action=`` a write hands ``results.writing.rewrite``."""
    found = set()
    for path in SOURCE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            passed_on = isinstance(node, ast.Call) and node.args[2:3] and isinstance(node.args[2], ast.Name)
            if path.name in ("audit.py", "writing.py") and passed_on:
                continue
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "rewrite":
                for keyword in node.keywords:
                    if keyword.arg == "action":
                        found |= {
                            value.value
                            for value in ast.walk(keyword.value)
                            if isinstance(value, ast.Constant) and isinstance(value.value, str)
                        }
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("record", "record_sheet"):
                action = node.args[2]
                assert isinstance(action, ast.Constant | ast.IfExp), f"{path}:{node.lineno}"
                values = [action] if isinstance(action, ast.Constant) else [action.body, action.orelse]
                found |= {value.value for value in values}
    return found


def test_every_recorded_action_has_a_label():
    actions = recorded_actions()
    assert len(actions) >= 15
    assert actions <= set(ACTIONS), actions - set(ACTIONS)


def test_every_label_is_translated():
    with translation.override("en"):
        english = {action: str(declared.label) for action, declared in ACTIONS.items()}
    with translation.override("de"):
        assert [a for a, declared in ACTIONS.items() if str(declared.label) == english[a]] == []


@pytest.mark.django_db
def test_an_action_without_a_label_is_refused(tournament, organiser):
    with pytest.raises(ValueError, match="ACTIONS"):
        record(tournament, organiser, "sheet.burnt")
    assert not LogEntry.objects.exists()
    entry = record(tournament, organiser, "tournament.update", before={}, after={})
    assert (entry.user, entry.user_name, entry.label) == (organiser, "orga", "Turnier geändert")


def test_a_substitution_and_a_signature_read_whole_and_once(played, organiser, referee, sheet_of, sign):
    """Walk of issue 14: the history named no substitute, and a signature's name twice."""
    from tournament.models import LogEntry, Participant
    from tournament.results.history import log_change

    drawn = played
    player = Participant.objects.get(tournament=drawn, number=3)
    substitutes.substitute(organiser, player, "Kainz, Schorsch", 2, 32)
    line = LogEntry.objects.get(action="participant.substitute")
    assert f"Kainz, Schorsch für {player.name} ab Durchgang 2, Spiel 32" in line.summary
    sheet = sign(referee, sheet_of(drawn, 1, 1), positions=(1,))
    signed = LogEntry.objects.get(action="sheet.sign")
    name = sheet.signatures.get().name
    assert name not in signed.summary and name in log_change(signed)
