"""A sheet declared void goes through the one writer as every write (issue 26): no game scores
differently (the standings count a void sheet for nothing, 5.3.6), so no other game is named or
written; the new version and the void's own line are as before."""

import pytest

from tournament.models import LogEntry, Scoresheet
from tournament.results import services as sheet_service
from tournament.results import signing
from tournament.results.notation import typed_game

pytestmark = pytest.mark.django_db

SHEET = {1: "sh1+", 2: "se2+", 3: "sg2+", 4: "ss3+", 5: "rg24-", 6: "w4+"}  # game 6 struck (5.2.16)


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def fill(user, sheet, games: dict[int, str]) -> None:
    for number, notation in games.items():
        sheet.refresh_from_db()
        sheet_service.save_entry(user, sheet, typed_game(notation, number, 4), sheet.version)


def rescored(sheet, since: int) -> list[LogEntry]:
    return list(
        LogEntry.objects.filter(scoresheet=sheet, action="entry.rescored", pk__gt=since).order_by("pk")
    )


def last_log(sheet) -> int:
    return LogEntry.objects.filter(scoresheet=sheet).order_by("-pk").values_list("pk", flat=True).first() or 0


def test_declaring_a_sheet_void_changes_no_other_game(supervisor, sheet):
    fill(supervisor, sheet, SHEET)
    sheet.refresh_from_db()
    version, since = sheet.version, last_log(sheet)
    voided = signing.declare_void(supervisor, sheet, "unleserlich", expected_version=version)
    assert voided.written.changes == () and voided.written.withdrawn == []
    sheet.refresh_from_db()
    assert sheet.version == version + 1 and sheet.status == Scoresheet.Status.VOID
    assert rescored(sheet, since) == []
    assert list(LogEntry.objects.filter(pk__gt=since).values_list("action", flat=True)) == ["sheet.void"]
    assert LogEntry.objects.get(pk__gt=since).data == {"match": 1, "table": 1, "reason": "unleserlich"}
