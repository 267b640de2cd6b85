"""Sanctions (3.4.17, 3.4.18, RULINGS 9): every liable player in every contract."""

import pytest

from scoring import DEFAULT_PROFILE, Code, Contract, build_profile, score_entry
from tests.scoring.helpers import sanction

P = DEFAULT_PROFILE
R, S, W, ST, WT = (Contract.RUFER, Contract.SOLO, Contract.WENZ, Contract.SOLO_TOUT, Contract.WENZ_TOUT)


@pytest.mark.parametrize(
    ("contract", "declarer", "partner", "liable", "points"),
    [
        # Rufer, declarer 1 and partner 3 against 2 and 4.
        (R, 1, 3, 1, (-4, 2, 0, 2)),  # the declarer is liable: his partner gets 0
        (R, 1, 3, 3, (0, 2, -4, 2)),  # the partner is liable
        (R, 1, 3, 2, (2, -4, 2, 0)),  # a defender is liable: the other defender gets 0
        (R, 1, 3, 4, (2, 0, 2, -4)),
        # Solo and Wenz, declarer 2.
        (S, 2, None, 2, (3, -9, 3, 3)),  # the declarer is liable
        (S, 2, None, 4, (0, 9, 0, -9)),  # a defender is liable
        (W, 2, None, 2, (3, -9, 3, 3)),
        (W, 2, None, 1, (-9, 9, 0, 0)),
        # Solo Tout and Wenz Tout, declarer 3.
        (ST, 3, None, 3, (6, 6, -18, 6)),
        (ST, 3, None, 1, (-18, 0, 18, 0)),
        (WT, 3, None, 3, (6, 6, -18, 6)),
        (WT, 3, None, 4, (0, 0, 18, -18)),
    ],
)
def test_sanction_points(contract, declarer, partner, liable, points):
    scored = score_entry(sanction(7, contract, declarer, liable, partner), P)
    assert scored.problems == ()
    assert scored.points == points
    assert not scored.needs_approval  # RULINGS 9: never a soloist game for 7


def test_revealing_cards_makes_the_revealer_liable():
    """3.4.18: after the declarer's mistake his partner throws his cards on the table. The
    partner is the liable player; the declarer, who made the mistake, gets 0."""
    scored = score_entry(sanction(7, R, 1, liable=3, partner=3), P)
    assert scored.points[0] == 0
    assert scored.points[2] == -4
    assert scored.points[1] == scored.points[3] == 2


def test_a_defender_revealing_in_a_solo_pays_the_declarer():
    """3.4.18 in a Solo: defender 4 reveals after defender 1's mistake; 4 is liable, 1 gets 0."""
    assert score_entry(sanction(7, S, 2, liable=4), P).points == (0, 9, 0, -9)


def test_a_sanction_counts_for_no_tie_break():
    scored = score_entry(sanction(7, S, 2, liable=2), P)
    assert all(scored.tally(seat).as_tuple() == (0, 0, 0, 0, 0) for seat in (1, 2, 3, 4))


def test_a_sie_has_no_sanction():
    codes = [p.code for p in score_entry(sanction(7, Contract.SIE, 2, liable=1), P).problems]
    assert codes == [Code.SANCTION_CONTRACT_INVALID]


def test_a_rufer_sanction_needs_the_partner():
    codes = [p.code for p in score_entry(sanction(7, R, 1, liable=2), P).problems]
    assert codes == [Code.PARTNER_MISSING]


def test_sanction_in_first_game_tout_is_the_solo_sanction():
    """RULINGS 6: in game 1 a Tout counts as a plain Solo, so does the sanction."""
    scored = score_entry(sanction(1, ST, 3, liable=3), P)
    assert scored.points == (3, 3, -9, 3)
    assert scored.downgraded


def test_profile_sanction_table_is_used():
    cup = build_profile(overrides={"sanctions": {"rufer": [6, 3], "solo": 15, "tout": 30}})
    assert score_entry(sanction(7, R, 1, liable=2, partner=3), cup).points == (3, -6, 3, 0)
    assert score_entry(sanction(7, S, 1, liable=1), cup).points == (-15, 5, 5, 5)
    assert score_entry(sanction(7, WT, 1, liable=2), cup).points == (30, -30, 0, 0)


def test_a_sanction_needs_its_liable_player():
    codes = [p.code for p in score_entry(sanction(7, S, 2, liable=None), P).problems]
    assert codes == [Code.SEAT_OUT_OF_RANGE]
