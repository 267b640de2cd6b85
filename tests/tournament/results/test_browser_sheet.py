"""The referee's sheet in a real browser: games typed from the keyboard, the answer beside the
entry field, the totals as the engine computes them."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

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
