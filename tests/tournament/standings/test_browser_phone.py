"""What players use on their phones (390 px), in a real browser: no page wider than the screen,
even with one long unbroken name; the points column in view; a participant's page that
refreshes by itself while the tournament runs (issue 14, finding 12)."""

import pytest

from tournament.demo import generator
from tournament.draw import services as draw_service
from tournament.models import Participant
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Hinterhuberoberkirchnerunterschleißheimermaximiliankorbinianxaver"  # no place to break

# The phone's own width (a mobile browser widens the layout to fit content that overflows, so
# innerWidth alone would not tell), and every element sticking out beyond it, but for those
# inside a box that scrolls sideways on purpose (wide tables).
FITS = """
const screenWidth = screen.width;
const scrolls = el => {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return true;
  }
  return false;
};
const out = Array.from(document.body.querySelectorAll("*")).filter(el => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.right > screenWidth + 1 && !scrolls(el);
}).map(el => el.tagName + "." + el.className + " " + (el.textContent || "").trim().slice(0, 30));
return {width: document.documentElement.scrollWidth, screen: screenWidth, out: out.slice(0, 5)};
"""


@pytest.fixture
def running(tournament, organiser, add_players):
    add_players(tournament, 8)
    Participant.objects.filter(number=5).update(
        name=LONG, club="Schafkopffreunde-Unterschleißheim-Lohhof-Süd"
    )
    draw_service.draw_all(organiser, tournament, seed="handy")
    return tournament


def assert_fits(browser, what):
    size = browser.driver.execute_script(FITS)
    assert size["width"] <= size["screen"] and not size["out"], (what, size)


def test_public_pages_fit_a_phone_with_a_long_name(phone, running):
    slug = running.slug
    for path in (f"/t/{slug}/", f"/t/{slug}/standings/", f"/t/{slug}/p/5/", f"/t/{slug}/qr/"):
        phone.get(path)
        assert_fits(phone, path)
        phone.screenshot("phone" + path.replace("/", "-"))
    phone.get(f"/t/{slug}/standings/")
    points = phone.find("#p5 td.points, #p5 td:nth-child(4)")
    phone.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", points)
    assert phone.in_view(points)  # the points, not pushed off to the right by the name


def test_a_participants_page_refreshes_itself_while_the_tournament_runs(phone, running, monkeypatch):
    monkeypatch.setattr("tournament.tournaments.access.POLL_SECONDS", 2)
    phone.get(f"/t/{running.slug}/p/5/")
    assert phone.find("[hx-trigger]").get_attribute("hx-trigger").startswith("every ")
    before = phone.find("main").text
    generator.fill_results(COMMAND_LINE, running, __import__("random").Random(5))
    phone.wait_for(lambda d: d.find_element("css selector", "main").text != before, seconds=20)
    assert "Endstand" in phone.find("main").text  # games arrived without a reload


def test_staff_pages_fit_a_phone(phone, running, organiser):
    phone.login(organiser)
    slug = running.slug
    for path in (
        f"/manage/{slug}/",
        f"/manage/{slug}/participants/",
        f"/manage/{slug}/draw/",
        f"/manage/{slug}/lists/seats/",
        f"/manage/{slug}/lists/tables/1/",
        f"/manage/{slug}/staff/",
        f"/referee/{slug}/match/1/",
        f"/referee/{slug}/match/1/table/1/",
    ):
        phone.get(path)
        assert_fits(phone, path)
        phone.screenshot("phone-staff" + path.replace("/", "-"))
