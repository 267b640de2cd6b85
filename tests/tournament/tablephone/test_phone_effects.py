"""Every other game a phone's write changed is named in the phone's answer and in the history
(issue 26): a later Solo struck as the fifth without approval (5.2.16) because a game was
entered, changed or approved, and counting again when one was deleted."""

import pytest
from django.urls import reverse

from tournament.models import ApprovalCall, LogEntry

from .test_table_phone import send as send_to_table

# Four Solo games before game 6 make its Wenz the fifth: without approval it is struck (5.2.16).
SHEET = {1: "sh1+", 2: "re13+", 3: "sg2+", 4: "ss3+", 5: "rg24-", 6: "w4+"}


def send(client, sheet, key, action, **data):
    response, answer = send_to_table(client, sheet, key, action, **data)
    assert response.status_code == 200, response.content
    return answer


def enter_games(client, sheet, games: dict[int, str]) -> dict:
    answer = {}
    for number, notation in games.items():
        answer = send(client, sheet, f"setup-{number:02d}-key", "game", number=number, notation=notation)
        assert answer["ok"], answer
    return answer


def game_6(sheet):
    return sheet.entries.get(number=6)


def effect_lines(sheet, since: int) -> list[LogEntry]:
    """The history's lines about game 6 written after log entry ``since``, other than its own entry."""
    return list(
        LogEntry.objects.filter(scoresheet=sheet, game=6, pk__gt=since).exclude(
            action__in=("entry.create", "entry.update", "entry.delete")
        )
    )


def last_log(sheet) -> int:
    return LogEntry.objects.filter(scoresheet=sheet).order_by("-pk").values_list("pk", flat=True).first() or 0


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def assert_told_struck(answer: dict, cause: str) -> None:
    effects = " ".join(answer.get("effects", []))
    assert "Spiel 6" in effects and "gestrichen" in effects and "5.2.16" in effects, answer
    assert f"Spiel {cause}" in effects.split("Spiel 6", 1)[1], answer  # names its cause
    assert "Spiel 6" not in answer["message"]  # the game written is told first, the effect apart


def test_a_game_entered_on_the_phone_names_the_later_solo_it_strikes(client, sheet):
    enter_games(client, sheet, {n: g for n, g in SHEET.items() if n != 2})
    assert not game_6(sheet).struck
    since = last_log(sheet)
    answer = send(client, sheet, "enter-game-2", "game", number=2, notation="se2+")
    assert answer["ok"], answer
    assert game_6(sheet).struck
    assert_told_struck(answer, "2")
    lines = effect_lines(sheet, since)
    assert len(lines) == 1, lines
    again = send(client, sheet, "enter-game-2", "game", number=2, notation="se2+")
    assert again["repeated"] and again["effects"] == answer["effects"]  # kept with the receipt


def test_a_game_changed_on_the_phone_names_the_later_solo_it_strikes(client, sheet):
    base = enter_games(client, sheet, SHEET)["version"]
    since = last_log(sheet)
    answer = send(client, sheet, "change-game-2", "game", number=2, notation="se2+", replace=True, base=base)
    assert answer["ok"], answer
    assert game_6(sheet).struck
    assert_told_struck(answer, "2")
    assert len(effect_lines(sheet, since)) == 1


def test_a_game_deleted_on_the_phone_names_the_solo_that_counts_again(client, sheet):
    base = enter_games(client, sheet, {**SHEET, 2: "se2+"})["version"]
    assert game_6(sheet).struck
    since = last_log(sheet)
    answer = send(client, sheet, "delete-game-3", "delete", number=3, base=base)
    assert answer["ok"], answer
    assert not game_6(sheet).struck and game_6(sheet).points_4 == 6
    effects = " ".join(answer.get("effects", []))
    assert "Spiel 6" in effects and "Spiel 3" in effects.split("Spiel 6", 1)[1], answer
    assert len(effect_lines(sheet, since)) == 1


def test_a_game_the_supervisor_approved_on_a_call_strikes_the_later_solo_and_says_so(
    client, drawn, sheet, supervisor
):
    """The table calls for a Tout in game 2 after games 3 to 6 were entered (the paper list
    copied late, say): approved, game 2 counts, and game 6 becomes the fifth Solo. The
    supervisor's answer names every game the approval changed (none: game 2 is not played yet),
    the table's answer to game 2 names game 6."""
    enter_games(client, sheet, {n: g for n, g in SHEET.items() if n != 2})
    assert send(
        client, sheet, "call-game-2", "call", number=2, contract="solo_tout", suit="gras", declarer=2
    )["ok"]
    call = ApprovalCall.objects.get(scoresheet=sheet, number=2)
    client.force_login(supervisor)
    url = reverse("referee:answer_call", args=[drawn.slug, call.pk])
    page = client.post(url, {"answer": "approve"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Tisch 1, Spiel 2: Solo-Tout genehmigt." in page and "Spiel 6" not in page
    assert not game_6(sheet).struck
    client.logout()
    since = last_log(sheet)
    answer = send(client, sheet, "enter-tout-2", "game", number=2, notation="tg2+")
    assert answer["ok"] and not sheet.entries.get(number=2).struck, answer
    assert game_6(sheet).struck
    assert_told_struck(answer, "2")
    assert len(effect_lines(sheet, since)) == 1
