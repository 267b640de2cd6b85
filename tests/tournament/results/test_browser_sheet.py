"""The referee's sheet in a real browser: games typed from the keyboard, the answer beside the
entry field, the totals as the engine computes them."""

import pytest
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
