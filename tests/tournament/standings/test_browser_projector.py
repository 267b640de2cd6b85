"""The projector in a real browser: at the hall's usual screen sizes every rank is on screen on
exactly one page, the rows fill the screen, and nothing scrolls (issue 14, finding 4)."""

import pytest
from selenium.webdriver.common.keys import Keys

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_STATE = """
const rows = Array.from(document.querySelectorAll("tbody tr"));
const shown = rows.filter(r => !r.hidden);
const padding = parseFloat(getComputedStyle(document.body).paddingBottom) || 0;
const next = rows[rows.indexOf(shown[shown.length - 1]) + 1];
return {
  numbers: shown.map(r => r.children[1].textContent.trim()),
  inside: shown.every(r => {
    const b = r.getBoundingClientRect();
    return b.top >= 0 && b.bottom <= innerHeight;
  }),
  lastBottom: shown[shown.length - 1].getBoundingClientRect().bottom,
  rowHeight: shown[0].getBoundingClientRect().height,
  room: innerHeight - padding,
  scrolls: document.documentElement.scrollHeight > innerHeight
    || document.documentElement.scrollWidth > innerWidth,
  page: document.documentElement.dataset.page,
  pages: document.documentElement.dataset.pages,
  hasNext: Boolean(next),
};
"""


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768), (1920, 1080)])
def test_every_rank_is_on_screen_on_exactly_one_page(desk, tournament, add_players, size):
    players = add_players(tournament, 61)
    players[7].name = "Hinterhuber-Oberkirchner-Unterschleißheimer, Maximilian-Korbinian-Xaver"
    players[7].save()
    width, height = size
    desk.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    desk.get(f"/t/{tournament.slug}/projector/")
    desk.wait_for(lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")
    seen = []
    state = desk.driver.execute_script(PAGE_STATE)
    pages = int(state["pages"])
    assert pages >= 2
    for number in range(1, pages + 1):
        assert state["page"] == str(number)
        assert state["inside"], (size, number, state)
        assert not state["scrolls"], (size, number, state)
        if number < pages:  # full: one more row would not have fitted
            assert state["lastBottom"] + state["rowHeight"] > state["room"], (size, number, state)
        seen += state["numbers"]
        desk.screenshot(f"projector-{width}x{height}-page-{number}")
        desk.find("body").send_keys(Keys.ARROW_RIGHT)
        state = desk.driver.execute_script(PAGE_STATE)
    assert sorted(seen, key=int) == [str(p.number) for p in players]  # each once, none missing
    assert state["page"] == "1"  # round again


def test_the_projector_at_phone_width_shows_the_points_without_scrolling(phone, tournament, add_players):
    add_players(tournament, 20)
    phone.get(f"/t/{tournament.slug}/projector/")
    phone.wait_for(lambda d: d.execute_script("return document.documentElement.dataset.ready") == "1")
    state = phone.driver.execute_script(PAGE_STATE)
    assert state["inside"] and not state["scrolls"], state
    headers = [th.text for th in phone.driver.find_elements("css selector", "thead th") if th.is_displayed()]
    assert headers == ["Rang", "Nr.", "Name", "Pkt."], headers
    phone.screenshot("projector-phone")
