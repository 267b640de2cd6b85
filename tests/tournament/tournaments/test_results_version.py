"""Invalidation in one place (issue 26): every action of the log declares whether it changes
the standings, and recording one that does raises the tournament's results version, which
every cache of the standings follows. No service raises it by hand."""

import json
import re
from pathlib import Path

import pytest
from django.db import transaction
from django.urls import reverse

from scoring import Contract, Game, Result, Sanction, Suit
from tests.tournament.helpers import results_moved, results_version
from tournament.checkin import services as checkin
from tournament.draw import services as draw_service
from tournament.models import LogEntry, Participant, Scoresheet
from tournament.participants import registration
from tournament.participants import services as participant_service
from tournament.participants import teams as team_service
from tournament.results import services as sheet_service
from tournament.results import signing, substitutes
from tournament.standings import lots as lots_service
from tournament.tablephone import supervisor as phone_service
from tournament.teams.lots import draw_team_lots
from tournament.tournaments import services as tournament_service
from tournament.tournaments.audit import record, version_raised_last
from tournament.tournaments.models import ACTIONS

pytestmark = pytest.mark.django_db

SOURCE = Path(__file__).resolve().parents[3] / "tournament"


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_recording_an_action_moves_the_version_exactly_when_it_changes_the_standings(
    action, tournament, organiser
):
    declared = ACTIONS[action]
    with results_moved(tournament, moved=declared.standings):
        record(tournament, organiser, action)
    assert LogEntry.objects.filter(action=action).count() == 1


def test_an_undeclared_action_is_refused_and_moves_nothing(tournament, organiser):
    with results_moved(tournament, moved=False), pytest.raises(ValueError, match="declare it in ACTIONS"):
        record(tournament, organiser, "entry.burnt")
    assert not LogEntry.objects.exists()


def test_an_action_must_say_whether_it_changes_the_standings():
    """``Action`` has no default: a new action written without saying fails at import."""
    from tournament.tournaments.models import Action

    with pytest.raises(TypeError):
        Action("tournament burnt")  # type: ignore[call-arg]


def test_no_service_raises_the_version_by_hand():
    """Only the log's record raises it (``audit``); the bench simulates a write with it."""
    allowed = {SOURCE / "tournaments" / "audit.py", SOURCE / "bench" / "pages.py"}
    hand_placed = [
        str(path.relative_to(SOURCE))
        for path in SOURCE.rglob("*.py")
        if path not in allowed
        and "migrations" not in path.parts
        and re.search(r"raise_results_version|results_changed|results_version\s*=\s*F\(", path.read_text())
    ]
    assert hand_placed == []


# Writes of every kind through their services, each on a tournament of eight players with both
# matches drawn and no game entered (``drawn``).


def _game(number=1):
    return Game(number, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.WON)


def _participant(tournament, number):
    return Participant.objects.get(tournament=tournament, number=number)


def _with_game(t, sheet):
    sheet_service.save_entry(t.referee, sheet, _game(), sheet.version)
    sheet.refresh_from_db()


WRITES = {
    "game entered": lambda t, sheet: sheet_service.save_entry(t.referee, sheet, _game(), sheet.version),
    "game changed": (
        _with_game,
        lambda t, sheet: sheet_service.save_entry(
            t.referee, sheet, Game(1, Contract.WENZ, 3, result=Result.WON), sheet.version, replace=True
        ),
    ),
    "game deleted": (
        _with_game,
        lambda t, sheet: sheet_service.delete_entry(t.referee, sheet, 1, sheet.version),
    ),
    "sanction": lambda t, sheet: sheet_service.save_entry(
        t.supervisor, sheet, Sanction(1, Contract.RUFER, 1, liable=2, partner=3), sheet.version
    ),
    "approval given": lambda t, sheet: sheet_service.approve(t.supervisor, sheet, 2, "sie"),
    "approval withdrawn": (
        lambda t, sheet: sheet_service.approve(t.supervisor, sheet, 2, "sie"),
        lambda t, sheet: sheet_service.withdraw_approval(t.supervisor, sheet, 2),
    ),
    "substitute": lambda t, sheet: substitutes.substitute(
        t.organiser, _participant(t.tournament, 3), "Ersatz, Hans", 2
    ),
    "participant registered": lambda t, sheet: participant_service.add_participant(
        t.organiser, t.tournament, name="Neu, Hans"
    ),
    "participant renamed": lambda t, sheet: participant_service.update_participant(
        t.organiser, _participant(t.tournament, 2), name="Umbenannt"
    ),
    "participant withdrawn": lambda t, sheet: participant_service.set_status(
        t.organiser, t.tournament, [_participant(t.tournament, 5)], "withdrawn"
    ),
    "registration list imported": lambda t, sheet: participant_service.import_participants(
        t.organiser, t.tournament, [registration.RegistrationRow(1, None, "Import, Vroni", "", None)]
    ),
    "checked in": lambda t, sheet: checkin.check_in(t.organiser, _participant(t.tournament, 1)),
    "check-in undone": (
        lambda t, sheet: checkin.check_in(t.organiser, _participant(t.tournament, 1)),
        lambda t, sheet: checkin.check_in(t.organiser, _participant(t.tournament, 1), present=False),
    ),
    "marked as not come": lambda t, sheet: checkin.mark_no_show(t.organiser, _participant(t.tournament, 4)),
    "redraw of a match": lambda t, sheet: draw_service.draw_one(t.organiser, t.tournament, 2, seed="neu"),
    "redraw of all matches": lambda t, sheet: draw_service.draw_all(t.organiser, t.tournament, seed="neu"),
    "lots": lambda t, sheet: lots_service.draw_lots(t.organiser, t.tournament, seed="los"),
    "team created": lambda t, sheet: team_service.create_team(t.organiser, t.tournament, "Au"),
    "placed in a team": (
        lambda t, sheet: setattr(t, "team", team_service.create_team(t.organiser, t.tournament, "Au")),
        lambda t, sheet: team_service.assign(
            t.organiser, t.tournament, t.team, [_participant(t.tournament, 1)]
        ),
    ),
    "team lots": (
        lambda t, sheet: [
            team_service.assign(
                t.organiser,
                t.tournament,
                team_service.create_team(t.organiser, t.tournament, name),
                [_participant(t.tournament, n) for n in numbers],
            )
            for name, numbers in (("Au", (1, 2)), ("Berg", (3, 4)))
        ],
        lambda t, sheet: draw_team_lots(t.organiser, t.tournament, seed="los"),
    ),
    "tournament changed": lambda t, sheet: tournament_service.update_tournament(
        t.organiser, t.tournament, name="Kirchweih 2026"
    ),
}


