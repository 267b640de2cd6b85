"""Tables of five in the draw service and the database (5.2.2, README readings): saved with seats
1–5 as the last tables, said on the draw page, refused where no tables of four and five fit."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation

from scoring.draw import fives_seated
from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.models import GameEntry, Scoresheet, Seat
from tournament.results.models import Signature

pytestmark = pytest.mark.django_db


def seating(match):
    return [
        [s.participant.number for s in t.seats.order_by("position")] for t in match.tables.order_by("number")
    ]


@pytest.mark.parametrize(("count", "fours", "fives"), [(21, 4, 1), (105, 25, 1), (23, 2, 3)])
def test_tables_of_five_are_saved_last_with_seats_one_to_five(
    tournament, organiser, add_players, count, fours, fives
):
    add_players(tournament, count)
    draw_service.draw_all(organiser, tournament, seed="pokal")
    for match in tournament.matches.all():
        tables = seating(match)
        assert [len(table) for table in tables] == [4] * fours + [5] * fives
        assert sorted(n for table in tables for n in table) == list(range(1, count + 1))
        assert Scoresheet.objects.filter(match=match).count() == fours + fives
        sizes = match.tables.order_by("number").values_list("size", flat=True)
        assert list(sizes) == [4] * fours + [5] * fives
        positions = Seat.objects.filter(match=match, table__number=fours + fives).values_list(
            "position", flat=True
        )
        assert sorted(positions) == [1, 2, 3, 4, 5]
    at_five = fives_seated([seating(m) for m in tournament.matches.all()])
    times = [at_five.get(n, 0) for n in range(1, count + 1)]
    assert max(times) - min(times) <= 1  # nobody twice while others have not


def test_a_redraw_seats_at_five_those_who_sat_at_four_in_the_other_match(tournament, organiser, add_players):
    add_players(tournament, 22)
    draw_service.draw_all(organiser, tournament, seed="a")
    second = seating(tournament.matches.get(number=2))
    draw_service.draw_one(organiser, tournament, 1, seed="b")
    first = seating(tournament.matches.get(number=1))
    assert not {n for table in first[-2:] for n in table} & {n for table in second[-2:] for n in table}


def test_the_database_takes_seat_five_and_refuses_seat_six(tournament, organiser, add_players):
    add_players(tournament, 21)
    draw_service.draw_all(organiser, tournament, seed="pokal")
    seat = Seat.objects.get(match__number=1, table__number=5, position=5)
    sheet = Scoresheet.objects.get(match__number=1, table__number=5)
    for value in (0, 6):
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(position=value)
        with pytest.raises(IntegrityError), transaction.atomic():
            Signature.objects.create(scoresheet=sheet, position=value, name="X", method="paper")
        with pytest.raises(IntegrityError), transaction.atomic():
            type(sheet.table).objects.filter(pk=sheet.table.pk).update(scorekeeper=value)
    Signature.objects.create(scoresheet=sheet, position=5, name="Spieler", method="paper")
    type(sheet.table).objects.filter(pk=sheet.table.pk).update(scorekeeper=5)


def test_a_game_at_a_table_of_five_sums_to_zero_over_five_columns(tournament, organiser, add_players):
    """The dealer sitting out scores 0; the check of the database counts the fifth column."""
    add_players(tournament, 21)
    draw_service.draw_all(organiser, tournament, seed="pokal")
    sheet = Scoresheet.objects.get(match__number=1, table__number=5)
    row = {"contract": "solo", "suit": "herz", "declarer": 2, "result": "won"}
    GameEntry.objects.create(
        scoresheet=sheet, number=1, points_1=0, points_2=6, points_3=-2, points_4=-2, points_5=-2, **row
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEntry.objects.create(
            scoresheet=sheet, number=2, points_1=6, points_2=-2, points_3=-2, points_4=-2, points_5=-2, **row
        )
    assert GameEntry.objects.get(scoresheet=sheet, number=1).points_5 == -2


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (6, "6 active participants do not fill tables of four and five: 2 players are missing, or 1 is"),
        (7, "7 active participants do not fill tables of four and five: 1 player is missing, or 2 are"),
        (11, "11 active participants do not fill tables of four and five: 1 player is missing, or 1 is"),
        (3, "A draw needs at least four active participants; there are 3."),
    ],
)
def test_counts_no_tables_of_four_and_five_seat_are_refused(
    tournament, organiser, add_players, count, expected
):
    add_players(tournament, count)
    with translation.override("en"), pytest.raises(ServiceError) as error:
        draw_service.draw_all(organiser, tournament)
    assert str(error.value.message).startswith(expected)
    assert not Seat.objects.exists()


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (16, "The draw makes 4 tables of four."),
        (21, "The draw makes 4 tables of four and 1 table of five: at a table of five the dealer sits out"),
        (10, "The draw makes 2 tables of five: at a table of five the dealer sits out the game he dealt."),
        (7, None),
    ],
)
def test_what_the_draw_makes(tournament, count, expected):
    with translation.override("en"):
        text = draw_service.tables_text(count, tournament)
    assert text == expected or text.startswith(expected)


def test_the_draw_page_says_how_many_tables_of_four_and_five(tournament, organiser, client, add_players):
    add_players(tournament, 21)
    client.force_login(organiser)
    page = client.get(reverse("organiser:draw", args=[tournament.slug])).content.decode()
    assert draw_service.tables_text(21, tournament) in page
    assert "Ersatzspieler" not in page


def test_the_draw_page_offers_the_latest_for_the_reserve_where_five_do_not_fit(
    tournament, organiser, client, add_players
):
    players = add_players(tournament, 7)
    client.force_login(organiser)
    page = client.get(reverse("organiser:draw", args=[tournament.slug])).content.decode()
    offered = [p.number for p in players if f'name="participants" value="{p.pk}"' in page]
    assert offered == [6, 7]  # 5 fill a table of five
