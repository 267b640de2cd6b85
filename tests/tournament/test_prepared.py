"""Queries compiled once (tournament.prepared): the same objects and values as the ORM gives."""

import datetime

import pytest
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.db.transaction import TransactionManagementError

from scoring import Contract, Game, Result, Suit
from tournament.draw.models import Seat
from tournament.models import GameEntry, LogEntry, PhoneReceipt, Scoresheet
from tournament.prepared import Prepared, Update, insert
from tournament.tablephone.codes import TableActor


@pytest.fixture
def sheet(drawn, sheet_of, referee, enter):
    sheet = sheet_of(drawn, 1, 1)
    won = Game(1, Contract.RUFER, 1, suit=Suit.EICHEL, partner=3, result=Result.WON)
    enter(referee, sheet, won)
    enter(referee, sheet, Game(2, Contract.WENZ, 2, result=Result.LOST, schneider=True))
    return Scoresheet.objects.get(pk=sheet.pk)


@pytest.fixture(params=[True, False], ids=["prepared", "orm"])
def both_ways(request, settings):
    """The test runs with the queries compiled once and through the plain ORM."""
    settings.PREPARED_QUERIES = request.param
    return request.param


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_objects_are_those_of_the_orm_with_their_related_objects(sheet, both_ways):
    by_code = Prepared(
        lambda code: Scoresheet.objects.select_related("match__tournament", "table").filter(code=code), str
    )
    (found,) = by_code(sheet.code)
    expected = Scoresheet.objects.select_related("match__tournament", "table").get(code=sheet.code)
    assert fields(found) == fields(expected)
    assert fields(found.match) == fields(expected.match)
    assert fields(found.match.tournament) == fields(expected.match.tournament)  # dates, JSON, booleans
    assert fields(found.table) == fields(expected.table)
    assert by_code("nosuchcode") == []
    assert by_code.first(sheet.code).pk == sheet.pk and by_code.first("nosuchcode") is None


def test_values_go_where_the_query_put_them_also_in_subqueries(sheet, both_ways):
    receipt = PhoneReceipt.objects.create(scoresheet=sheet, key="k" * 16, answer={"ok": True})
    query = Prepared(
        lambda code, key, game: Scoresheet.objects.filter(code=code).annotate(
            resent=Exists(PhoneReceipt.objects.filter(scoresheet=OuterRef("pk"), key=key)),
            played=Exists(GameEntry.objects.filter(scoresheet=OuterRef("pk"), number=game)),
        ),
        str,
        str,
        int,
    )
    (found,) = query(sheet.code, receipt.key, 2)
    assert found.resent is True and found.played is True
    (found,) = query(sheet.code, "x" * 16, 3)
    assert found.resent is False and found.played is False


def test_rows_in_the_querys_order_and_values_lists(sheet, both_ways):
    entries = Prepared(lambda pk: GameEntry.objects.filter(scoresheet_id=pk).order_by("-number"), int)
    assert [fields(e) for e in entries(sheet.pk)] == [
        fields(e) for e in GameEntry.objects.filter(scoresheet=sheet).order_by("-number")
    ]
    names = Prepared(
        lambda table: (
            Seat.objects.filter(table_id=table)
            .order_by("position")
            .values_list("position", "participant__name")
        ),
        int,
    )
    assert names(sheet.table_id) == list(
        Seat.objects.filter(table=sheet.table)
        .order_by("position")
        .values_list("position", "participant__name")
    )
    numbers = Prepared(
        lambda pk: (
            GameEntry.objects.filter(scoresheet_id=pk).order_by("number").values_list("number", flat=True)
        ),
        int,
    )
    assert numbers(sheet.pk) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_a_locking_query_needs_a_transaction(sheet, both_ways):
    locked = Prepared(lambda pk: Scoresheet.objects.select_for_update(of=("self",)).filter(pk=pk), int)
    with pytest.raises(TransactionManagementError):
        locked(sheet.pk)
    with transaction.atomic():
        assert locked(sheet.pk)[0].pk == sheet.pk


def test_values_of_another_type_are_refused(sheet, both_ways):
    query = Prepared(lambda pk: Scoresheet.objects.filter(pk=pk), int)
    with pytest.raises(TypeError):
        query(str(sheet.pk))
    with pytest.raises(TypeError):
        query(True)
    with pytest.raises(TypeError):
        query()


