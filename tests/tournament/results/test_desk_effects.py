"""Every other game a write at the desk changed is in the write's answer (``writing.Written``),
in the history (one ``entry.rescored`` line each, naming its cause) and in the desk's message
(issue 26): one test per cause. The walk's table: Solos in games 1, 3 and 4, a Sauspiel in game
5, a Wenz of seat 4 in game 6; with a counted Solo or Tout in game 2 the Wenz is the fifth
without approval and struck (5.2.16), without one it scores +6 / -2 / -2 / -2."""

import pytest
from django.urls import reverse

from scoring.effects import Effect
from tournament.models import GameEntry, LogEntry, Scoresheet
from tournament.results import services as sheet_service
from tournament.results import signing
from tournament.results.notation import typed_game

pytestmark = pytest.mark.django_db

SHEET = {1: "sh1+", 2: "re13+", 3: "sg2+", 4: "ss3+", 5: "rg24-", 6: "w4+"}
STRUCK_6 = "Spiel 6 gestrichen (5.2.16: 5. Solo ohne Genehmigung), weil "


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def fill(user, sheet, games: dict[int, str]) -> None:
    for number, notation in games.items():
        sheet.refresh_from_db()
        sheet_service.save_entry(user, sheet, typed_game(notation, number, 4), sheet.version)


def post(client, sheet, action: str, **data) -> str:
    """The desk's form for ``action`` sent at the sheet's current version: the page's messages."""
    sheet.refresh_from_db()
    url = reverse("referee:sheet", args=[sheet.match.tournament.slug, 1, sheet.table.number])
    data = {"action": action, "sheet": sheet.pk, "version": sheet.version, **data}
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    return " ".join(str(message) for message in response.context["messages"])


def rescored(sheet, since: int) -> list[LogEntry]:
    return list(
        LogEntry.objects.filter(scoresheet=sheet, action="entry.rescored", pk__gt=since).order_by("pk")
    )


def last_log(sheet) -> int:
    return LogEntry.objects.filter(scoresheet=sheet).order_by("-pk").values_list("pk", flat=True).first() or 0


def game_6(sheet) -> GameEntry:
    return sheet.entries.get(number=6)


def assert_history(sheet, since: int, effect: Effect, cause: str) -> LogEntry:
    """One line about game 6, naming its cause, shown on the desk's history."""
    (line,) = rescored(sheet, since)
    assert line.game == 6 and line.data["effect"] == effect.value and line.data["cause"] == cause
    return line


def test_a_game_entered_at_the_desk_strikes_the_later_wenz_and_says_so(client, referee, sheet):
    fill(referee, sheet, {n: g for n, g in SHEET.items() if n != 2})
    since = last_log(sheet)
    client.force_login(referee)
    told = post(client, sheet, "game", number=2, notation="se2+")
    assert game_6(sheet).struck
    assert STRUCK_6 + "Spiel 2 eingetragen wurde." in told
    line = assert_history(sheet, since, Effect.STRUCK, "entered")
    assert line.data["before"]["points"] == [-2, -2, -2, 6] and line.data["after"]["points"] == [0, 0, 0, 0]
    page = client.get(reverse("referee:sheet", args=[sheet.match.tournament.slug, 1, 1])).content.decode()
    assert STRUCK_6 + "Spiel 2 eingetragen wurde." in page  # the history on the desk's page


def test_a_game_changed_at_the_desk_strikes_the_later_wenz(client, referee, sheet):
    fill(referee, sheet, SHEET)
    since = last_log(sheet)
    client.force_login(referee)
    told = post(client, sheet, "game", number=2, notation="se2+", replace="on")
    assert game_6(sheet).struck
    assert STRUCK_6 + "Spiel 2 geändert wurde." in told
    assert_history(sheet, since, Effect.STRUCK, "changed")


def test_a_game_deleted_at_the_desk_makes_the_later_wenz_count_again(client, referee, sheet):
    fill(referee, sheet, {**SHEET, 2: "se2+"})
    assert game_6(sheet).struck
    sheet.refresh_from_db()
    written = sheet_service.delete_entry(referee, sheet, 3, sheet.version)
    assert [(c.number, c.effect) for c in written.changes] == [(6, Effect.COUNTS_AGAIN)]
    assert written.own is not None and written.own.effect is Effect.DELETED
    fill(referee, sheet, {3: "sg2+"})
    since = last_log(sheet)
    client.force_login(referee)
    told = post(client, sheet, "delete", number=3)
    assert not game_6(sheet).struck and game_6(sheet).points_4 == 6
    assert "Spiel 6 zählt wieder (-2 / -2 / -2 / +6), weil Spiel 3 gelöscht wurde." in told
    assert_history(sheet, since, Effect.COUNTS_AGAIN, "deleted")


