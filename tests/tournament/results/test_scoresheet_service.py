"""The scoresheet service: points, struck and downgraded games, approvals counted per table and
match, sanctions, transcription, versions and history."""

import pytest
from django.core.exceptions import PermissionDenied

from scoring import Contract, Game, Result, Sanction, Suit, Transcribed
from tournament.errors import ServiceError
from tournament.models import GameEntry, LogEntry, Scoresheet
from tournament.results import services as service
from tournament.results.history import log_change

pytestmark = pytest.mark.django_db

WON, LOST = Result.WON, Result.LOST


def solo(n, declarer=1, **kw):
    return Game(n, Contract.SOLO, declarer, suit=Suit.HERZ, result=kw.pop("result", WON), **kw)


def test_a_rufer_is_scored_and_stored(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    saved = enter(referee, sheet, Game(1, Contract.RUFER, 1, Suit.EICHEL, partner=3, result=WON))
    assert saved.points == (1, -1, 1, -1)
    sheet.refresh_from_db()
    assert sheet.version == 1 and sheet.status == "open"
    assert LogEntry.objects.get(scoresheet=sheet).action == "entry.create"


def test_a_refused_game_names_the_game_and_saves_nothing(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    with pytest.raises(ServiceError) as error:
        enter(referee, sheet, Game(1, Contract.SIE, 2))
    assert str(error.value.message) == (
        "Spiel 1: Ein Sie zählt nicht im ersten Spiel eines Durchgangs (2.9.1)."
    )
    with pytest.raises(ServiceError) as error:
        enter(referee, sheet, Game(3, Contract.RUFER, 1, Suit.HERZ, partner=3, result=WON))
    assert "Spiel 3: Die Herz-Sau kann nicht gerufen werden" in str(error.value.message)
    assert not GameEntry.objects.exists()
    sheet.refresh_from_db()
    assert sheet.version == 0


def test_downgraded_and_struck_games(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    first = enter(referee, sheet, Game(1, Contract.SOLO_TOUT, 2, Suit.GRAS, result=WON))
    assert first.downgraded and first.points == (-2, 6, -2, -2)
    tout = enter(referee, sheet, Game(2, Contract.WENZ_TOUT, 3, result=WON))
    assert tout.struck and tout.points == (0, 0, 0, 0)


def test_approval_before_entry_and_after(drawn, referee, supervisor, enter, sheet_of):
    sheet = sheet_of(drawn)
    hand = ["EU", "GU", "HU", "EA", "E10", "GA", "G10", "SA"]
    service.approve(supervisor, sheet, 2, "wenz_tout", hand=hand)
    tout = enter(referee, sheet, Game(2, Contract.WENZ_TOUT, 3, result=WON))
    assert not tout.struck and tout.points == (-6, -6, 18, -6)
    late = enter(referee, sheet, Game(3, Contract.SIE, 4))
    assert late.struck
    service.approve(supervisor, sheet, 3, "sie")
    late.refresh_from_db()
    assert not late.struck and late.points == (-8, -8, -8, 24)
    service.withdraw_approval(supervisor, sheet, 3)
    late.refresh_from_db()
    assert late.struck
    actions = list(
        LogEntry.objects.filter(game__isnull=False).order_by("id").values_list("action", flat=True)
    )
    assert actions == [
        "approval.grant",
        "entry.create",
        "entry.create",
        "approval.grant",
        "approval.withdraw",
    ]


def test_an_approval_called_in_twice_is_recorded_once(drawn, supervisor, sheet_of):
    """From the table and at the board (walk of issue 14): the second says it is done already;
    another contract replaces the first, with both in the history."""
    sheet = sheet_of(drawn)
    service.approve(supervisor, sheet, 2, "solo_tout")
    with pytest.raises(ServiceError, match="Spiel 2 ist schon genehmigt: Solo-Tout, von aufsicht um"):
        service.approve(supervisor, sheet, 2, "solo_tout")
    service.approve(supervisor, sheet, 2, "wenz_tout")
    grants = LogEntry.objects.filter(action="approval.grant").order_by("id")
    assert grants.count() == 2
    assert log_change(grants.last()) == "Solo-Tout → Wenz-Tout"
    assert sheet.approvals.get().contract == "wenz_tout"


def test_approval_of_the_wrong_contract_does_not_count(drawn, referee, supervisor, enter, sheet_of):
    sheet = sheet_of(drawn)
    service.approve(supervisor, sheet, 2, "solo_tout")
    assert enter(referee, sheet, Game(2, Contract.WENZ_TOUT, 3, result=WON)).struck


def test_approvals_are_counted_per_table_and_match(drawn, referee, enter, sheet_of):
    one, two = sheet_of(drawn, table=1), sheet_of(drawn, table=2)
    for n in range(1, 5):
        enter(referee, one, solo(n))
    assert enter(referee, one, solo(5)).struck  # the fifth Solo at table 1
    assert not enter(referee, two, solo(1)).struck  # table 2 counts its own
    other_match = sheet_of(drawn, match=2)
    assert not enter(referee, other_match, solo(5)).struck


def test_changing_an_earlier_game_strikes_a_later_one(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    for n in range(1, 4):
        enter(referee, sheet, solo(n))
    enter(referee, sheet, Game(4, Contract.RUFER, 1, Suit.GRAS, partner=2, result=WON))
    fifth = enter(referee, sheet, solo(5))
    assert not fifth.struck
    enter(referee, sheet, solo(4), replace=True)
    fifth.refresh_from_db()
    assert fifth.struck and fifth.points == (0, 0, 0, 0)
    change = LogEntry.objects.get(action="entry.update")
    assert change.data["before"]["contract"] == "rufer" and change.data["after"]["contract"] == "solo"


def test_only_the_supervisor_enters_sanctions(drawn, referee, supervisor, enter, sheet_of):
    sheet = sheet_of(drawn)
    penalty = Sanction(1, Contract.RUFER, 1, liable=2, partner=3)
    with pytest.raises(PermissionDenied):
        enter(referee, sheet, penalty)
    saved = enter(supervisor, sheet, penalty)
    assert saved.points == (2, -4, 2, 0)
    with pytest.raises(PermissionDenied):  # nor may a referee delete it
        sheet.refresh_from_db()
        service.delete_entry(referee, sheet, 1, sheet.version)


def test_transcribed_rows(drawn, referee, supervisor, enter, sheet_of):
    sheet = sheet_of(drawn)
    assert enter(referee, sheet, Transcribed(1, (-9, 3, 3, 3), 1)).points == (-9, 3, 3, 3)
    with pytest.raises(ServiceError) as error:
        enter(referee, sheet, Transcribed(2, (6, -2, -2, -1), 1))
    assert str(error.value.message) == "Spiel 2: Die vier Zahlen ergeben 1, nicht 0."
    service.approve(supervisor, sheet, 2, "solo_tout")
    row = enter(referee, sheet, Transcribed(2, (18, -6, -6, -6), 1))
    assert not row.struck


def test_a_game_number_is_entered_once(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    enter(referee, sheet, solo(1))
    with pytest.raises(ServiceError) as error:
        enter(referee, sheet, solo(1, declarer=2))
    assert "Spiel 1 ist schon eingetragen" in str(error.value.message)
    assert GameEntry.objects.count() == 1


def test_a_stale_page_is_refused_with_what_is_stored(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    stale_version = sheet.version
    enter(referee, sheet, Game(1, Contract.RUFER, 1, Suit.EICHEL, partner=3, result=WON))
    with pytest.raises(service.StaleSheet) as error:
        service.save_entry(referee, sheet, solo(1), stale_version)
    assert "Sauspiel mit der Eichel-Sau, 1 mit 3: gewonnen" in error.value.details[0]
    assert GameEntry.objects.get().contract == "rufer"


def test_a_complete_sheet(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    for n in range(1, 33):
        enter(
            referee,
            sheet,
            Game(
                n,
                Contract.RUFER,
                n % 4 + 1,
                Suit.SCHELLEN,
                partner=(n + 1) % 4 + 1,
                result=WON if n % 3 else LOST,
            ),
        )
    sheet.refresh_from_db()
    assert sheet.status == "complete"
    score = service.score(sheet)
    assert score.complete and sum(score.totals) == 0
    service.delete_entry(referee, sheet, 32, sheet.version)
    sheet.refresh_from_db()
    assert sheet.status == "open"


def test_void_sheets_take_nothing(drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    Scoresheet.objects.filter(pk=sheet.pk).update(status="void")
    with pytest.raises(ServiceError):
        enter(referee, sheet, solo(1))


def test_staff_of_another_tournament_cannot_write(drawn, foreign_organiser, enter, sheet_of):
    with pytest.raises(PermissionDenied):
        enter(foreign_organiser, sheet_of(drawn), solo(1))
