"""The walk of issue 26 at the desk, in a real browser: a Gras-Tout in game 2 without approval is
struck, game 6's Wenz counts; the supervisor's approval of game 2 makes game 6 the fifth Solo
without approval (5.2.16). The desk's answer, the row of game 6 and the history say so, and
withdrawing the approval, changing and deleting a game say the opposite."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tournament.models import GameEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STRUCK = "Spiel 6 gestrichen (5.2.16: 5. Solo ohne Genehmigung)"
COUNTS = "Spiel 6 zählt wieder (-2 / -2 / -2 / +6)"


def type_game(desk, typed: str, expected_next: int) -> None:
    desk.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "game_notation")
    desk.driver.switch_to.active_element.send_keys(typed, Keys.ENTER)
    desk.wait_for(lambda d: d.find_element("id", "game_number").get_attribute("value") == str(expected_next))


def answered(desk, text: str) -> str:
    desk.wait_text("#answer", text)
    return desk.find("#answer").text


def history(desk) -> list[str]:
    return [line.text for line in desk.driver.find_elements(By.CSS_SELECTOR, "section.history li")]


def game_6(desk):
    return desk.find("#game-6")


def click_in_row(desk, number: int, label: str) -> None:
    buttons = desk.driver.find_elements(By.CSS_SELECTOR, f"#game-{number} button")
    button = next(b for b in buttons if b.text == label)
    desk.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()


def test_the_desk_names_every_game_a_write_strikes_or_restores(desk, drawn, supervisor):
    desk.login(supervisor)
    desk.get(f"/referee/{drawn.slug}/match/1/table/1/")
    for number, typed in enumerate(("sh1+", "tg2+", "sg2+", "ss3+", "rg24-", "w4+"), start=1):
        type_game(desk, typed, number + 1)
    assert "gestrichen" in desk.find("#game-2").text and "gestrichen" not in game_6(desk).text

    # The approval of game 2, recorded afterwards: game 6 becomes the fifth Solo and is struck.
    form = desk.find("section.approval form")
    number = form.find_element(By.NAME, "number")
    number.clear()
    number.send_keys("2")
    Select(form.find_element(By.NAME, "contract")).select_by_value("solo_tout")
    Select(form.find_element(By.NAME, "suit")).select_by_value("gras")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    text = answered(desk, "genehmigt")
    assert text.startswith("Spiel 2: Solo-Tout genehmigt.")
    assert f"{STRUCK}, weil Spiel 2 genehmigt wurde." in text
    assert "struck" in game_6(desk).get_attribute("class")
    assert "gestrichen: Solo/Wenz ab dem 5. ohne Genehmigung (5.2.16)" in game_6(desk).text
    # the history's line is the sentence itself, not under a label saying a game was changed
    assert f"{STRUCK}, weil Spiel 2 genehmigt wurde." in history(desk)[0]
    assert history(desk)[0].split(" ", 3)[3] == f"{STRUCK}, weil Spiel 2 genehmigt wurde."
    desk.screenshot("desk-effect-approved")
    # the sheet with its new action "Anmeldung zurücknehmen" still fits a desk's screen (the walk
    # found it pushed off to the right, behind a scroll bar)
    assert desk.driver.execute_script(
        "const c = document.querySelector('#sheet .table-container'); return c.scrollWidth <= c.clientWidth;"
    )

    # Withdrawn: game 6 counts again, said on screen and in the history.
    click_in_row(desk, 2, "Anmeldung zurücknehmen")
    text = answered(desk, "zurückgezogen")
    assert f"{COUNTS}, weil die Genehmigung von Spiel 2 zurückgezogen wurde." in text
    assert "struck" not in game_6(desk).get_attribute("class")
    assert f"{COUNTS}, weil die Genehmigung von Spiel 2 zurückgezogen wurde." in history(desk)[0]

    # Game 5 changed into a Solo: game 6 is the fifth again; game 5 deleted: it counts again.
    type_game(desk, "ä5", 5)
    type_game(desk, "sg1+", 7)
    assert f"{STRUCK}, weil Spiel 5 geändert wurde." in answered(desk, "geändert")
    assert "struck" in game_6(desk).get_attribute("class")
    assert f"{STRUCK}, weil Spiel 5 geändert wurde." in history(desk)[0]
    click_in_row(desk, 5, "löschen")
    desk.driver.switch_to.alert.accept()
    assert f"{COUNTS}, weil Spiel 5 gelöscht wurde." in answered(desk, "gelöscht wurde")
    assert "struck" not in game_6(desk).get_attribute("class")
    assert f"{COUNTS}, weil Spiel 5 gelöscht wurde." in history(desk)[0]
    desk.screenshot("desk-effect-deleted")
    game = GameEntry.objects.get(number=6)
    assert not game.struck and game.points == (-2, -2, -2, 6)
