"""Every other game a write at the desk changes is returned, recorded in the history as its own
line naming its cause, and named in the desk's answer (issue 26): the walk's table, where game
6's Wenz is the fifth Solo once game 2 counts as one (5.2.16)."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from scoring.effects import Effect
from tournament.draw import services as draw_service
from tournament.models import LogEntry, Scoresheet, StaffRole
from tournament.participants.models import Participant
from tournament.results import services as sheet_service
from tournament.results import substitutes
from tournament.results.history import log_change
from tournament.results.notation import typed_game

pytestmark = pytest.mark.django_db

# Games 1, 3 and 4 Solos, game 5 a Sauspiel, game 6 a Wenz of seat 4 (+6 / -2 / -2 / -2).
SHEET = {1: "sh1+", 2: "re13+", 3: "sg2+", 4: "ss3+", 5: "rg24-", 6: "w4+"}
STRUCK = "Spiel 6 gestrichen (5.2.16: 5. Solo ohne Genehmigung), weil Spiel 2"


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def fill(user, sheet, games: dict[int, str]):
    for number, notation in games.items():
        sheet.refresh_from_db()
        sheet_service.save_entry(user, sheet, typed_game(notation, number), sheet.version)
    sheet.refresh_from_db()
    return sheet


def desk(client, sheet, **data):
    """A form sent on the sheet's page; the desk's messages."""
    sheet.refresh_from_db()
    url = reverse("referee:sheet", args=[sheet.match.tournament.slug, 1, sheet.table.number])
    response = client.post(url, {"sheet": sheet.pk, "version": sheet.version, **data})
    assert response.status_code == 302, response.content.decode()[:2000]
    return [str(message) for message in get_messages(response.wsgi_request)]


def game_6(sheet):
    return sheet.entries.get(number=6)


def rescored(sheet, since: int) -> list[LogEntry]:
    return list(LogEntry.objects.filter(scoresheet=sheet, action="entry.rescored", pk__gt=since))


def last_log() -> int:
    return LogEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def assert_one_line_for_game_6(sheet, since: int, cause: str) -> str:
    (line,) = rescored(sheet, since)
    assert line.game == 6 and line.data["cause_game"] == int(cause)
    text = log_change(line)
    assert text.startswith("Spiel 6") and f"Spiel {cause} " in text.split(", weil ", 1)[1]
    return text


def test_a_game_entered_at_the_desk_names_the_solo_it_strikes(client, supervisor, sheet):
    fill(supervisor, sheet, {n: g for n, g in SHEET.items() if n != 2})
    since = last_log()
    client.force_login(supervisor)
    (told,) = desk(client, sheet, action="game", number=2, notation="se2+")
    assert told.startswith("Spiel 2: Eichel-Solo") and f"{STRUCK} eingetragen wurde." in told
    assert game_6(sheet).struck
    assert assert_one_line_for_game_6(sheet, since, "2") in told


def test_the_service_returns_the_game_written_and_every_other_change(supervisor, sheet):
    fill(supervisor, sheet, {n: g for n, g in SHEET.items() if n != 2})
    entered = sheet_service.enter(supervisor, sheet, typed_game("se2+", 2), sheet.version)
    written = entered.written
    assert written.game == 2 and written.own.effect is Effect.ENTERED  # not on the sheet before
    assert written.own.before is None and written.own.after.points == (-2, 6, -2, -2)
    (change,) = written.changes
    assert change.number == 6 and change.effect is Effect.STRUCK
    assert change.before.points == (-2, -2, -2, 6) and change.after.points == (0, 0, 0, 0)
    assert change.after.rule == "5.2.16"
    assert written.texts == [f"{STRUCK} eingetragen wurde."]


def test_a_game_changed_at_the_desk_names_the_solo_it_strikes(client, supervisor, sheet):
    fill(supervisor, sheet, SHEET)
    since = last_log()
    client.force_login(supervisor)
    (told,) = desk(client, sheet, action="game", number=2, notation="se2+", replace="True")
    assert f"{STRUCK} geändert wurde." in told
    assert assert_one_line_for_game_6(sheet, since, "2") in told


def test_a_game_deleted_at_the_desk_names_the_solo_that_counts_again(client, supervisor, sheet):
    fill(supervisor, sheet, {**SHEET, 2: "se2+"})
    assert game_6(sheet).struck
    since = last_log()
    client.force_login(supervisor)
    (told,) = desk(client, sheet, action="delete", number=3)
    assert told.startswith("Spiel 3 ist gelöscht")
    assert "Spiel 6 zählt wieder (-2 / -2 / -2 / +6), weil Spiel 3 gelöscht wurde." in told
    assert not game_6(sheet).struck
    assert_one_line_for_game_6(sheet, since, "3")


def test_the_approval_of_the_walk_names_the_solo_it_strikes_and_withdrawing_it_restores_it(
    client, supervisor, sheet
):
    """The walk: a Gras-Tout in game 2 without approval is struck and game 6 counts; approving
    game 2 strikes game 6 (the fifth Solo, 5.2.16); withdrawing the approval restores it."""
    fill(supervisor, sheet, {**SHEET, 2: "tg2+"})
    assert sheet.entries.get(number=2).struck and not game_6(sheet).struck
    since = last_log()
    client.force_login(supervisor)
    (told,) = desk(client, sheet, action="approve", number=2, contract="solo_tout", suit="gras")
    assert told == f"Spiel 2: Solo-Tout genehmigt. {STRUCK} genehmigt wurde."
    assert game_6(sheet).struck and not sheet.entries.get(number=2).struck
    assert_one_line_for_game_6(sheet, since, "2")
    history = client.get(reverse("referee:sheet", args=[sheet.match.tournament.slug, 1, 1])).content.decode()
    assert f"{STRUCK} genehmigt wurde." in history

    since = last_log()
    (told,) = desk(client, sheet, action="withdraw", number=2)
    assert told == (
        "Spiel 2: Genehmigung zurückgezogen. Spiel 6 zählt wieder (-2 / -2 / -2 / +6), "
        "weil die Genehmigung von Spiel 2 zurückgezogen wurde."
    )
    assert not game_6(sheet).struck
    assert_one_line_for_game_6(sheet, since, "2")


def test_a_sanction_instead_of_a_solo_makes_the_later_solo_count_again(client, supervisor, sheet):
    fill(supervisor, sheet, {**SHEET, 2: "se2+"})
    since = last_log()
    client.force_login(supervisor)
    (told,) = desk(
        client,
        sheet,
        action="sanction",
        number=3,
        contract="rufer",
        declarer=2,
        partner=4,
        liable=1,
        replace="True",
    )
    assert "Spiel 6 zählt wieder (-2 / -2 / -2 / +6), weil für Spiel 3 eine Strafe eingetragen wurde." in told
    assert_one_line_for_game_6(sheet, since, "3")


def full_match(supervisor, sheet):
    """The walk's table with game 2 a Sauspiel, then Sauspiele to game 32: complete, to be signed."""
    rest = {n: "re13+" if n % 2 else "rg24-" for n in range(7, 33)}
    return fill(supervisor, sheet, {**SHEET, **rest})


