"""A stored total changed in the database behind the app's back (issue 27, item 9): the staff
and public standings, a participant's page and the dashboard warn, and neither the memo of the
standings nor the visitors' kept pages go on giving the old standings."""

import pytest
from django.db import connection
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from tournament.draw.models import Seat
from tournament.results import integrity
from tournament.results.models import GameEntry
from tournament.standings import standings

pytestmark = pytest.mark.django_db

GAME = Game(1, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.WON)
WARNING = "gespeicherte Summen von Tisch 1, Durchgang 1 stimmen nicht mit den Spielen überein"


def raw(sql: str, *params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def points_of(page: str, number: int) -> str:
    """The row of start number ``number`` in a standings page."""
    start = page.index(f'href="/t/kirchweih/p/{number}/"')
    return page[start : page.index("</tr>", start)]


@pytest.fixture
def entered(drawn, referee, sheet_of, enter, settings):
    settings.STANDINGS_FRESH_SECONDS = 0  # the stored totals read at every look
    sheet = sheet_of(drawn, 1, 1)
    enter(referee, sheet, GAME)
    return sheet


def seat_one(sheet) -> Seat:
    return Seat.objects.get(table=sheet.table, position=1)


def test_a_seat_total_changed_with_sql_shows_everywhere_and_the_standings_follow(client, entered, organiser):
    seat = seat_one(entered)
    url = f"/t/{entered.match.tournament.slug}/standings/"
    before = client.get(url).content.decode()  # kept for visitors, and in the memo
    assert WARNING not in before
    client.force_login(organiser)
    staff_url = reverse("organiser:standings", args=[entered.match.tournament.slug])
    assert WARNING not in client.get(staff_url).content.decode()
    number = seat.participant.number
    raw("UPDATE tournament_seat SET points = points + 500 WHERE id = %s", seat.pk)

    staff = client.get(staff_url).content.decode()
    assert WARNING in staff and "manage.py verify kirchweih" in staff
    assert str(seat.points + 500) in points_of(staff, number)  # what the database holds now
    dashboard = client.get(reverse("organiser:dashboard", args=["kirchweih"])).content.decode()
    assert WARNING in dashboard
    client.logout()
    public = client.get(url).content.decode()  # the kept page is not given
    assert WARNING in public and "Bitte die Turnierleitung informieren" in public
    assert str(seat.points + 500) in points_of(public, number)
    assert WARNING in client.get(f"{url}1/").content.decode()
    assert WARNING in client.get(f"/t/kirchweih/p/{number}/").content.decode()
    # Put back as it was: the warning goes, as do the changed standings.
    raw("UPDATE tournament_seat SET points = points - 500 WHERE id = %s", seat.pk)
    again = client.get(url).content.decode()
    assert WARNING not in again and points_of(again, number) == points_of(before, number)


def test_a_games_points_changed_with_sql_are_found(client, entered):
    entry = GameEntry.objects.get(scoresheet=entered, number=1)
    sql = "UPDATE tournament_gameentry SET points_2 = points_2 + 10, points_3 = points_3 - 10 WHERE id = %s"
    raw(sql, entry.pk)  # still sums to zero (the database checks that)
    assert WARNING in client.get("/t/kirchweih/standings/").content.decode()


def test_a_tie_break_count_changed_with_sql_is_found_by_verifys_check(client, entered):
    """A count the games' points do not show: the process saw the sheet before, its version
    stayed, its stored values changed, so verify's check is run on it."""
    url = "/t/kirchweih/standings/"
    assert WARNING not in client.get(url).content.decode()
    raw("UPDATE tournament_seat SET solo_played = solo_played + 1 WHERE id = %s", seat_one(entered).pk)
    assert WARNING in client.get(url).content.decode()
    assert standings.compute(entered.match.tournament).differing == ((1, 1),)


def test_a_write_through_the_services_is_not_checked_again(entered, referee, enter, monkeypatch):
    """A sheet whose version the services raised holds (store_scored writes every value that
    differs from the engine's): verify's check is not run on it, a change behind the app's
    back is."""
    tournament = entered.match.tournament.pk
    assert integrity.read(tournament).differing == ()
    checked = []
    monkeypatch.setattr(integrity, "check", lambda loaded: checked.append(loaded.sheet.pk) or [])
    enter(referee, entered, Game(2, Contract.RUFER, 2, suit=Suit.GRAS, partner=3, result=Result.LOST))
    assert integrity.read(tournament).differing == () and checked == []
    raw("UPDATE tournament_seat SET sie = sie + 1 WHERE id = %s", seat_one(entered).pk)
    integrity.read(tournament)
    assert checked == [entered.pk]


def test_the_stored_totals_are_read_at_most_every_window(
    client, drawn, settings, django_assert_max_num_queries, monkeypatch
):
    """Between two reads a kept visitor's page still costs its two queries."""
    settings.STANDINGS_FRESH_SECONDS = 10
    url = f"/t/{drawn.slug}/standings/"
    client.get(url)
    with django_assert_max_num_queries(2):
        client.get(url)
