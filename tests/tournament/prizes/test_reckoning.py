"""The prize list reckoned on hand-checked examples from issue 17: one prize per table, special
places, top 10 in money and 11–20 in goods, charity, rounding and its rest, ties shared."""

from decimal import Decimal

import pytest

from tournament.prizes.reckoning import (
    FieldSize,
    Line,
    Money,
    PrizeList,
    awards,
    check_lines,
    check_numbers,
    place_prizes,
)
from tournament.standings.standings import StandingRow


def money(paying, fee, charity=0, percent=100):
    return Money(Decimal(fee), paying, False, Decimal(charity), "", Decimal(percent))


def row(rank, number, by_lot=False):
    return StandingRow(rank, number, f"Spieler {number:03d}", "", {}, by_lot=by_lot)


def amounts(prizes):
    return {prize.place: prize.amount if prize.amount is not None else prize.goods for prize in prizes}


def test_one_prize_per_table_shares_the_whole_payout_falling_by_place():
    # 20 paid 10 €: 200 € paid out over the 5 tables' places, weights 5, 4, 3, 2, 1 of 15.
    lines = [Line(1, "per_table", kind="falling")]
    prizes, problems = place_prizes(lines, money(20, 10), FieldSize(20, 5, True))
    assert problems == []
    # 200·5/15 = 66.67, 200·4/15 = 53.33, 40, 26.67, 13.33: down to whole euros
    assert amounts(prizes) == {1: 66, 2: 53, 3: 40, 4: 26, 5: 13}
    result = PrizeList(None, True, money(20, 10), FieldSize(20, 5, True), lines, prizes)
    assert result.cash_total == 198 and result.rest == Decimal(2) and result.kept == Decimal(2)


def test_middle_second_to_last_and_a_booby_prize_for_the_last():
    lines = [
        Line(1, "range", 1, 1, "amount", Decimal(50)),
        Line(2, "range", 2, 2, "amount", Decimal(30)),
        Line(3, "range", 3, 3, "amount", Decimal(20)),
        Line(4, "middle", kind="goods", goods="Brotzeit"),
        Line(5, "second_last", kind="amount", amount=Decimal(10)),
        Line(6, "last", kind="goods", goods="Holzlöffel"),
    ]
    size = FieldSize(15, 3, True)  # middle = ceil(15/2) = 8, second-to-last 14, last 15
    prizes, problems = place_prizes(lines, money(15, 10), size)
    assert problems == [] and check_numbers(lines, size) == []
    assert amounts(prizes) == {1: 50, 2: 30, 3: 20, 8: "Brotzeit", 14: 10, 15: "Holzlöffel"}
    even = amounts(place_prizes(lines, money(16, 10), FieldSize(16, 4, True))[0])
    assert even[8] == "Brotzeit" and even[15] == 10 and even[16] == "Holzlöffel"


def test_top_ten_in_money_and_eleven_to_twenty_in_goods_with_five_euros_to_charity():
    # 30 paid 15 €: 450 € taken, 5 € each to charity (150 €), 300 € paid out.
    cash = money(30, 15, charity=5)
    assert (cash.taken, cash.charity, cash.pot, cash.payout) == (450, 150, 300, 300)
    lines = [Line(1, "range", 1, 10, "falling"), Line(2, "range", 11, 20, "goods", goods="Sachpreis")]
    prizes, problems = place_prizes(lines, cash, FieldSize(30, 7, True))
    assert problems == []
    # 300·10/55 = 54.55, 300·9/55 = 49.09, … 300·1/55 = 5.45
    assert [amounts(prizes)[place] for place in range(1, 11)] == [54, 49, 43, 38, 32, 27, 21, 16, 10, 5]
    assert all(amounts(prizes)[place] == "Sachpreis" for place in range(11, 21))
    result = PrizeList(None, True, cash, FieldSize(30, 7, True), lines, prizes)
    assert result.cash_total == 295 and result.rest == 5 and result.kept == 5


def test_shares_are_rounded_down_and_the_rest_is_shown():
    # 49 paid 7.50 €: 367.50 € paid out; 50 % = 183.75, 30 % = 110.25, 20 % = 73.50.
    cash = money(49, "7.50")
    lines = [Line(i, "range", i, i, "share", share=Decimal(s)) for i, s in ((1, 50), (2, 30), (3, 20))]
    prizes, problems = place_prizes(lines, cash, FieldSize(49, 12, True))
    assert problems == [] and amounts(prizes) == {1: 183, 2: 110, 3: 73}
    result = PrizeList(None, True, cash, FieldSize(49, 12, True), lines, prizes)
    assert result.cash_total == 366 and result.rest == Decimal("1.50")


def test_a_payout_below_one_hundred_percent_leaves_the_rest_with_the_organiser():
    cash = money(40, 10, percent=80)  # 400 € taken, 320 € paid out
    lines = [Line(1, "range", 1, 4, "amount", Decimal(80))]
    prizes, problems = place_prizes(lines, cash, FieldSize(40, 10, True))
    result = PrizeList(None, True, cash, FieldSize(40, 10, True), lines, prizes)
    assert problems == [] and result.cash_total == 320 and result.rest == 0 and result.kept == 80


