"""Two referees on one sheet: never a lost update, never two entries with one game number."""

import threading
import time

import pytest
from django.db import connection, transaction

from scoring import Contract, Game, Result, Suit
from tournament.draw import services as draw_service
from tournament.models import GameEntry, Scoresheet
from tournament.results import services as service
from tournament.tournaments.audit import raise_results_version

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks are PostgreSQL's; SQLite serialises writers"
)


@pytest.fixture
def sheet(tournament, organiser, add_players):
    add_players(tournament, 4)
    draw_service.draw_all(organiser, tournament, seed="zwei")
    return Scoresheet.objects.get(match__number=1)


def in_thread(target, results, key):
    def run():
        try:
            results[key] = target()
        except Exception as error:  # the test inspects what each transaction met
            results[key] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_save_waits_for_the_lock_and_is_refused_as_stale(sheet, referee):
    """Transaction A holds the sheet and saves; B loaded the page before and saves meanwhile.
    B must wait for A and then be refused, not overwrite A's work."""
    locked, results = threading.Event(), {}

    def first():
        with transaction.atomic():
            row = Scoresheet.objects.select_for_update().get(pk=sheet.pk)
            locked.set()
            time.sleep(0.5)  # B arrives while A still holds the row
            GameEntry.objects.create(
                scoresheet=row,
                number=1,
                contract="rufer",
                suit="eichel",
                declarer=1,
                partner=3,
                result="won",
                points_1=1,
                points_2=-1,
                points_3=1,
                points_4=-1,
            )
            Scoresheet.objects.filter(pk=row.pk).update(version=row.version + 1)
        return "saved"

    def second():
        locked.wait(5)
        game = Game(1, Contract.SOLO, 2, suit=Suit.HERZ, result=Result.WON)
        return service.save_entry(referee, sheet, game, expected_version=0)

    threads = [in_thread(first, results, "a"), in_thread(second, results, "b")]
    for thread in threads:
        thread.join(10)
    assert results["a"] == "saved"
    assert isinstance(results["b"], service.StaleSheet)
    assert list(GameEntry.objects.values_list("contract", flat=True)) == ["rufer"]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_referees_saving_the_same_game_at_once(sheet, referee, supervisor):
    start, results = threading.Barrier(2), {}

    def save(declarer):
        def run():
            start.wait(5)
            game = Game(1, Contract.SOLO, declarer, suit=Suit.GRAS, result=Result.WON)
            return service.save_entry(referee, sheet, game, expected_version=0)

        return run

    threads = [in_thread(save(1), results, "a"), in_thread(save(2), results, "b")]
    for thread in threads:
        thread.join(10)
    outcomes = sorted(type(r).__name__ for r in results.values())
    assert outcomes == ["GameEntry", "StaleSheet"]
    assert GameEntry.objects.count() == 1
    sheet.refresh_from_db()
    assert sheet.version == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_redraw_and_an_entry_at_once_wait_for_each_other_without_deadlock(sheet, organiser, supervisor):
    """The entry holds its sheet and then takes the tournament's row (the results version); the
    redraw must take the sheets before the tournament's row, or PostgreSQL finds a deadlock."""
    from tournament.results.store import locked_sheet

    locked, results = threading.Event(), {}

    def entry():
        with transaction.atomic():
            row = locked_sheet(sheet)
            locked.set()
            time.sleep(0.5)  # the redraw arrives while the entry holds the sheet
            raise_results_version(row.match.tournament)  # the tournament's row, as a write's record does
        return "entered"

    def redraw():
        locked.wait(5)
        return draw_service.draw_all(organiser, sheet.match.tournament, seed="neu", discard_results=True)

    threads = [in_thread(entry, results, "entry"), in_thread(redraw, results, "draw")]
    for thread in threads:
        thread.join(15)
    assert results["entry"] == "entered"
    assert isinstance(results["draw"], list), results["draw"]
