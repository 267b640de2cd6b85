"""Random sequences of entries, changes, deletions and approvals through the service: every game
sums to zero, and what the sheet stores (entries, the seats' points and tie-break counts) equals
the sum of its entries and what the rules engine computes."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Contract
from tests.scoring.strategies import entries
from tournament.draw import services as draw_service
from tournament.models import Approval, GameEntry, LogEntry, Scoresheet, Seat
from tournament.results import services as service
from tournament.results.store import TALLY_FIELDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(tournament, organiser, add_players):
    add_players(tournament, 4)
    draw_service.draw_all(organiser, tournament, seed="zufall")
    return Scoresheet.objects.get(match__number=1)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_sequences_keep_the_sheet_consistent(sheet, supervisor, data):
    GameEntry.objects.filter(scoresheet=sheet).delete()
    Approval.objects.filter(scoresheet=sheet).delete()
    LogEntry.objects.filter(scoresheet=sheet).delete()
    numbers = data.draw(st.lists(st.integers(1, 32), unique=True, max_size=12))
    for number in numbers:
        if data.draw(st.integers(0, 3)) == 0:
            # A Sie in game 1 cannot count, so it is never approved there (RULINGS 5: refused).
            contracts = ["solo", "wenz", "solo_tout", "wenz_tout"] + (["sie"] if number > 1 else [])
            contract = data.draw(st.sampled_from(contracts))
            service.approve(supervisor, sheet, number, contract)
        entry = data.draw(entries(number))
        if number == 1 and getattr(entry, "contract", None) is Contract.SIE:
            continue
        sheet.refresh_from_db()
        service.save_entry(supervisor, sheet, entry, sheet.version)
        action = data.draw(st.integers(0, 5))
        if action == 0:
            service.delete_entry(supervisor, sheet, number, None)
        elif action == 1 and sheet.approvals.filter(number=number).exists():
            service.withdraw_approval(supervisor, sheet, number)
    stored = list(GameEntry.objects.filter(scoresheet=sheet))
    assert len(stored) == len({e.number for e in stored})
    assert all(sum(e.points) == 0 for e in stored)
    engine = service.score(sheet)
    assert engine.problems == () or all(p.code == "game_missing" for p in engine.problems)
    for seat in range(4):
        assert engine.totals[seat] == sum(e.points[seat] for e in stored)
    assert {e.number: e.points for e in stored} == {row.number: row.scored.points for row in engine.rows}
    seats = {seat.position: seat for seat in Seat.objects.filter(table=sheet.table)}
    for position, seat in seats.items():
        assert seat.points == sum(e.points[position - 1] for e in stored)
        tally = engine.tallies[position - 1]
        assert [getattr(seat, f) for f in TALLY_FIELDS] == [getattr(tally, f) for f in TALLY_FIELDS]
    sheet.refresh_from_db()
    assert sheet.status == ("complete" if engine.complete else "open")
