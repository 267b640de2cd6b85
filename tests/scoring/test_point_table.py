"""Every line of the 5.2.7 point table (RULINGS 3) and the result from card points (RULINGS 4)."""

import pytest

from scoring import DEFAULT_PROFILE, Code, Contract, Game, Level, Result, Suit, score_entry
from tests.scoring.helpers import LOST, WON, rufer, sie, solo, solo_tout, wenz, wenz_tout

P = DEFAULT_PROFILE


@pytest.mark.parametrize(
    ("game", "points"),
    [
        # Rufer: declarer seat 1, partner seat 3; both get the declarer side's value.
        (rufer(2, result=WON), (1, -1, 1, -1)),
        (rufer(2, result=LOST), (-1, 1, -1, 1)),
        (rufer(2, result=WON, schneider=True), (2, -2, 2, -2)),
        (rufer(2, result=LOST, schneider=True), (-2, 2, -2, 2)),
        (rufer(2, result=WON, schwarz=True), (3, -3, 3, -3)),
        (rufer(2, result=LOST, schwarz=True), (-3, 3, -3, 3)),
        (rufer(2, declarer=4, partner=2, result=WON), (-1, 1, -1, 1)),
        # Solo and Wenz, declarer seat 2.
        (solo(2, declarer=2, result=WON), (-2, 6, -2, -2)),
        (solo(2, declarer=2, result=LOST), (2, -6, 2, 2)),
        (solo(2, declarer=2, result=WON, schneider=True), (-3, 9, -3, -3)),
        (solo(2, declarer=2, result=LOST, schneider=True), (3, -9, 3, 3)),
        (solo(2, declarer=2, result=WON, schwarz=True), (-4, 12, -4, -4)),
        (solo(2, declarer=2, result=LOST, schwarz=True), (4, -12, 4, 4)),
        (wenz(2, declarer=2, result=WON), (-2, 6, -2, -2)),
        (wenz(2, declarer=2, result=LOST), (2, -6, 2, 2)),
        (wenz(2, declarer=2, result=WON, schneider=True), (-3, 9, -3, -3)),
        (wenz(2, declarer=2, result=LOST, schneider=True), (3, -9, 3, 3)),
        (wenz(2, declarer=2, result=WON, schwarz=True), (-4, 12, -4, -4)),
        (wenz(2, declarer=2, result=LOST, schwarz=True), (4, -12, 4, 4)),
        # Touts and Sie (approved: they always need approval, RULINGS 7).
        (solo_tout(2, declarer=3, result=WON, approved=True), (-6, -6, 18, -6)),
        (solo_tout(2, declarer=3, result=LOST, approved=True), (6, 6, -18, 6)),
        (wenz_tout(2, declarer=3, result=WON, approved=True), (-6, -6, 18, -6)),
        (wenz_tout(2, declarer=3, result=LOST, approved=True), (6, 6, -18, 6)),
        (sie(2, declarer=4, approved=True), (-8, -8, -8, 24)),
    ],
)
def test_point_table_line(game, points):
    scored = score_entry(game, P)
    assert scored.problems == ()
    assert scored.points == points
    assert sum(scored.points) == 0


@pytest.mark.parametrize(
    ("card_points", "schwarz", "won", "level"),
    [
        (61, False, True, Level.NORMAL),
        (60, False, False, Level.NORMAL),
        (90, False, True, Level.NORMAL),
        (91, False, True, Level.SCHNEIDER),  # 4.1.3
        (31, False, False, Level.NORMAL),
        (30, False, False, Level.SCHNEIDER),  # 4.1.3: 30 or fewer loses Schneider
        (120, False, True, Level.SCHNEIDER),  # a trick of 0 points went to the defenders
        (0, False, False, Level.SCHNEIDER),
        (120, True, True, Level.SCHWARZ),
        (0, True, False, Level.SCHWARZ),
    ],
)
def test_result_from_card_points(card_points, schwarz, won, level):
    game = Game(2, Contract.SOLO, 1, Suit.EICHEL, declarer_points=card_points, schwarz=schwarz)
    kind = score_entry(game, P).kind
    assert (kind.won, kind.level) == (won, level)


@pytest.mark.parametrize("card_points", [1, 30, 61, 90, 119])
def test_schwarz_needs_all_or_no_card_points(card_points):
    game = Game(2, Contract.SOLO, 1, Suit.EICHEL, declarer_points=card_points, schwarz=True)
    assert [p.code for p in score_entry(game, P).problems] == [Code.SCHWARZ_NEEDS_ALL_POINTS]


@pytest.mark.parametrize("card_points", [-1, 121, 200])
def test_card_points_out_of_range_are_refused(card_points):
    game = Game(2, Contract.WENZ, 1, declarer_points=card_points)
    assert [p.code for p in score_entry(game, P).problems] == [Code.CARD_POINTS_OUT_OF_RANGE]


def test_rufer_by_card_points_scores_the_declarer_side():
    game = Game(2, Contract.RUFER, 2, Suit.SCHELLEN, partner=4, declarer_points=25)
    assert score_entry(game, P).points == (2, -2, 2, -2)  # lost Schneider


@pytest.mark.parametrize(
    ("game", "code"),
    [
        (rufer(2, suit=Suit.HERZ), Code.CALLED_ACE_HERZ),  # 2.5.1
        (rufer(2, suit=None), Code.SUIT_MISSING),
        (rufer(2, partner=None), Code.PARTNER_MISSING),
        (rufer(2, partner=1), Code.PARTNER_IS_DECLARER),
        (solo(2, suit=None), Code.SUIT_MISSING),
        (Game(2, Contract.WENZ, 1, suit=Suit.GRAS, result=WON), Code.SUIT_NOT_ALLOWED),
        (Game(2, Contract.SOLO, 1, Suit.GRAS, partner=2, result=WON), Code.PARTNER_NOT_ALLOWED),
        (Game(2, Contract.SOLO, 5, Suit.GRAS, result=WON), Code.SEAT_OUT_OF_RANGE),
        (Game(2, Contract.SOLO, None, Suit.GRAS, result=WON), Code.SEAT_OUT_OF_RANGE),
        (Game(2, Contract.SOLO, "1", Suit.GRAS, result=WON), Code.SEAT_OUT_OF_RANGE),
        (Game(2, Contract.SOLO, 1, Suit.GRAS), Code.RESULT_MISSING),
        (Game(2, Contract.SOLO, 1, Suit.GRAS, result=WON, declarer_points=70), Code.RESULT_TWICE),
        (Game(2, Contract.SOLO_TOUT, 1, Suit.GRAS, declarer_points=120), Code.TOUT_NEEDS_RESULT),
        (solo_tout(2, schneider=True, approved=True), Code.TOUT_HAS_NO_LEVEL),
        (sie(2, result=Result.LOST, approved=True), Code.SIE_ALWAYS_WON),
        (Game(33, Contract.WENZ, 1, result=WON), Code.GAME_NUMBER_OUT_OF_RANGE),
        (Game(0, Contract.WENZ, 1, result=WON), Code.GAME_NUMBER_OUT_OF_RANGE),
    ],
)
def test_malformed_game_is_refused_with_its_code(game, code):
    scored = score_entry(game, P)
    assert code in [p.code for p in scored.problems]
    assert all(p.game == game.number for p in scored.problems)
    assert scored.points == (0, 0, 0, 0)
    assert not scored.counted
