"""Issue 28 on the table's phone in a real browser at phone width: game 1's Tout and Sie
(item 4), a substitute heading his column and signing (item 3) with the locked view's games
(item 14), and the games waiting offline shown as rows with the points the phone gave them,
the same as the server's, for every kind of game (item 15)."""

import pytest
from selenium.webdriver.common.by import By

from tournament.models import ApprovalCall, GameEntry, Scoresheet, Signature
from tournament.results import services as sheet_service
from tournament.results import substitutes
from tournament.results.notation import typed_game

from .test_browser_table import (
    _tap,
    draw_signature,
    open_table,
    sauspiel,
    sign_in_turn,
    tap,
    tap_seat,
    wait_stored,
)

pytestmark = pytest.mark.django_db(transaction=True)


def offline(phone, on: bool = True) -> None:
    if on:
        phone.driver.set_network_conditions(
            offline=True, latency=0, download_throughput=-1, upload_throughput=-1
        )
    else:
        phone.driver.delete_network_conditions()


def test_game_1_a_tout_is_played_without_a_call_and_a_sie_is_refused_at_once(phone, drawn, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    open_table(phone, sheet)
    phone.wait_text("#entry-title", "Spiel 1")
    # A Sie in game 1 cannot count (RULINGS 5): said at once, no declarer, nobody called.
    tap(phone, "Sie")
    phone.wait_text("#step", "Ein Sie zählt nicht im ersten Spiel")
    step = phone.find("#step").text
    assert "Turnierleitung" not in step and not phone.driver.find_elements(By.CSS_SELECTOR, "#step .seats")
    phone.screenshot("table-sie-in-game-1")
    phone.find("#back").click()
    # A Tout in game 1 is a plain Solo (RULINGS 6): no call, no "it will be struck".
    tap(phone, "Herz-Tout")
    tap_seat(phone, 2)
    phone.wait_text("#step", "gewonnen")
    step = phone.find("#step").text
    assert "Turnierleitung" not in step and "gestrichen" not in step
    tap(phone, "gewonnen")
    wait_stored(phone, sheet, 1)
    entry = GameEntry.objects.get(scoresheet=sheet, number=1)
    assert entry.contract == "solo_tout" and not entry.struck and entry.points == (-2, 6, -2, -2)
    phone.wait_text("#sheet tr[data-game='1']", "einfaches Solo")
    assert not ApprovalCall.objects.filter(scoresheet=sheet).exists()


def test_a_substitute_heads_his_column_signs_and_the_lock_shows_the_games(
    phone, drawn, sheet_of, organiser, referee, enter
):
    sheet = sheet_of(drawn, 1, 1)
    seat = sheet.table.seats.select_related("participant").get(position=2)
    replaced = seat.participant.name
    for number in range(1, 17):
        enter(referee, sheet, typed_game("re13+" if number % 2 else "re24-", number))
    substitutes.substitute(organiser, seat.participant, "Aigner, Vroni", 1, from_game=17)
    open_table(phone, sheet)
    phone.wait_text("#entry-title", "Spiel 17")
    head = phone.driver.find_elements(By.CSS_SELECTOR, "#sheet thead th.p")[1]
    assert "Aigner" in head.text and "ab Spiel 17" in head.text
    assert replaced.split(",")[0].split()[-1] not in head.find_element(By.CSS_SELECTOR, ".who").text
    # the panel offers who plays now
    tap(phone, "Sauspiel Gras")
    assert any(
        b.text.startswith("2 · Aigner, Vroni")
        for b in phone.driver.find_elements(By.CSS_SELECTOR, "#step .seats button")
    )
    phone.find("#cancel").click()
    phone.screenshot("table-substitute-column")
    for number in range(17, 33):
        enter(referee, sheet, typed_game("re13+" if number % 2 else "re24-", number))
    phone.driver.refresh()
    phone.wait_text(".final", "Endstand")
    final = phone.find(".final").text
    assert "Platz 2: Aigner, Vroni (ab Spiel 17, für" in final and replaced in final
    sign_in_turn(phone, (1,))
    phone.wait_text("#sign-title", "Platz 2: Aigner, Vroni unterschreibt", seconds=15)
    phone.screenshot("table-substitute-signs")
    for count, position in enumerate((2, 3, 4), start=2):
        phone.wait_text("#sign-title", f"Platz {position}:")
        draw_signature(phone)
        phone.find("#sign-save").click()
        if position < 4:
            phone.wait_for(lambda d, n=count: d.find_element(By.CSS_SELECTOR, ".final").text.count("✓") == n)
    phone.wait_text("#sheet", "gesperrt", seconds=15)
    assert Signature.objects.get(scoresheet=sheet, position=2).name == "Aigner, Vroni"
    assert Scoresheet.objects.get(pk=sheet.pk).status == Scoresheet.Status.SIGNED
    # the locked view: the totals with who signed, and the games (item 14)
    phone.driver.refresh()
    phone.wait_text("body", "gesperrt")
    assert "Platz 2: Aigner, Vroni" in phone.find(".final").text
    assert len(phone.driver.find_elements(By.CSS_SELECTOR, "#sheet tr[data-game]")) == 32
    phone.screenshot("table-locked-with-games")


def unsent_rows(phone) -> dict[int, tuple[int, ...]]:
    """The unsent games' rows and their points, read at once (each retry redraws them)."""
    found = phone.driver.execute_script(
        "return Array.from(document.querySelectorAll('#sheet tr.game.unsent')).map(row =>"
        " [row.dataset.unsent, Array.from(row.querySelectorAll('td.p')).map(td => td.textContent)]);"
    )
    return {int(number): tuple(int(value) for value in cells) for number, cells in found}


def test_games_waiting_offline_are_rows_with_points_and_the_round_checksum(phone, drawn, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    open_table(phone, sheet)
    offline(phone)
    sauspiel(phone, "Eichel", 1, 3, True)
    sauspiel(phone, "Gras", 2, 4, False, "Schneider")
    sauspiel(phone, "Schellen", 3, 1, True, "Schwarz")
    phone.wait_text("#queue", "3 Spiele noch nicht gesendet")
    assert unsent_rows(phone) == {1: (1, -1, 1, -1), 2: (2, -2, 2, -2), 3: (3, -3, 3, -3)}
    assert "noch nicht gesendet" in phone.find("#sheet tr[data-unsent='1']").text
    # the next game's row is numbered as the panel is
    phone.wait_text("#entry-title", "Spiel 4")
    assert phone.find("#sheet tr.next td.n").text == "4"
    sauspiel(phone, "Eichel", 4, 2, False)
    phone.wait_text("#sheet tr.round.unsent", "Runde 1")
    text, cells = phone.driver.execute_script(
        "const row = document.querySelector('#sheet tr.round.unsent');"
        "return [row.textContent, Array.from(row.querySelectorAll('td.p')).map(td => td.textContent)];"
    )
    assert "Quersumme 0 ✓" in text and cells == ["7", "-7", "7", "-7"]
    assert phone.find("#sheet tr.next td.n").text == "5"
    phone.screenshot("table-offline-rows")
    phone.driver.refresh()  # kept over a reload
    phone.wait_text("#sheet tr.round.unsent", "Runde 1")
    offline(phone, False)
    wait_stored(phone, sheet, 4)
    assert not phone.driver.find_elements(By.CSS_SELECTOR, "#sheet tr.unsent")


# Every kind of game the phone enters: (taps, approved beforehand as which contract).
KINDS = [
    (("Herz-Tout", 2, None, "gewonnen", None), None),  # game 1: a plain Solo (RULINGS 6)
    (("Sauspiel Eichel", 1, 3, "gewonnen", "Schneider"), None),
    (("Sauspiel Gras", 2, 4, "verloren", "Schwarz"), None),
    (("Sauspiel Schellen", 3, 1, "verloren", "keins"), None),
    (("Eichel-Solo", 2, None, "gewonnen", "Schneider"), None),
    (("Wenz", 3, None, "verloren", "Schwarz"), None),
    (("Wenz-Tout", 4, None, "gewonnen", None), ("wenz_tout", None)),
    (("Gras-Tout", 1, None, "verloren", None), ("solo_tout", "gras")),
    (("Sie", 2, None, None, None), ("sie", None)),
    (("Schellen-Solo", 3, None, "gewonnen", "keins"), ("solo", "schellen")),  # the 6th Solo
    (("Wenz", 1, None, "verloren", "keins"), ("wenz", None)),
    (("Herz-Solo", 4, None, "gewonnen", "keins"), None),  # no approval: struck (5.2.17)
]


def test_the_phone_scores_every_kind_of_game_as_the_server_does(phone, drawn, sheet_of, supervisor):
    sheet = sheet_of(drawn, 1, 1)
    for number, (_taps, approval) in enumerate(KINDS, start=1):
        if approval:
            sheet_service.approve(supervisor, sheet, number, approval[0], suit=approval[1])
    open_table(phone, sheet)
    offline(phone)
    for number, ((contract, declarer, partner, result, level), _approval) in enumerate(KINDS, start=1):
        phone.wait_text("#entry-title", f"Spiel {number}")
        tap(phone, contract)
        tap_seat(phone, declarer)
        if number == len(KINDS):
            _tap(phone, "#step button", lambda shown: shown.startswith("Ohne Genehmigung eintragen"))
        if partner:
            tap_seat(phone, partner)
        if result:
            tap(phone, result)
        if level:
            tap(phone, level)
    phone.wait_text("#queue", f"{len(KINDS)} Spiele noch nicht gesendet")
    shown = unsent_rows(phone)
    assert len(shown) == len(KINDS)
    assert shown[len(KINDS)] == (0, 0, 0, 0)
    offline(phone, False)
    wait_stored(phone, sheet, len(KINDS), seconds=30)
    stored = {
        entry.number: (0, 0, 0, 0) if entry.struck else tuple(entry.points)
        for entry in GameEntry.objects.filter(scoresheet=sheet)
    }
    assert shown == stored
    assert GameEntry.objects.get(scoresheet=sheet, number=len(KINDS)).struck
