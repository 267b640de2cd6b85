"""A redraw over results in a real browser with the roles as the README gives them (issue 28,
item 1): the organiser asks on the draw page, the supervisor finds the request on the board of
the match, confirms discarding the results on the draw page, and the new tables are shown, with
the reminder to print the new table cards (item 13). Nobody changes his roles."""

import pytest
from selenium.webdriver.common.by import By

from scoring import Contract, Game, Result, Suit
from tournament.draw import services as draw_service
from tournament.models import GameEntry, LogEntry, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seating(match):
    return [
        [s.participant.number for s in t.seats.order_by("position")] for t in match.tables.order_by("number")
    ]


def test_the_organiser_asks_and_the_supervisor_confirms_the_redraw(
    desk, tournament, add_players, organiser, supervisor, referee, enter, sheet_of
):
    add_players(tournament, 16)
    draw_service.draw_all(organiser, tournament, seed="erst")
    enter(referee, sheet_of(tournament, 1, 1), Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    before = seating(Match.objects.get(tournament=tournament, number=1))
    draw_page = f"/manage/{tournament.slug}/draw/"

    desk.login(organiser)
    desk.get(draw_page)
    row = desk.find(f'form[action="{draw_page}1/ask/"]')
    row.find_element(By.NAME, "seed").send_keys("zweit")
    row.find_element(By.CSS_SELECTOR, "button").click()
    desk.wait_text(".messages", "Um die Neuauslosung von Durchgang 1 ist gebeten")
    assert "Warten auf die Turnierleitung" in desk.find("#redraw-1").text
    desk.screenshot("redraw-asked")

    desk.login(supervisor)
    desk.get(f"/referee/{tournament.slug}/match/1/")
    assert "orga bittet, Durchgang 1" in desk.find("#redraw-request").text
    desk.find("#redraw-request a").click()
    desk.wait_text("#redraw-1", "Verwerfen und neu auslosen")
    desk.screenshot("redraw-to-confirm")
    desk.find("#redraw-1 button[value=confirm]").click()  # the box not ticked: the browser holds it
    assert Match.objects.get(tournament=tournament, number=1).draw == 1
    desk.find("#redraw-1 input[name=discard_results]").click()
    desk.find("#redraw-1 button[value=confirm]").click()
    desk.wait_text(".messages", "Durchgang 1 wurde neu ausgelost")
    assert "neuen Tischkarten drucken" in desk.find(".messages").text

    match = Match.objects.get(tournament=tournament, number=1)
    after = seating(match)
    assert match.draw == 2 and match.seed == "zweit" and after != before
    assert not GameEntry.objects.filter(scoresheet__match=match).exists()
    assert LogEntry.objects.filter(action="draw.match", user=supervisor, data__asked_by="orga").exists()

    desk.get(f"/referee/{tournament.slug}/match/1/")
    assert "neu ausgelost" in desk.find("#new-cards").text
    desk.get(f"/manage/{tournament.slug}/lists/tables/1/")
    cards = desk.driver.find_elements(By.CSS_SELECTOR, ".table-card")
    shown = [[int(n.text) for n in card.find_elements(By.CSS_SELECTOR, ".no")] for card in cards]
    assert shown == after
    desk.screenshot("redraw-new-tables")
