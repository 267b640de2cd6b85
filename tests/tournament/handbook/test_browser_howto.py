"""The table phone's "So geht's" (issue 31) in a real browser: open for the first game, folded
once the first game is on the sheet, and the header's Hilfe leads to the players' part."""

import pytest
from selenium.webdriver.common.by import By

from ..tablephone.test_browser_table import tap_starting

pytestmark = pytest.mark.django_db(transaction=True)


def test_how_it_works_is_open_for_the_first_game_and_folds_after_it(phone, drawn, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    phone.get(f"/tisch/{sheet.code}/")
    phone.wait_text("#entry-title", "Spiel 1")
    howto = phone.find("details.howto")
    assert howto.get_attribute("open") is not None
    assert "Tippt das Spiel an" in howto.text
    for button in ("Sauspiel Eichel", "1 ·", "3 ·", "gewonnen", "keins"):
        tap_starting(phone, button)
    phone.wait_for(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#sheet tr[data-game='1']"))
    phone.wait_for(
        lambda driver: driver.find_element(By.CSS_SELECTOR, "details.howto").get_attribute("open") is None
    )
    phone.find("details.howto summary").click()  # one tap opens it again, and it stays open
    phone.wait_text("#entry-title", "Spiel 2")
    assert phone.find("details.howto").get_attribute("open") is not None
    phone.find(".bar .help-link").click()
    phone.wait_text("main", "Ein Spiel eintragen")
    assert phone.driver.current_url.endswith("/hilfe/spieler/#eintragen")
