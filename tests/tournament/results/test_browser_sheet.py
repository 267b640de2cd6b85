"""The referee's sheet in a real browser: games typed from the keyboard, the answer beside the
entry field, the totals as the engine computes them."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from scoring import Contract, Game, Result, Suit
from tournament.models import GameEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sheet_path(tournament, match=1, table=1):
    return f"/referee/{tournament.slug}/match/{match}/table/{table}/"


def test_games_typed_at_the_desk_are_entered_in_order(desk, drawn, referee):
    desk.login(referee)
    desk.get(sheet_path(drawn))
    for number, typed in enumerate(("re13+", "sh2+", "w3-s", "rg24 75"), start=1):
        # the cursor waits in the entry field, also after each save
        desk.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "game_notation")
        desk.driver.switch_to.active_element.send_keys(typed, Keys.ENTER)
        # saved: the page comes back with the next game number (the database is read at the end:
        # the live server's in-memory SQLite is locked while it writes)
        desk.wait_for(
            lambda d, n=number: d.find_element("id", "game_number").get_attribute("value") == str(n + 1)
        )
    desk.screenshot("desk-sheet-four-games")
    points = {e.number: e.points for e in GameEntry.objects.all()}
    assert points == {1: (1, -1, 1, -1), 2: (-2, 6, -2, -2), 3: (3, 3, -9, 3), 4: (-1, 1, -1, 1)}
    round_row = desk.find("tr.round").text
    assert "Runde 1" in round_row and "0 ✓" in round_row and "1 9 -11 1" in round_row.replace("\n", " ")


def test_four_players_sign_on_the_pad_and_the_sheet_is_verified(desk, played, referee):
    """The signature pad in a real browser: drawing, an empty pad refused, the fourth signature
    locking the sheet, and the verified mark of its digest (5.3.2, issue 13)."""
    desk.login(referee)
    desk.get(sheet_path(played))
    desk.find("form canvas.signature-pad").find_element(By.XPATH, "./..").find_element(
        By.CSS_SELECTOR, "button[type=submit]"
    ).click()  # nothing drawn
    desk.wait_text("ul.messages", "Die Unterschrift fehlt")
    for seat in range(4):
        canvas = desk.find("form canvas.signature-pad")
        desk.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", canvas)
        ActionChains(desk.driver).move_to_element_with_offset(
            canvas, -60, 10
        ).click_and_hold().move_by_offset(40, -20).move_by_offset(50, 25).move_by_offset(
            30, -10
        ).release().perform()
        canvas.find_element(By.XPATH, "./..").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        desk.wait_for(
            lambda d, n=seat + 1: (
                len(d.find_elements(By.CSS_SELECTOR, "section.signing img, section.signed img")) >= n
            )
        )
    desk.wait_text("p.verified", "Geprüft")
    desk.screenshot("desk-signed-and-verified")
    assert "Unterschrieben und gesperrt" in desk.find("section.signed h2").text


def type_game(desk, typed: str, expected_next: int) -> None:
    desk.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "game_notation")
    desk.driver.switch_to.active_element.send_keys(typed, Keys.ENTER)
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == str(expected_next))


def test_after_changing_a_game_the_next_game_typed_is_a_new_one(desk, drawn, referee):
    """Issue 14, finding 1: saving a changed game returns to the next free game, empty."""
    desk.login(referee)
    desk.get(sheet_path(drawn))
    for number, typed in enumerate(("re13+", "sh2+", "w3-s"), start=1):
        type_game(desk, typed, number + 1)
    desk.find("#game-2 td.actions a").click()  # "ändern"
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == "2")
    banner = desk.find(".change-banner")
    assert "Spiel 2 wird geändert" in banner.text and "Abbrechen" in banner.text
    field = desk.driver.switch_to.active_element
    assert field.get_attribute("id") == "game_notation" and field.get_attribute("value") == "sh2+"
    field.send_keys("rg24+", Keys.ENTER)  # the old game is selected: typing replaces it
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == "4")
    assert not desk.driver.find_elements("css selector", ".change-banner")
    assert desk.driver.switch_to.active_element.get_attribute("value") == ""
    assert "edit" not in desk.driver.current_url
    type_game(desk, "re14-", 5)  # a new game 4, game 2 stays as changed
    # ä3 and Enter opens game 3 for a change from the keyboard, selected; Esc leaves it unchanged
    type_game(desk, "ä3", 3)
    assert desk.find(".change-banner")
    assert desk.driver.execute_script(
        "const f = document.activeElement; return [f.selectionStart, f.selectionEnd, f.value.length];"
    ) == [0, 4, 4]
    desk.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == "5")
    games = {e.number: (e.contract, e.suit, e.declarer, e.partner) for e in GameEntry.objects.all()}
    assert games == {
        1: ("rufer", "eichel", 1, 3),
        2: ("rufer", "gras", 2, 4),
        3: ("wenz", "", 3, None),
        4: ("rufer", "eichel", 1, 4),
    }


def test_the_answer_appears_beside_the_entry_field(desk, drawn, referee):
    """Issue 14, finding 2: at a desk's screen a typo's message is in view next to the field,
    the typed text stays, selected, and what is typed next replaces it."""
    desk.login(referee)
    desk.get(sheet_path(drawn))
    type_game(desk, "re13+", 2)
    answer = desk.find("#answer")
    assert desk.in_view(answer) and "Spiel 1" in answer.text
    desk.driver.switch_to.active_element.send_keys("re15+", Keys.ENTER)
    desk.wait_text("#answer", "Platz 5")
    error = desk.find("#answer li.error")
    assert desk.in_view(error) and error.get_attribute("role") == "alert"
    field = desk.driver.switch_to.active_element
    assert field.get_attribute("value") == "re15+"
    desk.screenshot("desk-typo-answer")
    field.send_keys("re14+", Keys.ENTER)  # the selected typo is replaced, not appended to
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == "3")
    assert GameEntry.objects.get(number=2).partner == 4


def in_view_of(desk, css: str) -> bool:
    return desk.driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight;",
        css,
    )


def test_on_a_long_sheet_the_field_and_its_answer_stay_in_view(desk, drawn, referee, enter, sheet_of):
    """The walk of issue 14 found the field and the answer scrolled off the top after Enter on a
    32-game sheet with its history growing underneath."""
    sheet = sheet_of(drawn)
    for number in range(1, 27):
        enter(referee, sheet, Game(number, Contract.RUFER, 1, suit=Suit.EICHEL, partner=3, result=Result.WON))
    desk.login(referee)
    desk.get(sheet_path(drawn))
    assert in_view_of(desk, "#game_notation")
    for number in range(27, 31):
        type_game(desk, "rg24+", number + 1)
        assert in_view_of(desk, "#game_notation") and in_view_of(desk, "#answer"), number
        assert f"Spiel {number}" in desk.find("#answer").text
    desk.driver.switch_to.active_element.send_keys("re13", Keys.ENTER)  # a typo: in view too
    desk.wait_text("#answer", "Ergebnis fehlt")
    assert in_view_of(desk, "#game_notation") and in_view_of(desk, "#answer li.error")
    desk.screenshot("desk-long-sheet-answer-in-view")
    # ä of a game not entered: refused, and the typed text stays selected like any refusal
    field = desk.driver.switch_to.active_element
    field.send_keys("ä32", Keys.ENTER)
    desk.wait_text("#answer", "Spiel 32 ist nicht eingetragen")
    assert desk.driver.execute_script(
        "const f = document.activeElement; return [f.id, f.value, f.selectionStart, f.selectionEnd];"
    ) == ["game_notation", "ä32", 0, 3]


def test_copying_a_paper_list_stays_in_its_tab(desk, drawn, referee):
    """Row after row without clicking the tab again (walk of issue 14)."""
    desk.login(referee)
    desk.get(sheet_path(drawn))
    desk.find('nav.tabs a[data-tab="row"]').click()
    for number, row in enumerate(("1 -1 1 -1", "-1 1 -1 1", "6* -2 -2 -2"), start=1):
        desk.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "row_row")
        desk.driver.switch_to.active_element.send_keys(row, Keys.ENTER)
        desk.wait_for(
            lambda d, n=number: d.find_element("id", "row_number").get_attribute("value") == str(n + 1)
        )
        assert desk.find('form[data-form="row"]').is_displayed()
        assert not desk.find('form[data-form="game"]').is_displayed()
    assert sorted(e.points for e in GameEntry.objects.all())[0] == (-1, 1, -1, 1)
    assert GameEntry.objects.count() == 3


def test_a_table_of_five_at_the_desk(desk, tournament, organiser, referee, add_players):
    """Issue 18: nine players, table 2 seats five. The dealer typed as declarer is refused in
    German naming why; the sheet shows five columns, the sitting-out dealer's cell grey, and
    the game's text keeps its room beside them."""
    from tournament.draw import services as draw_service

    add_players(tournament, 9)
    draw_service.draw_all(organiser, tournament, seed="fuenf")
    desk.login(referee)
    desk.get(sheet_path(tournament, 1, 2))
    assert len(desk.driver.find_elements(By.CSS_SELECTOR, "table.scoresheet th.seat")) == 5
    desk.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "game_notation")
    desk.driver.switch_to.active_element.send_keys("re12+", Keys.ENTER)  # seat 1 deals game 1
    desk.wait_text("ul.messages", "Platz 1 hat Spiel 1 gegeben und setzt aus: er kann nicht Spieler sein.")
    field = desk.find("#game_notation")
    field.clear()
    field.send_keys("re23+", Keys.ENTER)
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == "2")
    row = desk.find("#game-1")
    assert [c.text for c in row.find_elements(By.CSS_SELECTOR, "td.num")][2:] == ["0", "1", "1", "-1", "-1"]
    assert row.find_element(By.CSS_SELECTOR, "td.out").text == "0"  # seat 1, the dealer
    played = row.find_element(By.CSS_SELECTOR, "td.played").rect["width"]
    assert played >= 13 * 16 - 1  # not squeezed to a word a line
    assert row.find_element(By.LINK_TEXT, "ändern").rect["height"] < 30  # one line, a whole word
    desk.screenshot("desk-sheet-table-of-five")
    assert GameEntry.objects.get(number=1).points == (0, 1, 1, -1, -1)
