"""The phone's column headers at a small phone's width (issue 28, 16): a surname breaks between
its words (or after a hyphen), or is cut short with an ellipsis, never inside a word ("Hube r")."""

import pytest
from selenium.webdriver.common.by import By

from tournament.draw import services as draw_service
from tournament.models import Participant, Scoresheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 780, "deviceScaleFactor": 3, "mobile": True}
NAMES = [
    "Huber, Sepp",
    "Nußbaumer, Hias",
    "Obermaier-Schwarzenberger, Resi",
    "Franz Xaver Großhuber-Weißenbacher",
    "Wimmer, Lisl",
]

# Where each header's text goes on to a new line: the characters either side of each break.
BREAKS = """
return [...document.querySelectorAll('#sheet thead th.p .who')].map(who => {
  const text = who.firstChild, breaks = [];
  let before = null;
  for (let i = 0; i < text.length; i++) {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect) continue;
    const at = text.data.slice(0, i) + '|' + text.data.slice(i);
    if (before !== null && rect.top > before + 1) breaks.push(at);
    before = rect.top;
  }
  const th = who.closest('th');
  return [text.data, breaks, th.scrollWidth <= th.clientWidth, who.scrollWidth <= who.clientWidth];
});
"""


@pytest.mark.parametrize("players", [8, 9])  # tables of four; a table of five, its columns narrower
def test_the_phone_heads_its_columns_without_breaking_a_word(
    phone, tournament, organiser, add_players, players
):
    add_players(tournament, players)
    draw_service.draw_all(organiser, tournament, seed="fuenf")
    sheet = Scoresheet.objects.get(match__tournament=tournament, match__number=1, table__number=2)
    for seat, name in zip(sheet.table.seats.order_by("position"), NAMES, strict=False):
        Participant.objects.filter(pk=seat.participant_id).update(name=name)
    phone.get(f"/tisch/{sheet.code}/")
    phone.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", SMALL_PHONE)
    phone.wait_text("#sheet .keeper", "Schreiber")
    assert len(phone.driver.find_elements(By.CSS_SELECTOR, "#sheet thead th.p")) == sheet.size
    headers = phone.driver.execute_script(BREAKS)
    phone.screenshot(f"table-headers-{sheet.size}")
    for text, breaks, fits, _whole in headers:
        inside = [
            b for b in breaks if not (b.split("|")[0].endswith((" ", "-")) or b.split("|")[1].startswith(" "))
        ]
        assert not inside, f"{text!r} broken inside a word: {inside}"
        assert fits, f"{text!r} runs out of its column"
    assert [text for text, *_rest in headers] == [
        "Huber",
        "Nußbaumer",
        "Obermaier-Schwarzenberger",
        "Großhuber-Weißenbacher",
        "Wimmer",
    ][: sheet.size]
    assert headers[0][3], "a short surname (Huber) heads its column whole"
    assert headers[2][1] == ["Obermaier-|Schwarzenberger"]  # the name's two words, a line each
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 360
