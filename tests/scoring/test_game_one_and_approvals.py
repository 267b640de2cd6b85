"""Game 1 (RULINGS 5, 6), approvals (RULINGS 7), struck games (RULINGS 8) and invalid
announcements (RULINGS 10)."""

import pytest

from scoring import (
    DEFAULT_PROFILE,
    Code,
    Contract,
    Family,
    Game,
    Level,
    Result,
    Sanction,
    Suit,
    Transcribed,
    build_profile,
    score_entry,
    score_sheet,
)
from scoring.approvals import Need, approval_contract, approval_covers, approval_need, soloist_games_before
from tests.scoring.helpers import LOST, WON, rufer, sanction, sie, solo, solo_tout, wenz, wenz_tout

P = DEFAULT_PROFILE


def test_sie_as_first_game_is_refused():
    scored = score_entry(sie(1, approved=True), P)
    assert [p.code for p in scored.problems] == [Code.SIE_IN_FIRST_GAME]


@pytest.mark.parametrize(
    ("game", "points"),
    [
        (solo_tout(1, declarer=2, result=WON), (-2, 6, -2, -2)),
        (solo_tout(1, declarer=2, result=LOST), (2, -6, 2, 2)),
        (wenz_tout(1, declarer=2, result=WON), (-2, 6, -2, -2)),
        (solo(1, declarer=2, result=WON, schwarz=True), (-2, 6, -2, -2)),
        (wenz(1, declarer=2, result=LOST, schwarz=True), (2, -6, 2, 2)),
    ],
)
def test_tout_and_schwarz_in_game_one_are_plain_solos(game, points):
    scored = score_entry(game, P)
    assert scored.points == points
    assert scored.downgraded
    assert not scored.needs_approval  # RULINGS 6: no approval for being a Tout
    assert scored.kind.family is Family.SOLO


def test_downgraded_tout_counts_as_plain_solo_for_tie_break():
    scored = score_entry(solo_tout(1, declarer=2, result=WON), P)
    assert scored.tally(2).as_tuple() == (0, 0, 0, 1, 1)


def test_schneider_in_game_one_scores_normally():
    scored = score_entry(solo(1, declarer=2, result=WON, schneider=True), P)
    assert scored.points == (-3, 9, -3, -3)
    assert not scored.downgraded


def test_rufer_schwarz_in_game_one_is_not_affected():
    assert score_entry(rufer(1, result=WON, schwarz=True), P).points == (3, -3, 3, -3)


@pytest.mark.parametrize("game", [solo_tout(2), wenz_tout(2), sie(2)])
def test_tout_and_sie_without_approval_are_struck(game):
    scored = score_entry(game, P)
    assert scored.needs_approval
    assert scored.struck
    assert scored.points == (0, 0, 0, 0)
    assert scored.tally(1).as_tuple() == (0, 0, 0, 0, 0)


def test_approved_tout_scores():
    scored = score_entry(solo_tout(2, approved=True), P)
    assert scored.needs_approval and not scored.struck
    assert scored.points == (18, -6, -6, -6)


def _four_soloist_games():
    return [solo(1, declarer=1), wenz(2, declarer=2), solo(3, declarer=3), wenz(4, declarer=4)]


def test_fourth_solo_needs_no_approval_and_fifth_does():
    sheet = score_sheet([*_four_soloist_games(), solo(5, declarer=1)], P)
    assert [row.scored.needs_approval for row in sheet.rows] == [False] * 4 + [True]


def test_fifth_solo_without_approval_is_struck():
    sheet = score_sheet([*_four_soloist_games(), solo(5, declarer=1, result=WON)], P)
    fifth = sheet.row(5).scored
    assert fifth.struck
    assert fifth.points == (0, 0, 0, 0)
    assert sheet.tallies[0].solo_played == 1  # only game 1; the struck game counts for nothing
    assert sheet.row(5).running == sheet.row(4).running