def test_the_issue_s_example_approving_strikes_game_6_and_withdrawing_restores_it(client, supervisor, sheet):
    """Gras-Tout in game 2 without approval: struck (5.2.14), the Wenz in game 6 counts. The
    approval makes game 2 count and game 6 the fifth Solo without approval: struck (5.2.16),
    told on the desk and in the history; withdrawn, game 6 counts again, told as well."""
    fill(supervisor, sheet, {**SHEET, 2: "tg2+"})
    assert sheet.entries.get(number=2).struck and game_6(sheet).points_4 == 6
    since = last_log(sheet)
    client.force_login(supervisor)
    told = post(client, sheet, "approve", number=2, contract="solo_tout", suit="gras")
    assert told.startswith("Spiel 2: Solo-Tout genehmigt. " + STRUCK_6 + "Spiel 2 genehmigt wurde.")
    assert game_6(sheet).struck and game_6(sheet).points_4 == 0
    line = assert_history(sheet, since, Effect.STRUCK, "approved")
    assert line.data["after"]["rule"] == "5.2.16" and line.data["cause_game"] == 2

    since = last_log(sheet)
    told = post(client, sheet, "withdraw", number=2)
    assert told.startswith(
        "Spiel 2: Genehmigung zurückgezogen. "
        "Spiel 6 zählt wieder (-2 / -2 / -2 / +6), weil die Genehmigung von Spiel 2 zurückgezogen wurde."
    )
    assert not game_6(sheet).struck and game_6(sheet).points_4 == 6
    assert_history(sheet, since, Effect.COUNTS_AGAIN, "approval_withdrawn")


def test_the_approval_service_answers_with_what_it_changed(supervisor, sheet):
    fill(supervisor, sheet, {**SHEET, 2: "tg2+"})
    approval = sheet_service.approve(supervisor, sheet, 2, "solo_tout", suit="gras")
    (change,) = approval.written.changes
    assert change.number == 6 and change.effect is Effect.STRUCK
    assert change.before.points == (-2, -2, -2, 6) and change.after.points == (0, 0, 0, 0)
    assert approval.written.own.effect is Effect.COUNTS_AGAIN  # game 2 itself


def test_a_sanction_at_the_desk_makes_the_later_wenz_count_again(client, supervisor, sheet):
    """A sanction is no Solo (RULINGS 9): game 3 replaced by one, game 6 is the fourth again."""
    fill(supervisor, sheet, {**SHEET, 2: "se2+"})
    since = last_log(sheet)
    client.force_login(supervisor)
    told = post(client, sheet, "sanction", number=3, contract="solo", declarer=2, liable=1, replace="on")
    assert sheet.entries.get(number=3).kind == "sanction"
    assert not game_6(sheet).struck
    assert "Spiel 6 zählt wieder (-2 / -2 / -2 / +6), weil für Spiel 3 eine Strafe eingetragen wurde." in told
    assert_history(sheet, since, Effect.COUNTS_AGAIN, "sanction")


def full_sheet(user, sheet) -> None:
    """Every game of the match: the walk's six (game 2 an approved Gras-Tout, so game 6 is
    struck), then Sauspiele."""
    games = {**SHEET, 2: "tg2+"}
    count = sheet.match.tournament.rules.games_for(4)
    games.update({n: "re13+" for n in range(7, count + 1)})
    entries = [typed_game(notation, number, 4) for number, notation in games.items()]
    sheet_service.fill_sheets(user, sheet.match.tournament, [(sheet, entries, {2: "solo_tout"})])


def test_a_correction_of_a_signed_sheet_names_the_game_it_restores(client, referee, supervisor, sheet, sign):
    full_sheet(supervisor, sheet)
    assert game_6(sheet).struck
    sheet.refresh_from_db()
    sign(referee, sheet)
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SIGNED
    since = last_log(sheet)
    client.force_login(supervisor)
    told = post(
        client, sheet, "correct", number=3, notation="re13+", reason="Spielzettel falsch abgeschrieben"
    )
    assert "Spiel 3 berichtigt" in told
    assert "Spiel 6 zählt wieder (-2 / -2 / -2 / +6), weil Spiel 3 berichtigt wurde." in told
    assert not game_6(sheet).struck
    assert_history(sheet, since, Effect.COUNTS_AGAIN, "corrected")
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SIGNED and sheet.signatures.count() == 4  # 5.3.4


def test_declaring_a_sheet_void_changes_no_other_game(client, supervisor, sheet):
    fill(supervisor, sheet, {**SHEET, 2: "se2+"})
    sheet.refresh_from_db()
    version, since = sheet.version, last_log(sheet)
    voided = signing.declare_void(supervisor, sheet, "unleserlich", expected_version=version)
    assert voided.written.changes == () and voided.written.withdrawn == []
    sheet.refresh_from_db()
    assert sheet.version == version + 1 and sheet.status == Scoresheet.Status.VOID
    assert rescored(sheet, since) == []
    assert list(LogEntry.objects.filter(pk__gt=since).values_list("action", flat=True)) == ["sheet.void"]
    assert LogEntry.objects.get(pk__gt=since).data == {"match": 1, "table": 1, "reason": "unleserlich"}


def test_the_void_at_the_desk_names_no_other_game(client, supervisor, sheet):
    fill(supervisor, sheet, SHEET)
    client.force_login(supervisor)
    told = post(client, sheet, "void", reason="unleserlich")
    assert "ungültig" in told and "Spiel 6" not in told
