"""Entering the paper list as it stands (RULINGS 12)."""

import pytest

from scoring import DEFAULT_PROFILE, Code, Family, Level, Transcribed, build_profile, score_entry
from scoring.transcription import transcribe

P = DEFAULT_PROFILE


def kind_of(points, declarer=None, number=2, profile=P):
    described = transcribe(Transcribed(number, points, declarer), profile)
    assert described.problems == (), described.problems
    return described.kind


def codes_of(points, declarer=None, number=2, profile=P):
    return [p.code for p in transcribe(Transcribed(number, points, declarer), profile).problems]


def test_circled_six_is_a_solo_or_wenz_won():
    kind = kind_of((6, -2, -2, -2), declarer=1)
    assert (kind.family, kind.won, kind.level, kind.declarer) == (Family.SOLO, True, Level.NORMAL, 1)


def test_circled_minus_nine_is_a_solo_lost_schneider():
    kind = kind_of((-9, 3, 3, 3), declarer=1)
    assert (kind.family, kind.won, kind.level) == (Family.SOLO, False, Level.SCHNEIDER)


def test_uncircled_minus_nine_is_a_sanction_of_the_declarer():
    kind = kind_of((-9, 3, 3, 3))
    assert (kind.family, kind.liable, kind.declarer) == (Family.SANCTION_SOLO, 1, 1)


def test_plus_nine_circled_and_uncircled():
    won = kind_of((3 * -1, 9, -3, -3), declarer=2)
    assert (won.family, won.won, won.level) == (Family.SOLO, True, Level.SCHNEIDER)
    sanction = kind_of((0, 9, 0, -9))
    assert (sanction.family, sanction.declarer, sanction.liable) == (Family.SANCTION_SOLO, 2, 4)
    assert codes_of((0, 9, 0, -9), declarer=2) == [Code.POINTS_MATCH_NOTHING]


def test_uncircled_rufer_names_the_winning_pair():
    kind = kind_of((-2, 2, -2, 2))
    assert (kind.family, kind.level, kind.winners) == (Family.RUFER, Level.SCHNEIDER, {2, 4})


def test_rufer_sanction():
    kind = kind_of((2, -4, 2, 0))
    assert (kind.family, kind.liable, kind.liable_partner) == (Family.SANCTION_RUFER, 2, 4)


@pytest.mark.parametrize(
    ("points", "declarer", "family"),
    [
        ((18, -6, -6, -6), 1, Family.TOUT),
        ((-18, 6, 6, 6), 1, Family.TOUT),
        ((-18, 6, 6, 6), None, Family.SANCTION_TOUT),
        ((-18, 18, 0, 0), None, Family.SANCTION_TOUT),
        ((-8, -8, 24, -8), 3, Family.SIE),
        ((-4, -4, 12, -4), 3, Family.SOLO),
    ],
)
def test_soloist_rows(points, declarer, family):
    assert kind_of(points, declarer).family is family


def test_numbers_that_do_not_sum_to_zero_are_refused_with_the_sum():
    problems = transcribe(Transcribed(3, (6, -2, -2, -1), 1), P).problems
    assert [(p.code, p.value, p.game) for p in problems] == [(Code.POINTS_DO_NOT_SUM_TO_ZERO, 1, 3)]


@pytest.mark.parametrize(
    ("points", "declarer"),
    [
        ((6, -2, -2, -2), None),  # a Solo needs its circle
        ((1, 1, -1, -1), 1),  # a Rufer has none
        ((5, -5, 0, 0), None),
        ((0, 0, 0, 0), None),
        ((6, -2, -2, -2), 2),  # the circle on the wrong seat
    ],
)
def test_rows_matching_nothing_are_refused(points, declarer):
    assert codes_of(points, declarer) == [Code.POINTS_MATCH_NOTHING]


def test_row_not_of_four_numbers_is_refused():
    assert codes_of((6, -2, -4)) == [Code.POINTS_NOT_FOUR]


def test_ambiguous_row_under_a_custom_profile_is_refused():
    """A cup profile whose Tout equals its Solo Schwarz cannot tell (+12, −4, −4, −4) apart."""
    cup = build_profile(overrides={"points": {"tout": [12, 4]}})
    assert codes_of((12, -4, -4, -4), 1, profile=cup) == [Code.POINTS_AMBIGUOUS]


def test_first_game_refuses_tout_sie_and_schwarz_numbers():
    assert codes_of((18, -6, -6, -6), 1, number=1) == [Code.TOUT_OR_SCHWARZ_IN_FIRST_GAME]
    assert codes_of((12, -4, -4, -4), 1, number=1) == [Code.TOUT_OR_SCHWARZ_IN_FIRST_GAME]
    assert codes_of((24, -8, -8, -8), 1, number=1) == [Code.SIE_IN_FIRST_GAME]
    assert kind_of((9, -3, -3, -3), 1, number=1).level is Level.SCHNEIDER


def test_transcribed_tout_needs_approval_like_a_described_one():
    scored = score_entry(Transcribed(2, (18, -6, -6, -6), 1), P)
    assert scored.struck and scored.points == (0, 0, 0, 0)
    approved = score_entry(Transcribed(2, (18, -6, -6, -6), 1, approved=True), P)
    assert approved.points == (18, -6, -6, -6)
    assert approved.tally(1).as_tuple() == (0, 1, 1, 0, 0)
