"""Random sequences of entries through the service: every game sums to zero and the sheet's
stored totals equal the sum of its entries and the rules engine's totals."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Contract
from tests.scoring.strategies import entries
from tournament.draw import services as draw_service
from tournament.models import Approval, EntryHistory, GameEntry, Scoresheet
from tournament.results import services as service

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
    EntryHistory.objects.filter(scoresheet=sheet).delete()
    numbers = data.draw(st.lists(st.integers(1, 32), unique=True, max_size=12))
    for number in numbers:
        if data.draw(st.integers(0, 3)) == 0:
            contract = data.draw(st.sampled_from(["solo", "wenz", "solo_tout", "wenz_tout", "sie"]))
            service.approve(supervisor, sheet, number, contract)
        entry = data.draw(entries(number))
        if number == 1 and getattr(entry, "contract", None) is Contract.SIE:
            continue
        sheet.refresh_from_db()
        service.save_entry(supervisor, sheet, entry, sheet.version)
    stored = list(GameEntry.objects.filter(scoresheet=sheet))
    assert len(stored) == len({e.number for e in stored})
    assert all(sum(e.points) == 0 for e in stored)
    engine = service.score(sheet)
    assert engine.problems == () or all(p.code == "game_missing" for p in engine.problems)
    for seat in range(4):
        assert engine.totals[seat] == sum(e.points[seat] for e in stored)
    assert {e.number: e.points for e in stored} == {row.number: row.scored.points for row in engine.rows}
