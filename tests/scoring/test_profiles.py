"""Rule profiles (RULINGS 15)."""

import pytest

from scoring import PROFILES, Code, Contract, build_profile, score_entry
from scoring.profiles import ProfileError, profile_from_exchange
from tests.scoring.helpers import WON, sie, solo, solo_tout


def test_official_profile():
    p = build_profile()
    assert (p.name, p.matches, p.games_per_match, p.solo_approval_from, p.min_age) == (
        "schafkopfschule-2007",
        2,
        32,
        5,
        16,
    )
    assert p.problems() == []


def test_three_by_sixteen_profile():
    p = PROFILES["turnierregeln-3x16"]
    assert (p.matches, p.games_per_match) == (3, 16)
    assert p.problems() == []


def test_cup_profile_from_the_rulings():
    """Solo/Wenz 15/5, 18/6, 21/7, Tout double the Solo, Sie four times, minimum age 18."""
    cup = build_profile(
        overrides={
            "points": {"solo": [[15, 5], [18, 6], [21, 7]], "tout": [30, 10], "sie": [60, 20]},
            "min_age": 18,
        }
    )
    assert score_entry(solo(2, declarer=1, result=WON), cup).points == (15, -5, -5, -5)
    assert score_entry(solo(2, declarer=1, schwarz=True), cup).points == (21, -7, -7, -7)
    assert score_entry(solo_tout(2, approved=True), cup).points == (30, -10, -10, -10)
    assert score_entry(sie(2, approved=True), cup).points == (60, -20, -20, -20)
    assert cup.overrides() == {
        "min_age": 18,
        "points": {"solo": [[15, 5], [18, 6], [21, 7]], "tout": [30, 10], "sie": [60, 20]},
    }


def test_exchange_round_trip():
    cup = build_profile("turnierregeln-3x16", {"games_per_match": 24, "sanctions": {"solo": 12}})
    assert profile_from_exchange(cup.to_exchange()) == cup


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"points": {"solo": [[6, 3], [9, 3], [12, 4]]}}, "points.solo", Code.PROFILE_NOT_ZERO_SUM),
        ({"points": {"sie": [25, 8]}}, "points.sie", Code.PROFILE_NOT_ZERO_SUM),
        ({"sanctions": {"rufer": [4, 3]}}, "sanctions.rufer", Code.PROFILE_NOT_ZERO_SUM),
        ({"sanctions": {"solo": 10}}, "sanctions.solo", Code.PROFILE_NOT_ZERO_SUM),
        ({"games_per_match": 30}, "games_per_match", Code.PROFILE_VALUE_INVALID),
        ({"matches": 0}, "matches", Code.PROFILE_VALUE_INVALID),
        ({"min_age": "16"}, "min_age", Code.PROFILE_VALUE_INVALID),
        ({"points": {"rufer": [1, 2]}}, "points.rufer", Code.PROFILE_VALUE_INVALID),
        ({"points": {"rufer": [2, 1, 3]}}, "points.rufer", Code.PROFILE_VALUE_INVALID),
    ],
)
def test_invalid_overrides_are_refused(overrides, field, code):
    with pytest.raises(ProfileError) as error:
        build_profile(overrides=overrides)
    assert (code, field) in [(p.code, p.field) for p in error.value.problems]


def test_unknown_profile_is_refused():
    with pytest.raises(ProfileError) as error:
        build_profile("kneipenregeln")
    assert error.value.problems[0].code is Code.UNKNOWN_PROFILE


def test_contract_values_match_the_exchange_names():
    assert [c.value for c in Contract] == ["rufer", "wenz", "solo", "wenz_tout", "solo_tout", "sie"]


@pytest.mark.parametrize("name", ["points", "sanctions"])
def test_tables_must_be_objects(name):
    with pytest.raises(ProfileError) as error:
        build_profile(overrides={name: [1, 2, 3]})
    assert [(p.code, p.field) for p in error.value.problems] == [(Code.PROFILE_VALUE_INVALID, name)]


def test_custom_is_the_official_profile_with_its_overrides():
    """RULINGS 15: a document's ``custom`` profile reads as the official one plus what it says."""
    profile = profile_from_exchange({"profile": "custom", "min_age": 18, "points": {"sie": [36, 12]}})
    assert profile.name == "schafkopfschule-2007"
    assert (profile.min_age, profile.points.sie, profile.games_per_match) == (18, (36, 12), 32)


def test_point_values_are_bounded():
    with pytest.raises(ProfileError) as refused:
        build_profile(None, {"points": {"sie": [30000, 10000]}})
    assert {p.field for p in refused.value.problems} == {"points"}
