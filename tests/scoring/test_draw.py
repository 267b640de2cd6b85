"""The seat draw (5.2.2): everyone once per match, reproducible, table-mates kept apart."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Code
from scoring.draw import draw_matches, draw_problems, repeated_pairs


def assert_valid(draw, participants, matches):
    assert len(draw.matches) == matches
    for match in draw.matches:
        seated = [p for table in match for p in table]
        assert sorted(seated) == sorted(participants)  # everyone exactly once
        assert all(len(table) == 4 for table in match)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 30).map(lambda k: 4 * k),
    st.integers(1, 4),
    st.text(max_size=8),
    st.integers(0, 1000),
)
def test_draw_properties(count, matches, seed, offset):
    participants = list(range(offset, offset + count))
    draw = draw_matches(participants, matches, seed)
    assert_valid(draw, participants, matches)
    assert draw.repeats == repeated_pairs(draw.matches)
    assert draw_matches(list(reversed(participants)), matches, seed) == draw  # reproducible
    if count >= 16 * 2 and matches <= 3:
        assert draw.repeats == 0


def test_the_seed_changes_the_draw():
    draws = {draw_matches(range(1, 41), 2, f"seed-{i}").matches for i in range(5)}
    assert len(draws) == 5


def test_sixteen_players_five_matches_nobody_meets_twice():
    draw = draw_matches(range(1, 17), 5, "kirchweih")
    assert_valid(draw, list(range(1, 17)), 5)
    assert draw.repeats == 0


@pytest.mark.parametrize(("count", "matches"), [(20, 4), (24, 5), (32, 6), (64, 6)])
def test_small_fields_without_repeats(count, matches):
    assert draw_matches(range(count), matches, "x").repeats == 0


def test_large_field_without_repeats():
    draw = draw_matches(range(1, 2001), 3, "big")
    assert_valid(draw, list(range(1, 2001)), 3)
    assert draw.repeats == 0


def test_twelve_players_two_matches_reach_the_minimum():
    """Three tables cannot seat four players from three different first-match tables."""
    assert draw_matches(range(12), 2, "x").repeats == 3


def test_redraw_of_one_match_keeps_away_from_the_fixed_ones():
    first = draw_matches(range(1, 17), 4, "a")
    again = draw_matches(range(1, 17), 1, "b", fixed=first.matches)
    assert again.repeats == 0  # the fifth parallel class is found
    assert_valid(again, list(range(1, 17)), 1)


def test_redraw_after_a_withdrawal():
    first = draw_matches(range(1, 25), 1, "a")
    remaining = [p for p in range(1, 25) if p not in (3, 7, 11, 19)]
    second = draw_matches(remaining, 1, "b", fixed=first.matches)
    assert_valid(second, remaining, 1)
    assert second.repeats == 0


@pytest.mark.parametrize("count", [0, 3, 17, 18, 19])
def test_counts_that_do_not_fill_tables_of_four(count):
    """With the profile's tables of five off (README readings) only multiples of four."""
    assert [(p.code, p.value) for p in draw_problems(count, tables_of_five=False)] == [
        (Code.PARTICIPANTS_NOT_MULTIPLE_OF_FOUR, count)
    ]
    with pytest.raises(ValueError, match="tables of four$"):
        draw_matches(range(count), 1, "x", tables_of_five=False)
