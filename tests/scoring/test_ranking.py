"""Standings order and lots (5.4.1, 5.4.2, RULINGS 13)."""

import pytest

from scoring import Tally, draw_lots, rank, tiebreak_key


def standings(rows, lots=None):
    placed = rank(rows, key=lambda r: tiebreak_key(r[1], r[2]), ident=lambda r: r[0], lots=lots)
    return [(p.item[0], p.rank) for p in placed]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        # Each criterion decides in turn, all before it being equal.
        (Tally(), Tally()),  # placeholder replaced below (points decide)
        (Tally(sie=1), Tally(tout_won=5, tout_played=5, solo_won=9, solo_played=9)),
        (Tally(tout_won=1, tout_played=1), Tally(tout_played=3, solo_won=9, solo_played=9)),
        (Tally(tout_played=2), Tally(tout_played=1, solo_won=9, solo_played=9)),
        (Tally(solo_won=3, solo_played=3), Tally(solo_won=2, solo_played=8)),
        (Tally(solo_won=2, solo_played=4), Tally(solo_won=2, solo_played=3)),
    ],
    ids=["points", "sie", "tout_won", "tout_played", "solo_won", "solo_played"],
)
def test_each_criterion_decides_in_turn(better, worse, request):
    points_better = 11 if request.node.callspec.id == "points" else 10
    rows = [("B", 10, worse), ("A", points_better, better)]
    assert standings(rows) == [("A", 1), ("B", 2)]


def test_equal_participants_share_a_rank():
    rows = [
        ("A", 12, Tally()),
        ("B", 10, Tally(solo_played=1)),
        ("C", 10, Tally(solo_played=1)),
        ("D", 3, Tally()),
    ]
    assert standings(rows) == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]


def test_lots_order_a_tied_group():
    rows = [("A", 12, Tally()), ("B", 10, Tally()), ("C", 10, Tally()), ("D", 3, Tally())]
    placed = rank(rows, key=lambda r: tiebreak_key(r[1], r[2]), ident=lambda r: r[0], lots={"C": 0, "B": 1})
    assert [(p.item[0], p.rank, p.by_lot) for p in placed] == [
        ("A", 1, False),
        ("C", 2, True),
        ("B", 3, True),
        ("D", 4, False),
    ]


def test_lots_are_reproducible_from_the_seed():
    assert draw_lots([7, 3, 12, 5], "abc") == draw_lots([12, 5, 3, 7], "abc")
    orders = {tuple(draw_lots(range(10), f"seed-{i}")) for i in range(20)}
    assert len(orders) > 1  # the seed matters


def test_tied_participants_without_lots_are_listed_by_start_number():
    rows = [(10, 5, Tally()), (2, 5, Tally()), (7, 5, Tally())]
    assert standings(rows) == [(2, 1), (7, 1), (10, 1)]