def test_fifth_solo_with_approval_counts():
    sheet = score_sheet([*_four_soloist_games(), solo(5, declarer=1, approved=True)], P)
    assert not sheet.row(5).scored.struck
    assert sheet.row(5).scored.points == (6, -2, -2, -2)


def test_struck_games_do_not_count_towards_the_threshold():
    entries = [
        solo(1),
        solo_tout(2),
        wenz(3),
        solo(4),
        sie(5),  # the Tout and the Sie are struck
        rufer(6),
        solo(7),
    ]
    sheet = score_sheet(entries, P)
    assert sheet.row(2).scored.struck and sheet.row(5).scored.struck
    assert not sheet.row(7).scored.needs_approval  # only 3 counted soloist games before
    assert soloist_games_before(8, [row.scored for row in sheet.rows]) == 4


def test_sanctions_do_not_count_towards_the_threshold():
    entries = [solo(1), solo(2), sanction(3, Contract.SOLO, 1, liable=1), solo(4), solo(5)]
    assert not score_sheet(entries, P).row(5).scored.needs_approval


def test_touts_count_towards_the_threshold_but_sie_does_not():
    entries = [solo(1), solo_tout(2, approved=True), sie(3, approved=True), wenz(4), solo(5)]
    sheet = score_sheet(entries, P)
    assert not sheet.row(5).scored.needs_approval
    assert score_sheet([*entries, wenz(6)], P).row(6).scored.needs_approval


def test_threshold_comes_from_the_profile():
    early = build_profile(overrides={"solo_approval_from": 2})
    sheet = score_sheet([solo(1), solo(2)], early)
    assert [row.scored.struck for row in sheet.rows] == [False, True]


def test_approval_is_counted_per_table_and_match_in_game_order():
    """The count looks at the games before this one, whatever order they were entered in."""
    entries = [solo(5), solo(4), solo(3), solo(2), solo(1)]
    sheet = score_sheet(entries, P)
    assert [row.number for row in sheet.rows] == [1, 2, 3, 4, 5]
    assert sheet.row(5).scored.struck


@pytest.mark.parametrize(
    ("game", "points", "tally"),
    [
        (solo(2, declarer=2, result=None, invalid_announcement=True), (2, -6, 2, 2), (0, 0, 0, 0, 1)),
        (wenz(2, declarer=2, result=LOST, invalid_announcement=True), (2, -6, 2, 2), (0, 0, 0, 0, 1)),
        (solo_tout(2, declarer=2, result=None, invalid_announcement=True), (6, -18, 6, 6), (0, 0, 1, 0, 0)),
    ],
)
def test_invalid_announcement_is_lost_at_plain_level(game, points, tally):
    scored = score_entry(game, P)
    assert scored.points == points
    assert scored.tally(2).as_tuple() == tally
    assert not scored.struck  # it ended before play: no approval to ask for


def test_invalid_announcement_cannot_be_won():
    game = solo(2, result=WON, invalid_announcement=True)
    assert [p.code for p in score_entry(game, P).problems] == [Code.INVALID_ANNOUNCEMENT_IS_LOST]


def test_invalid_rufer_is_a_sanction():
    game = rufer(2, result=None, invalid_announcement=True)
    assert Code.INVALID_RUFER_IS_SANCTION in [p.code for p in score_entry(game, P).problems]


def test_invalid_tout_in_game_one_is_a_lost_plain_solo():
    scored = score_entry(solo_tout(1, declarer=3, result=None, invalid_announcement=True), P)
    assert scored.points == (2, 2, -6, 2)
    assert scored.kind.level is Level.NORMAL


def test_exchange_names_are_read_as_enums():
    """An importer passes the exchange format's strings; they must score as the enums do."""

    scored = score_entry(Game(2, "solo", 1, "herz", result="won"), P)
    assert scored.points == (6, -2, -2, -2)
    with pytest.raises(ValueError):
        Game(2, "ramsch", 1, result="won")