def test_participants_still_tied_share_the_cash_of_their_places_equally():
    lines = [Line(i, "range", i, i, "amount", Decimal(a)) for i, a in ((1, 100), (2, 60), (3, 45), (4, 10))]
    prizes, _ = place_prizes(lines, money(40, 10), FieldSize(40, 10, True))
    rows = [row(1, 7), row(2, 3), row(2, 9), row(4, 1), row(5, 2)]
    found = awards(rows, prizes)
    assert [(a.place, a.number, a.amount, a.tied) for a in found] == [
        (1, 7, 100, 1),
        (2, 3, 52, 2),  # (60 + 45) / 2 = 52.50: 52 each, 1 € rest
        (2, 9, 52, 2),
        (4, 1, 10, 1),
    ]
    assert (found[1].first, found[1].last) == (2, 3)
    result = PrizeList(None, True, money(40, 10), FieldSize(40, 10, True), lines, prizes, awards=found)
    result.ranked = True
    assert result.cash_total == 214 and result.rest == 400 - 214


def test_lots_drawn_give_each_tied_participant_his_own_place():
    lines = [Line(1, "range", 1, 1, "amount", Decimal(60)), Line(2, "range", 2, 2, "amount", Decimal(45))]
    prizes, _ = place_prizes(lines, money(20, 10), FieldSize(20, 5, True))
    found = awards([row(1, 9, by_lot=True), row(2, 3, by_lot=True)], prizes)
    assert [(a.place, a.number, a.amount, a.shared, a.by_lot) for a in found] == [
        (1, 9, 60, False, True),
        (2, 3, 45, False, True),
    ]


def test_tied_places_with_goods_list_the_goods_for_the_whole_group():
    lines = [
        Line(1, "range", 11, 11, "goods", goods="Geschenkkorb"),
        Line(2, "range", 12, 12, "goods", goods="Krug"),
    ]
    prizes, _ = place_prizes(lines, money(20, 10), FieldSize(20, 5, True))
    rows = [row(rank, number) for rank, number in enumerate(range(1, 11), start=1)]
    rows += [row(11, 20), row(11, 21), row(13, 22)]
    found = awards(rows, prizes)
    assert [(a.number, a.amount, a.goods, a.prize) for a in found] == [
        (20, None, ("Geschenkkorb", "Krug"), "Geschenkkorb / Krug"),
        (21, None, ("Geschenkkorb", "Krug"), "Geschenkkorb / Krug"),
    ]


def test_cash_prizes_above_the_payout_are_named_with_their_places_and_sums():
    lines = [Line(i, "range", i, i, "amount", Decimal(a)) for i, a in ((1, 200), (2, 150), (3, 100))]
    _, problems = place_prizes(lines, money(40, 10), FieldSize(40, 10, True))
    (problem,) = problems
    assert "1–3" in problem and "450" in problem and "400" in problem


def test_what_the_numbers_contradict_names_the_line():
    lines = [Line(1, "range", 1, 3, "amount", Decimal(10)), Line(2, "range", 11, 25, "goods", goods="Krug")]
    (problem,) = check_numbers(lines, FieldSize(20, 5, True))
    assert "2" in problem and "21–25" in problem and "20" in problem
    # one prize per table reaching into a range: both lines and the place named
    clash = check_numbers(
        [Line(1, "per_table", kind="falling"), Line(2, "range", 5, 6, "goods", goods="X")],
        FieldSize(24, 6, True),
    )
    assert clash and "1" in clash[0] and "2" in clash[0] and "5–6" in clash[0]


@pytest.mark.parametrize(
    ("line", "numbers"),
    [
        (Line(2, "range", 1, 3, "share", share=Decimal(40)), ["2", "3", "40", "120"]),  # 120 % of the payout
        (Line(2, "range", 1, 3, "amount"), ["2"]),  # no amount
        (Line(2, "range", 1, 3, "share"), ["2"]),  # no share
        (Line(2, "range", 1, 3, "goods"), ["2"]),  # no goods
        (Line(2, "range", 5, 3, "amount", Decimal(5)), ["2", "5", "3"]),  # first after last
        (Line(2, "range", None, None, "amount", Decimal(5)), ["2"]),  # no place
    ],
)
def test_a_declaration_wrong_whatever_the_numbers_is_named_by_its_line(line, numbers):
    (problem,) = check_lines([line])
    assert all(number in problem for number in numbers), problem
    assert problem.startswith(line.label)


def test_two_lines_for_one_place_and_two_lines_taking_the_rest():
    problems = check_lines([Line(1, "range", 1, 3, "falling"), Line(2, "range", 3, 5, "falling")])
    assert len(problems) == 2
    assert any("1" in p and "2" in p and "3" in p for p in problems)
