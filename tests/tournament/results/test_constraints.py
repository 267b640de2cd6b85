"""Integrity in the database itself (STYLE 3)."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.db.models import RestrictedError

from tournament.draw.services import draw_all
from tournament.models import GameEntry, Participant, Scoresheet, Seat, Substitution, Table
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def test_start_numbers_are_unique_per_tournament(tournament, other_tournament):
    Participant.objects.create(tournament=tournament, number=7, name="Huber, Sepp")
    Participant.objects.create(tournament=other_tournament, number=7, name="Maier, Resi")
    with pytest.raises(IntegrityError), transaction.atomic():
        Participant.objects.create(tournament=tournament, number=7, name="Bauer, Toni")


def test_start_number_zero_is_refused(tournament):
    with pytest.raises(IntegrityError), transaction.atomic():
        Participant.objects.create(tournament=tournament, number=0, name="Null")


def _table(tournament, number=1):
    match = tournament.matches.get(number=1)
    return match, Table.objects.create(match=match, number=number)


def test_a_participant_sits_once_per_match(tournament, add_players):
    (p1,) = add_players(tournament, 1)
    match, table = _table(tournament)
    _, second = _table(tournament, 2)
    Seat.objects.create(table=table, match=match, position=1, participant=p1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=second, match=match, position=1, participant=p1)


def test_positions_are_unique_per_table_and_one_to_five(tournament, add_players):
    p1, p2, p3, p4 = add_players(tournament, 4)
    match, table = _table(tournament)
    Seat.objects.create(table=table, match=match, position=1, participant=p1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, match=match, position=1, participant=p2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, match=match, position=6, participant=p3)
    Seat.objects.create(table=table, match=match, position=5, participant=p4)  # a table of five


def test_a_table_has_four_or_five_seats_and_its_scorekeeper_sits_at_it(tournament):
    match, table = _table(tournament)
    for size in (3, 6):
        with pytest.raises(IntegrityError), transaction.atomic():
            Table.objects.filter(pk=table.pk).update(size=size)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(scorekeeper=5)  # a table of four has no seat 5
    Table.objects.filter(pk=table.pk).update(size=5, scorekeeper=5)


def test_a_substitution_moment_is_unique(tournament, add_players):
    (p1,) = add_players(tournament, 1)
    Substitution.objects.create(participant=p1, name="Ersatz", from_match=2, from_game=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Substitution.objects.create(participant=p1, name="Zweiter", from_match=2, from_game=1)


def test_entries_sum_to_zero_and_numbers_are_unique_per_sheet(tournament):
    match, table = _table(tournament)
    sheet = Scoresheet.objects.create(table=table, match=match)
    GameEntry.objects.create(
        scoresheet=sheet,
        number=1,
        contract="solo",
        declarer=1,
        points_1=6,
        points_2=-2,
        points_3=-2,
        points_4=-2,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEntry.objects.create(scoresheet=sheet, number=2, points_1=6, points_2=-2)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEntry.objects.create(scoresheet=sheet, number=1)


def test_retention_defaults_to_six_months(make_tournament):
    coming = make_tournament("im-voraus", date=datetime.date(2036, 11, 21))  # a date to come, whatever today
    assert coming.retention_until == datetime.date(2037, 5, 21)


def test_a_whole_tournament_can_be_deleted_but_not_a_seated_participant(tournament, add_players):

    add_players(tournament, 8)
    draw_all(COMMAND_LINE, tournament, seed="weg")
    with pytest.raises(RestrictedError), transaction.atomic():
        Participant.objects.filter(tournament=tournament).first().delete()
    tournament.delete()
    assert not Participant.objects.exists() and not Seat.objects.exists()