def test_downgraded_tout_paper_row_and_invalid_announcement_count_towards_threshold():

    entries = [
        solo_tout(1, declarer=2),  # downgraded, still a soloist game
        Transcribed(2, (6, -2, -2, -2), 1),
        wenz(3, result=None, invalid_announcement=True),
        solo_tout(4, approved=True),
        solo(5),
    ]
    sheet = score_sheet(entries, P)
    assert sheet.row(5).scored.struck


def test_sie_counts_in_tie_break_criterion_a():
    scored = score_entry(sie(9, declarer=3, approved=True), P)
    assert scored.tally(3).as_tuple() == (1, 0, 0, 0, 0)
    assert scored.tally(1).as_tuple() == (0, 0, 0, 0, 0)


def test_tout_sanction_in_game_one_with_a_liable_defender():
    scored = score_entry(sanction(1, Contract.WENZ_TOUT, 3, liable=2), P)
    assert scored.points == (0, -9, 9, 0)


def test_an_approval_covers_its_own_contract_and_a_row_that_scores_as_it():
    tout = Game(5, Contract.SOLO_TOUT, 2, suit=Suit.GRAS, result=Result.WON)
    assert approval_covers(Contract.SOLO_TOUT, tout, DEFAULT_PROFILE)
    assert not approval_covers(Contract.WENZ_TOUT, tout, DEFAULT_PROFILE)  # RULINGS 7: exact contract
    row = Transcribed(5, (18, -6, -6, -6), 1)  # a Tout won by seat 1, as the paper shows it
    assert approval_covers(Contract.WENZ_TOUT, row, DEFAULT_PROFILE)
    assert approval_covers(Contract.SOLO_TOUT, row, DEFAULT_PROFILE)
    assert not approval_covers(Contract.SOLO, row, DEFAULT_PROFILE)
    assert not approval_covers(Contract.SOLO, Sanction(5, Contract.SOLO, 1, 2), DEFAULT_PROFILE)
    assert approval_contract(tout, DEFAULT_PROFILE) is Contract.SOLO_TOUT
    assert approval_contract(row, DEFAULT_PROFILE) is Contract.SOLO_TOUT
    assert approval_contract(Transcribed(5, (6, -2, -2, -2), 1), DEFAULT_PROFILE) is Contract.SOLO
    rufer = Game(5, Contract.RUFER, 1, suit=Suit.EICHEL, partner=2, result=Result.WON)
    assert approval_contract(rufer, DEFAULT_PROFILE) is None
    for entry in (tout, row):
        assert approval_covers(approval_contract(entry, DEFAULT_PROFILE), entry, DEFAULT_PROFILE)


@pytest.mark.parametrize("seats", [4, 5])
def test_what_a_contract_asks_before_play_in_game_1_and_later(seats):
    """issue 28, item 4: the table's phone is told this, decides nothing itself."""
    first = {c: approval_need(c, 1, 0, P, seats) for c in Contract}
    assert first[Contract.SOLO_TOUT][0] is first[Contract.WENZ_TOUT][0] is Need.NONE  # RULINGS 6
    need, problem = first[Contract.SIE]
    assert need is Need.REFUSED and problem.code is Code.SIE_IN_FIRST_GAME  # RULINGS 5
    assert approval_need(Contract.SIE, 2, 0, P, seats) == (Need.APPROVAL, None)
    assert approval_need(Contract.SOLO_TOUT, 2, 0, P, seats)[0] is Need.APPROVAL
    assert approval_need(Contract.WENZ, 9, 3, P, seats)[0] is Need.NONE
    assert approval_need(Contract.WENZ, 9, 4, P, seats)[0] is Need.APPROVAL  # 5.2.16
    assert approval_need(Contract.RUFER, 9, 9, P, seats)[0] is Need.NONE
    # a profile approving every Solo from the first: a Tout in game 1 is such a Solo
    every = build_profile(overrides={"solo_approval_from": 1})
    assert approval_need(Contract.SOLO_TOUT, 1, 0, every, seats)[0] is Need.APPROVAL