def test_a_query_that_takes_a_list_is_refused(sheet):
    query = Prepared(lambda pk: Scoresheet.objects.filter(pk__in=[pk, pk + 1]), int)
    with pytest.raises(ValueError):
        query(sheet.pk)


def test_insert_is_create(sheet, both_ways):
    actor = TableActor(sheet)
    log = insert(
        LogEntry(
            tournament=sheet.match.tournament,
            scoresheet=sheet,
            game=3,
            action="entry.create",
            user_name=actor.get_username(),
            data={"after": {"points": [30, -10, -10, -10]}, "ä": True},
        )
    )
    assert log.pk is not None and not log._state.adding
    stored = LogEntry.objects.get(pk=log.pk)
    assert fields(stored) == fields(log)
    assert stored.data == {"after": {"points": [30, -10, -10, -10]}, "ä": True}
    assert isinstance(stored.created, datetime.datetime) and stored.created.tzinfo is not None
    second = insert(PhoneReceipt(scoresheet=sheet, key="z" * 16, answer={"ok": False}))
    assert second.pk != log.pk and PhoneReceipt.objects.get(pk=second.pk).answer == {"ok": False}
    with pytest.raises(ValueError):
        insert(stored)  # an object that is stored already


def test_insert_refuses_an_unsaved_related_object_as_save_does(sheet, both_ways):
    unsaved = Scoresheet(match=sheet.match, table=sheet.table)
    with pytest.raises(ValueError, match="unsaved related object"):
        insert(PhoneReceipt(scoresheet=unsaved, key="y" * 16, answer={}))
    assert not PhoneReceipt.objects.filter(key="y" * 16).exists()


def test_update_sets_the_values_of_each_call_and_the_fixed_ones(sheet, both_ways):
    status = Update(
        lambda pk, at: Scoresheet.objects.filter(pk=pk, version=at),
        int,
        int,
        fields=("status",),
        fixed={"version": F("version") + 1},
    )
    version = sheet.version
    assert status(sheet.pk, version, status="void") == 1
    stored = Scoresheet.objects.get(pk=sheet.pk)
    assert (stored.status, stored.version) == ("void", version + 1)
    assert status(sheet.pk, version, status="open") == 0  # the version moved on: no row
    assert Scoresheet.objects.get(pk=sheet.pk).status == "void"


def test_update_prepares_each_value_as_its_field_does(sheet, both_ways):
    seen = datetime.datetime(2026, 5, 1, 12, 30, tzinfo=datetime.UTC)
    phone = Update(lambda code: Scoresheet.objects.filter(code=code), str, fields=("phone_seen",))
    assert phone(sheet.code, phone_seen=seen) == 1
    assert Scoresheet.objects.get(pk=sheet.pk).phone_seen == seen


def test_update_many_rows_in_one_statement(sheet, both_ways):
    seats = list(Seat.objects.filter(table=sheet.table).order_by("position"))
    points = Update(lambda pk: Seat.objects.filter(pk=pk), int, fields=("points",))
    changed = points.many([((seat.pk,), {"points": 10 * seat.position}) for seat in seats])
    assert changed == len(seats)
    assert [s.points for s in Seat.objects.filter(table=sheet.table).order_by("position")] == [
        10 * s.position for s in seats
    ]
    assert points.many([]) == 0


def test_update_refuses_other_values_and_fields(sheet, both_ways):
    status = Update(lambda pk: Scoresheet.objects.filter(pk=pk), int, fields=("status",))
    with pytest.raises(TypeError):
        status(str(sheet.pk), status="void")
    with pytest.raises(TypeError):
        status(sheet.pk, version=3)
    with pytest.raises(TypeError):
        status(sheet.pk)
    assert Scoresheet.objects.get(pk=sheet.pk).status == sheet.status


def test_a_compiled_update_whose_sql_depends_on_its_value_is_refused(sheet):
    numbers = Update(lambda pk: Scoresheet.objects.filter(pk__in=[pk, pk + 1]), int, fields=("status",))
    with pytest.raises(ValueError):
        numbers(sheet.pk, status="void")