def test_a_correction_of_a_signed_sheet_names_the_solo_it_strikes(client, supervisor, referee, sheet, sign):
    full_match(supervisor, sheet)
    sign(referee, sheet)
    digest = sheet.digest
    since = last_log()
    client.force_login(supervisor)
    (told,) = desk(client, sheet, action="correct", number=2, notation="se2+", reason="Zahlendreher")
    assert told.startswith("Spiel 2 berichtigt") and f"{STRUCK} berichtigt wurde." in told
    assert_one_line_for_game_6(sheet, since, "2")
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SIGNED and sheet.digest != digest
    assert sheet.signatures.count() == 4  # 5.3.4: a correction keeps them


def test_a_change_that_strikes_another_game_withdraws_the_signatures_given(
    client, supervisor, referee, sheet, sign
):
    full_match(supervisor, sheet)
    sign(referee, sheet, positions=(1, 2))
    client.force_login(supervisor)
    told = desk(client, sheet, action="game", number=2, notation="se2+", replace="True")
    assert STRUCK in told[0] and "Unterschriften" in told[1]
    assert not sheet.signatures.exists()


def test_void_and_substitute_change_no_game_and_say_nothing_more(
    client, played, organiser, supervisor, sheet_of
):
    """A void sheet counts for nothing as a whole (5.3.6) and a substitute takes over a seat's
    points (5.2.11): no game of the sheet scores differently, no line of another game is written."""
    sheet = sheet_of(played, 1, 1)
    points = list(sheet.entries.order_by("number").values_list("points_1", "struck"))
    since = last_log()
    participant = Participant.objects.get(tournament=played, seats__table=sheet.table, seats__position=2)
    substitutes.substitute(organiser, participant, "Ersatz", 1, 5)
    client.force_login(supervisor)
    (told,) = desk(client, sheet, action="void", reason="unleserlich")
    assert told == "Die Spielliste ist ungültig: Ihre Spiele zählen nicht."
    assert list(sheet.entries.order_by("number").values_list("points_1", "struck")) == points
    assert rescored(sheet, since) == []


def test_a_redraw_discards_the_sheet_whole_and_rescores_no_game(supervisor, drawn, sheet):
    """A match drawn again with its results discarded keeps the old sheet as it was (an archived
    draw): no game of it scores differently, so no line names another game; the redraw's own
    line says what was discarded."""
    fill(supervisor, sheet, {**SHEET, 2: "se2+"})
    stored = list(sheet.entries.order_by("number").values_list("number", "points_4", "struck"))
    since = last_log()
    StaffRole.objects.create(tournament=drawn, user=supervisor, role="organiser")  # draws and discards
    draw_service.draw_one(supervisor, drawn, 1, seed="neu", discard_results=True)
    assert list(sheet.entries.order_by("number").values_list("number", "points_4", "struck")) == stored
    assert rescored(sheet, since) == []
    assert LogEntry.objects.filter(pk__gt=since, action="draw.match").exists()
