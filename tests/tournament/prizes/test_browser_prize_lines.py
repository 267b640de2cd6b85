"""The prize declaration at a laptop's screen (issue 28, 16): the table of prize lines, with an
error under a line and goods of some length, fits 1366 × 768 without scrolling sideways."""

from decimal import Decimal

import pytest

from tournament.prizes import services
from tournament.prizes.reckoning import Line

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = """
const page = document.documentElement, table = document.querySelector('table.prize-lines');
const box = table.closest('.table-container');
return [page.scrollWidth, page.clientWidth, box.scrollWidth, box.clientWidth, table.offsetWidth];
"""


def test_the_prize_lines_fit_a_laptop_screen(desk, tournament, organiser, add_players):
    add_players(tournament, 16)
    values = {
        "entry_fee": Decimal(10),
        "charity_per_entry": Decimal(0),
        "charity_name": "",
        "payout_percent": Decimal(100),
    }
    lines = [
        Line(1, "range", 1, 3, "amount", Decimal(20)),
        Line(2, "range", 4, 6, "share", share=Decimal(5)),
        Line(3, "middle", kind="goods", goods="Brotzeit für zwei im Gasthaus zur Post"),
        Line(4, "last", kind="goods", goods="Holzlöffel"),
    ]
    services.declare(organiser, tournament, values, lines)
    desk.driver.set_window_size(1366, 768)
    desk.login(organiser)
    desk.get(f"/manage/{tournament.slug}/prizes/")
    desk.find("table.prize-lines")
    page, seen, box, shown, table = desk.driver.execute_script(FITS)
    desk.driver.execute_script("document.querySelector('table.prize-lines').scrollIntoView()")
    desk.screenshot("prize-lines-1366")
    assert seen <= 1366 and page <= seen, f"the page scrolls sideways: {page} px in {seen}"
    assert box <= shown, f"the prize lines scroll sideways: {box} px in {shown} (table {table} px)"
