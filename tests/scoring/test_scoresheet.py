"""The scoresheet aggregate: running totals, rounds and checksums (5.3.3, RULINGS 11)."""

from scoring import DEFAULT_PROFILE, Code, Contract, Transcribed, score_sheet
from scoring.scoresheet import dealer, round_of
from tests.scoring.helpers import LOST, WON, rufer, sanction, solo, wenz

P = DEFAULT_PROFILE


def full_match():
    """32 games: Rufer and a few Solos, all valid."""
    entries = []
    for n in range(1, 33):
        if n % 8 == 0:
            entries.append(solo(n, declarer=(n // 8) % 4 + 1, result=WON))
        elif n % 8 == 4:
            entries.append(wenz(n, declarer=2, result=LOST, schneider=True))
        else:
            entries.append(
                rufer(n, declarer=n % 4 + 1, partner=(n + 1) % 4 + 1, result=WON if n % 3 else LOST)
            )
    return entries


def test_dealer_and_round():
    assert [dealer(n) for n in (1, 2, 3, 4, 5, 32)] == [1, 2, 3, 4, 1, 4]
    assert [round_of(n) for n in (1, 4, 5, 32)] == [1, 1, 2, 8]


def test_complete_sheet():
    sheet = score_sheet(full_match(), P)
    assert sheet.complete
    assert sheet.missing == ()
    assert len(sheet.rounds) == 8
    assert all(r.checksum == 0 and r.complete for r in sheet.rounds)
    assert sum(sheet.totals) == 0
    assert sheet.totals == tuple(sum(row.scored.points[i] for row in sheet.rows) for i in range(4))
    assert sheet.rounds[-1].running == sheet.totals


def test_running_totals_and_round_subtotals():
    entries = [
        rufer(1, 1, 3),
        solo(2, 2),
        rufer(3, 4, 2, result=LOST, schneider=True),
        wenz(4, 3),
        rufer(5, 1, 2),
    ]
    sheet = score_sheet(entries, P)
    assert sheet.row(1).running == (1, -1, 1, -1)
    assert sheet.row(2).running == (-1, 5, -1, -3)
    assert sheet.row(3).running == (1, 3, 1, -5)
    assert sheet.row(4).running == (-1, 1, 7, -7)
    assert sheet.rounds[0].subtotal == (-1, 1, 7, -7)
    assert sheet.rounds[1].subtotal == (1, 1, -1, -1)
    assert sheet.rounds[1].running == (0, 2, 6, -8)
    assert not sheet.rounds[1].complete
    assert not sheet.complete
    assert sheet.missing[0] == 6
    assert sheet.problems == ()  # games still to come are not problems


def test_gap_and_duplicate_game_numbers_are_problems():
    sheet = score_sheet([rufer(1), rufer(3), rufer(3, declarer=2, partner=4)], P)
    assert (Code.GAME_MISSING, 2) in [(p.code, p.game) for p in sheet.problems]
    assert (Code.GAME_NUMBER_TWICE, 3) in [(p.code, p.game) for p in sheet.problems]
    assert not sheet.complete


def test_refused_paper_row_shows_in_the_round_checksum():
    entries = [rufer(1), rufer(2), Transcribed(3, (6, -2, -2, -1), 1), rufer(4)]
    sheet = score_sheet(entries, P)
    codes = [(p.code, p.round, p.value) for p in sheet.problems]
    assert (Code.ROUND_CHECKSUM_NOT_ZERO, 1, 1) in codes
    assert (Code.MATCH_CHECKSUM_NOT_ZERO, None, 1) in [(c, r, v) for c, r, v in codes]
    assert not sheet.complete


def test_game_past_the_match_is_a_problem():
    sheet = score_sheet([rufer(33)], P)
    assert [p.code for p in sheet.problems] == [Code.GAME_NUMBER_OUT_OF_RANGE]


def test_tallies_per_seat():
    entries = [solo(1, 2), wenz(2, 2, result=LOST), sanction(3, Contract.SOLO, 2, liable=2), rufer(4, 2, 1)]
    sheet = score_sheet(entries, P)
    assert sheet.tallies[1].as_tuple() == (0, 0, 0, 1, 2)
    assert sheet.tallies[0].as_tuple() == (0, 0, 0, 0, 0)