class Staff:
    def __init__(self, **people):
        self.__dict__.update(people)


@pytest.mark.parametrize("kind", list(WRITES))
def test_every_kind_of_write_moves_the_version(kind, drawn, organiser, supervisor, referee, sheet_of):
    staff = Staff(tournament=drawn, organiser=organiser, supervisor=supervisor, referee=referee)
    steps = WRITES[kind]
    before, write = steps if isinstance(steps, tuple) else (None, steps)
    sheet = sheet_of(drawn, 1, 1)
    if before is not None:
        before(staff, sheet)
        sheet = sheet_of(drawn, 1, 1)
    with results_moved(drawn):
        write(staff, sheet)


def test_a_game_from_the_tables_phone_moves_the_version(client, drawn, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    with results_moved(drawn):
        response = client.post(
            reverse("table:send", args=[sheet.code]),
            json.dumps({"key": "v" * 16, "action": "game", "data": {"number": 1, "notation": "re13+"}}),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )
        assert response.json()["ok"], response.json()


def test_a_refused_write_moves_nothing(drawn, referee, sheet_of):
    sheet = sheet_of(drawn, 1, 1)
    with results_moved(drawn, moved=False), pytest.raises(sheet_service.StaleSheet):
        sheet_service.save_entry(referee, sheet, _game(), sheet.version + 5)


def test_writes_beside_the_standings_leave_the_version(drawn, organiser, referee, sheet_of):
    """The entry fee, a renewed table code: the standings stay as they were."""
    sheet = sheet_of(drawn, 1, 1)
    with results_moved(drawn, moved=False):
        checkin.set_fee_paid(organiser, _participant(drawn, 1), True)
        phone_service.renew_code(referee, sheet)


def test_signing_moves_the_version_when_the_last_signature_locks_the_sheet(played, referee, sheet_of, sign):
    sheet = sheet_of(played, 1, 1)
    with results_moved(played, moved=False):  # a signature alone changes no standings
        sign(referee, sheet, positions=(1, 2, 3))
    with results_moved(played):
        sign(referee, sheet, positions=(4,))
    assert Scoresheet.objects.get(pk=sheet.pk).status == Scoresheet.Status.SIGNED


def test_a_correction_and_a_void_sheet_move_the_version(played, referee, supervisor, sheet_of, sign):
    sheet = sign(referee, sheet_of(played, 1, 1))
    with results_moved(played):
        signing.correct(supervisor, sheet, _game(2), "Zahlendreher")
    with results_moved(played):
        signing.declare_void(supervisor, sheet_of(played, 1, 2), "unleserlich")
    assert results_version(played) > 0


@pytest.mark.django_db(transaction=True)
def test_a_write_that_raises_last_raises_once_at_its_end(tournament, organiser):
    """version_raised_last: the records inside raise the version once, on the way out (the
    tournament's row locked only from then to the commit); an error raises nothing."""
    start = results_version(tournament)
    with transaction.atomic(), version_raised_last():
        record(tournament, organiser, "entry.create", game=1)
        record(tournament, organiser, "entry.rescored", game=6)
        assert results_version(tournament) == start  # not yet: raised last
    assert results_version(tournament) == start + 1
    with pytest.raises(RuntimeError), transaction.atomic(), version_raised_last():
        record(tournament, organiser, "entry.create", game=2)
        raise RuntimeError("refused")
    assert results_version(tournament) == start + 1
    record(tournament, organiser, "entry.create", game=3)  # outside the block: at once
    assert results_version(tournament) == start + 2
