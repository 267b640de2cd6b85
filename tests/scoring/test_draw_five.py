"""The draw with tables of five (5.2.2, README readings): as few as the count allows, numbered
last, and nobody at a table of five twice while others have not."""

import pytest

from scoring import Code, draw
from scoring.draw import draw_matches, draw_problems, fives_seated, table_sizes


@pytest.fixture
def quick(monkeypatch):
    """A small search budget: what is tested here holds before the search improves anything."""
    monkeypatch.setattr(draw, "_budget", lambda count: 30)


def fewest_fives(count):
    return min(b for b in range(count // 5 + 1) if (count - 5 * b) % 4 == 0)


def assert_fair(matches, participants, fixed=()):
    """Each match's tables of five taken by those who sat at one least often before it."""
    before = fives_seated(fixed)
    for match in matches:
        at_five = [p for table in match if len(table) == 5 for p in table]
        at_four = [p for table in match if len(table) == 4 for p in table]
        if at_five:
            assert max(before.get(p, 0) for p in at_five) <= min(before.get(p, 0) for p in at_four)
        for p in at_five:
            before[p] = before.get(p, 0) + 1
    return [before.get(p, 0) for p in participants]


@pytest.mark.parametrize("count", range(20, 201))
def test_every_count_from_20_to_200_is_seated(count, quick):
    participants = list(range(1000, 1000 + count))
    matches = 1 + count % 3
    result = draw_matches(participants, matches, f"n{count}")
    fours, fives = table_sizes(count)
    assert (4 * fours + 5 * fives, fives) == (count, fewest_fives(count))
    assert len(result.matches) == matches
    for match in result.matches:
        assert sorted(p for table in match for p in table) == participants  # everyone once
        assert [len(table) for table in match] == [4] * fours + [5] * fives  # seats 1–4, 1–5
    assert draw_matches(list(reversed(participants)), matches, f"n{count}") == result


@pytest.mark.parametrize("count", [0, 1, 2, 3, 6, 7, 11])
def test_counts_that_no_tables_of_four_and_five_seat(count):
    assert table_sizes(count) is None
    assert [(p.code, p.value) for p in draw_problems(count)] == [
        (Code.PARTICIPANTS_DO_NOT_FILL_TABLES, count)
    ]
    with pytest.raises(ValueError, match="tables of four and five$"):
        draw_matches(range(count), 1, "x")


@pytest.mark.parametrize(
    ("count", "sizes"), [(4, (1, 0)), (5, (0, 1)), (10, (0, 2)), (15, (0, 3)), (19, (1, 3)), (105, (25, 1))]
)
def test_as_few_tables_of_five_as_the_count_allows(count, sizes):
    assert table_sizes(count) == sizes
    assert draw_problems(count) == []
    assert table_sizes(count, tables_of_five=False) == (None if count % 4 else (count // 4, 0))


@pytest.mark.parametrize(("count", "matches"), [(21, 6), (22, 5), (23, 4), (27, 6), (45, 6), (105, 8)])
def test_nobody_sits_at_a_table_of_five_twice_while_others_have_not(count, matches, quick):
    result = draw_matches(range(count), matches, "kirta")
    times = assert_fair(result.matches, range(count))
    assert max(times) - min(times) <= 1
    assert sum(times) == 5 * fewest_fives(count) * matches


def test_a_redrawn_match_seats_at_five_those_who_sat_there_least_in_the_others(quick):
    first = draw_matches(range(22), 3, "a").matches
    kept = [first[0], first[2]]
    again = draw_matches(range(22), 1, "b", fixed=kept)
    times = assert_fair(again.matches, range(22), fixed=kept)
    assert max(times) - min(times) <= 1


def test_the_tables_of_five_are_drawn_by_lot():
    draws = {frozenset(draw_matches(range(21), 1, f"seed-{i}").matches[0][-1]) for i in range(6)}
    assert len(draws) > 1


def test_table_mates_are_kept_apart_at_mixed_tables():
    assert draw_matches(range(45), 4, "x").repeats == 0
    assert draw_matches(range(105), 6, "x").repeats == 0


def test_a_small_field_with_a_table_of_five_meets_again_only_where_it_must():
    """21 players, second match: the five of the first table of five spread over four tables of
    four, and the new table of five takes five of the sixteen who sat at four tables of four."""
    assert draw_matches(range(21), 2, "x").repeats == 2
