"""Tables of five, where the dealer sits out the game he dealt (README readings): 40 games, the
dealer's 0 in every game, rounds of five games, seats 1–5. Points hand-checked against the
tables of RULINGS 3 and 9 over the four seats that play."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    DEFAULT_PROFILE,
    PROFILES,
    Code,
    Contract,
    Family,
    Level,
    Transcribed,
    build_profile,
    score_entry,
    score_sheet,
)
from scoring.approvals import approval_contract, approval_covers
from scoring.entries import playing, seats_of, zero
from scoring.notation import NotationError, format_row, parse_game, parse_row
from scoring.points import points_of
from scoring.profiles import ProfileError, profile_from_exchange
from scoring.scoresheet import dealer, round_of
from scoring.transcription import transcribe
from tests.scoring.helpers import LOST, WON, rufer, sanction, sie, solo, solo_tout, wenz, wenz_tout
from tests.scoring.strategies import entries, five_seat_sheets, profiles, seated_at_five

P = DEFAULT_PROFILE
R, S, W, ST, WT = (Contract.RUFER, Contract.SOLO, Contract.WENZ, Contract.SOLO_TOUT, Contract.WENZ_TOUT)


def at_five(entry, earlier=()):
    return score_entry(entry, P, earlier, seats=5)


def codes_at_five(entry):
    return [(p.code, p.field) for p in at_five(entry).problems]


def test_the_dealer_of_game_n_and_rounds_of_five():
    assert [dealer(n, 5) for n in (1, 2, 5, 6, 10, 11, 40)] == [1, 2, 5, 1, 5, 1, 5]
    assert [round_of(n, 5) for n in (1, 5, 6, 10, 11, 40)] == [1, 1, 2, 2, 3, 8]
    assert playing(7, 5) == (1, 3, 4, 5)
    assert playing(7) == (1, 2, 3, 4)
    assert (seats_of(5), zero(5)) == ((1, 2, 3, 4, 5), (0, 0, 0, 0, 0))


def test_a_match_at_five_is_five_quarters_of_the_profile():
    assert (P.games_for(4), P.games_for(5)) == (32, 40)
    assert PROFILES["turnierregeln-3x16"].games_for(5) == 20
    with pytest.raises(ValueError):
        P.games_for(6)


@pytest.mark.parametrize(
    ("entry", "points"),
    [
        # Sauspiel: the two winners +, the two other players −, the dealer 0.
        (rufer(2, declarer=1, partner=3), (1, 0, 1, -1, -1)),  # dealer 2
        (rufer(2, declarer=1, partner=3, result=LOST), (-1, 0, -1, 1, 1)),
        (rufer(3, declarer=4, partner=5, schneider=True), (-2, -2, 0, 2, 2)),  # dealer 3
        (rufer(4, declarer=1, partner=2, schwarz=True), (3, 3, -3, 0, -3)),  # dealer 4
        (rufer(5, declarer=1, partner=2, result=None, declarer_points=30), (-2, -2, 2, 2, 0)),
        # Solo and Wenz: the three players who do not declare are the defenders.
        (solo(6, declarer=2), (0, 6, -2, -2, -2)),  # dealer 1
        (solo(7, declarer=5, result=LOST, schneider=True), (3, 0, 3, 3, -9)),  # dealer 2
        (solo(8, declarer=1, schwarz=True), (12, -4, 0, -4, -4)),  # dealer 3
        (wenz(9, declarer=3, result=None, declarer_points=95), (-3, -3, 9, 0, -3)),  # dealer 4
        (wenz(10, declarer=1, result=LOST), (-6, 2, 2, 2, 0)),  # dealer 5
        # Tout and Sie, approved (5.2.14).
        (solo_tout(10, declarer=4, approved=True), (-6, -6, -6, 18, 0)),
        (wenz_tout(11, declarer=5, result=LOST, approved=True), (0, 6, 6, 6, -18)),  # dealer 1
        (sie(12, declarer=1, approved=True), (24, 0, -8, -8, -8)),  # dealer 2
        # RULINGS 10: an invalid announcement is lost at the plain level.
        (solo(13, declarer=2, result=None, invalid_announcement=True), (2, -6, 0, 2, 2)),  # dealer 3
    ],
)
def test_every_game_at_five(entry, points):
    scored = at_five(entry)
    assert scored.problems == ()
    assert scored.points == points
    assert scored.points[dealer(entry.number, 5) - 1] == 0
    assert sum(scored.points) == 0


@pytest.mark.parametrize(
    ("contract", "declarer", "partner", "liable", "points"),
    [
        # Game 14, dealer 4: players 1, 2, 3, 5.
        (R, 1, 2, 1, (-4, 0, 2, 0, 2)),  # the declarer is liable: his partner gets 0
        (R, 1, 2, 3, (2, 2, -4, 0, 0)),  # a defender is liable: the other defender (5) gets 0
        (R, 1, 2, 5, (2, 2, 0, 0, -4)),
        (S, 2, None, 2, (3, -9, 3, 0, 3)),  # the declarer is liable
        (S, 2, None, 5, (0, 9, 0, 0, -9)),  # a defender is liable
        (W, 3, None, 3, (3, 3, -9, 0, 3)),
        (W, 3, None, 1, (-9, 0, 9, 0, 0)),
        (ST, 5, None, 5, (6, 6, 6, 0, -18)),
        (ST, 5, None, 2, (0, -18, 0, 0, 18)),
        (WT, 1, None, 1, (-18, 6, 6, 0, 6)),
        (WT, 1, None, 3, (18, 0, -18, 0, 0)),
    ],
)
def test_sanctions_at_five(contract, declarer, partner, liable, points):
    scored = at_five(sanction(14, contract, declarer, liable, partner))
    assert scored.problems == ()
    assert scored.points == points
    assert not scored.needs_approval


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (solo(6, declarer=1), "declarer"),  # game 6 is dealt by seat 1
        (rufer(7, declarer=1, partner=2), "partner"),  # dealer 2
        (rufer(8, declarer=3, partner=1), "declarer"),  # dealer 3
        (sie(9, declarer=4, approved=True), "declarer"),  # dealer 4
        (sanction(10, S, declarer=1, liable=5), "liable"),  # dealer 5
        (sanction(10, S, declarer=5, liable=1), "declarer"),
        (sanction(9, R, declarer=1, partner=4, liable=2), "partner"),
        (sanction(11, R, declarer=2, partner=3, liable=1), "liable"),  # dealer 1
    ],
)
def test_the_dealer_can_be_neither_declarer_partner_nor_liable(entry, field):
    problems = at_five(entry).problems
    assert [(p.code, p.field, p.value, p.game) for p in problems] == [
        (Code.SEAT_SITS_OUT, field, dealer(entry.number, 5), entry.number)
    ]


def test_seat_six_does_not_exist_and_seat_five_only_at_five():
    problems = at_five(solo(2, declarer=6)).problems
    assert [(p.code, p.value, p.seats) for p in problems] == [(Code.SEAT_OUT_OF_RANGE, "6", 5)]
    assert codes_at_five(rufer(3, declarer=1, partner=6)) == [(Code.SEAT_OUT_OF_RANGE, "partner")]
    assert codes_at_five(sanction(3, S, declarer=1, liable=6)) == [(Code.SEAT_OUT_OF_RANGE, "liable")]
    four = score_entry(solo(2, declarer=5), P).problems
    assert [(p.code, p.seats) for p in four] == [(Code.SEAT_OUT_OF_RANGE, 4)]


def test_games_33_to_40_exist_only_at_five():
    assert at_five(rufer(40, declarer=1, partner=2)).points == (1, 1, -1, -1, 0)
    assert codes_at_five(rufer(41, declarer=2, partner=3)) == [(Code.GAME_NUMBER_OUT_OF_RANGE, "game")]
    assert [p.code for p in score_entry(rufer(33), P).problems] == [Code.GAME_NUMBER_OUT_OF_RANGE]


def test_game_one_at_five_follows_the_game_one_rulings():
    """Game 1 is dealt by seat 1: RULINGS 5 and 6 apply as at four."""
    tout = at_five(solo_tout(1, declarer=2))
    assert (tout.points, tout.downgraded, tout.needs_approval) == ((0, 6, -2, -2, -2), True, False)
    schwarz = at_five(wenz(1, declarer=3, result=LOST, schwarz=True))
    assert (schwarz.points, schwarz.downgraded) == ((0, 2, -6, 2, 2), True)
    assert at_five(sanction(1, ST, declarer=2, liable=2)).points == (0, -9, 3, 3, 3)
    assert codes_at_five(sie(1, declarer=2, approved=True)) == [(Code.SIE_IN_FIRST_GAME, "contract")]


def test_tout_without_approval_is_struck_with_five_zeros():
    scored = at_five(solo_tout(17, declarer=1))  # dealer 2
    assert scored.struck and scored.points == (0, 0, 0, 0, 0)
    assert scored.tally(1).as_tuple() == (0, 0, 0, 0, 0)


def test_the_fifth_solo_at_a_table_of_five_needs_approval():
    """5.2.16 counts per table, whatever its size."""
    entries_ = [solo(2, 1), wenz(3, 1), solo(4, 1), wenz(5, 1, result=LOST), solo(6, 2)]
    sheet = score_sheet(entries_, P, seats=5)
    fifth = sheet.row(6).scored
    assert fifth.needs_approval and fifth.struck and fifth.points == (0, 0, 0, 0, 0)
    approved = score_sheet([*entries_[:4], solo(6, 2, approved=True)], P, seats=5)
    assert approved.row(6).scored.points == (0, 6, -2, -2, -2)


def test_hand_checked_sheet_at_five():
    entries_ = [
        rufer(1, declarer=2, partner=3),  # dealer 1: (0, 1, 1, -1, -1)
        solo(2, declarer=1),  # dealer 2: (6, 0, -2, -2, -2)
        rufer(3, declarer=4, partner=5, result=LOST, schneider=True),  # dealer 3: (2, 2, 0, -2, -2)
        wenz(4, declarer=5, result=LOST),  # dealer 4: (2, 2, 2, 0, -6)
        sanction(5, R, declarer=1, partner=3, liable=2),  # dealer 5: (2, -4, 2, 0, 0)
        solo(6, declarer=3),  # dealer 1: (0, -2, 6, -2, -2)
    ]
    sheet = score_sheet(entries_, P, seats=5)
    assert sheet.problems == ()
    assert sheet.seats == 5
    assert [row.dealer for row in sheet.rows] == [1, 2, 3, 4, 5, 1]
    assert [row.running for row in sheet.rows] == [
        (0, 1, 1, -1, -1),
        (6, 1, -1, -3, -3),
        (8, 3, -1, -5, -5),
        (10, 5, 1, -5, -11),
        (12, 1, 3, -5, -11),
        (12, -1, 9, -7, -13),
    ]
    first, second = sheet.rounds
    assert (first.subtotal, first.games_entered, first.complete, first.checksum) == (
        (12, 1, 3, -5, -11),
        5,
        True,
        0,
    )
    assert (second.subtotal, second.running, second.complete) == ((0, -2, 6, -2, -2), sheet.totals, False)
    assert sheet.totals == (12, -1, 9, -7, -13)
    assert sheet.missing == tuple(range(7, 41))
    assert not sheet.complete
    assert [t.as_tuple() for t in sheet.tallies] == [
        (0, 0, 0, 1, 1),
        (0, 0, 0, 0, 0),
        (0, 0, 0, 1, 1),
        (0, 0, 0, 0, 0),
        (0, 0, 0, 0, 1),
    ]


def full_match_at_five():
    """40 games: Sauspiele and a Solo or Wenz now and then, nobody's number for the dealer."""
    made = []
    for n in range(1, 41):
        first, second, third, fourth = playing(n, 5)
        if n % 10 == 0:
            made.append(solo(n, declarer=second, result=WON if n % 20 else LOST, approved=True))
        elif n % 10 == 5:
            made.append(wenz(n, declarer=fourth, result=LOST, schneider=True, approved=True))
        elif n == 17:
            made.append(sanction(n, R, declarer=first, partner=third, liable=fourth))
        else:
            partner = third if n % 3 else fourth
            made.append(rufer(n, declarer=first, partner=partner, result=WON if n % 4 else LOST))
    return made


def test_complete_sheet_of_forty_games():
    sheet = score_sheet(full_match_at_five(), P, seats=5)
    assert sheet.problems == ()
    assert sheet.missing == ()
    assert sheet.complete
    assert len(sheet.rows) == 40 and len(sheet.rounds) == 8
    assert all(len(r.running) == 5 and r.checksum == 0 and r.complete for r in sheet.rounds)
    assert all(row.scored.points[row.dealer - 1] == 0 for row in sheet.rows)
    assert sheet.totals == tuple(sum(row.scored.points[i] for row in sheet.rows) for i in range(5))
    assert sheet.rounds[-1].running == sheet.totals and sum(sheet.totals) == 0
    assert len(sheet.tallies) == 5


def test_a_sheet_of_five_refuses_the_dealer_and_keeps_its_round_checksum():
    entries_ = [
        rufer(1, declarer=2, partner=3),
        Transcribed(2, (6, 0, -2, -2, -1), 1),  # sums to 1
        rufer(3, declarer=1, partner=3),  # the dealer of game 3 as partner
    ]
    sheet = score_sheet(entries_, P, seats=5)
    found = [(p.code, p.game, p.round, p.value) for p in sheet.problems]
    assert (Code.POINTS_DO_NOT_SUM_TO_ZERO, 2, None, 1) in found
    assert (Code.SEAT_SITS_OUT, 3, None, 3) in found
    assert (Code.ROUND_CHECKSUM_NOT_ZERO, None, 1, 1) in found
    assert sheet.row(3).scored.points == (0, 0, 0, 0, 0)


# Paper rows at five (RULINGS 12): five numbers, the dealer's 0 among them.


def kind_at_five(points, declarer=None, number=2):
    described = transcribe(Transcribed(number, points, declarer), P, seats=5)
    assert described.problems == (), described.problems
    return described.kind


def row_problems(points, declarer=None, number=2):
    described = transcribe(Transcribed(number, points, declarer), P, seats=5)
    return [(p.code, p.seat, p.value) for p in described.problems]


def test_paper_rows_at_five():
    rufer_row = kind_at_five((1, 0, 1, -1, -1))  # dealer 2
    assert (rufer_row.family, rufer_row.winners) == (Family.RUFER, {1, 3})
    circled = kind_at_five((0, 6, -2, -2, -2), declarer=2, number=6)  # dealer 1
    assert (circled.family, circled.won, circled.declarer) == (Family.SOLO, True, 2)
    lost = kind_at_five((0, -9, 3, 3, 3), declarer=2, number=6)
    assert (lost.family, lost.won, lost.level) == (Family.SOLO, False, Level.SCHNEIDER)
    uncircled = kind_at_five((0, -9, 3, 3, 3), number=6)
    assert (uncircled.family, uncircled.liable, uncircled.declarer) == (Family.SANCTION_SOLO, 2, 2)
    sanction_row = kind_at_five((-4, 0, 2, 0, 2), number=14)  # dealer 4
    assert (sanction_row.family, sanction_row.liable, sanction_row.liable_partner) == (
        Family.SANCTION_RUFER,
        1,
        2,
    )
    sie_row = kind_at_five((-8, -8, 24, -8, 0), declarer=3, number=10)  # dealer 5
    assert sie_row.family is Family.SIE


def test_circled_soloist_row_at_five_is_struck_without_approval():
    row = Transcribed(10, (-6, -6, -6, 18, 0), 4)  # dealer 5
    assert at_five(row).struck and at_five(row).points == (0, 0, 0, 0, 0)
    approved = at_five(Transcribed(10, (-6, -6, -6, 18, 0), 4, approved=True))
    assert approved.points == (-6, -6, -6, 18, 0)
    assert approved.tally(4).as_tuple() == (0, 1, 1, 0, 0)
    assert approval_contract(row, P, seats=5) is Contract.SOLO_TOUT
    assert approval_covers(Contract.WENZ_TOUT, row, P, seats=5)


def test_paper_rows_at_five_that_are_refused():
    assert row_problems((1, 1, 0, -1, -1)) == [(Code.DEALER_POINTS_NOT_ZERO, 2, 1)]  # dealer 2
    assert row_problems((-2, 0, 6, -2, -2), declarer=2) == [(Code.SEAT_SITS_OUT, None, 2)]
    assert row_problems((6, -2, -2, -2), declarer=1) == [(Code.POINTS_NOT_FOUR, None, None)]
    assert row_problems((6, 0, -2, -2, -1), declarer=1) == [(Code.POINTS_DO_NOT_SUM_TO_ZERO, None, 1)]
    assert row_problems((6, 0, -2, -2, -2), declarer=6) == [(Code.SEAT_OUT_OF_RANGE, None, 6)]
    assert row_problems((0, 18, -6, -6, -6), declarer=2, number=1) == [
        (Code.TOUT_OR_SCHWARZ_IN_FIRST_GAME, None, None)
    ]
    # The messages of these three name five seats or five numbers.
    for points, declarer in (((6, -2, -2, -2), 1), ((6, 0, -2, -2, -1), 1), ((6, 0, -2, -2, -2), 6)):
        (problem,) = transcribe(Transcribed(2, points, declarer), P, seats=5).problems
        assert problem.seats == 5
    # A four-seat row is read as before: five numbers are too many there.
    assert [p.code for p in transcribe(Transcribed(2, (1, 0, 1, -1, -1)), P).problems] == [
        Code.POINTS_NOT_FOUR
    ]


def test_a_refused_row_at_five_keeps_its_five_numbers():
    scored = at_five(Transcribed(2, (6, 0, -2, -2, -1), 1))
    assert not scored.ok and scored.points == (6, 0, -2, -2, -1)


# The short notation at five.


def test_notation_names_seat_five_at_a_table_of_five():
    assert parse_game("sh5+", 7, seats=5).declarer == 5
    assert parse_game("re15+", 7, seats=5).partner == 5
    assert parse_game("sie5", 7, seats=5).declarer == 5
    for text, seats in (("sh6+", 5), ("sh5+", 4), ("re16+", 5)):
        with pytest.raises(NotationError) as error:
            parse_game(text, 7, seats=seats)
        assert (error.value.code, error.value.seats) == (Code.NOTATION_SEAT_UNKNOWN, seats)


def test_paper_row_notation_at_five():
    row = parse_row("0 (6) -2 -2 -2", 6, seats=5)
    assert (row.points, row.declarer) == ((0, 6, -2, -2, -2), 2)
    assert parse_row(format_row(row), 6, seats=5) == row
    with pytest.raises(NotationError) as error:
        parse_row("6* -2 -2 -2", 6, seats=5)
    assert (error.value.code, error.value.seats) == (Code.POINTS_NOT_FOUR, 5)
    with pytest.raises(NotationError):
        parse_row("0 6* -2 -2 -2", 6)


# The profile option (RULINGS 15).


def test_tables_of_five_is_a_profile_option_on_by_default():
    assert P.tables_of_five is True
    assert P.to_exchange()["tables_of_five"] is True
    off = build_profile(overrides={"tables_of_five": False})
    assert off.tables_of_five is False
    assert off.overrides() == {"tables_of_five": False}
    assert profile_from_exchange(off.to_exchange()) == off
    with pytest.raises(ProfileError) as error:
        build_profile(overrides={"tables_of_five": 1})
    assert [(p.code, p.field) for p in error.value.problems] == [
        (Code.PROFILE_VALUE_INVALID, "tables_of_five")
    ]


# Properties: every valid game at five sums to zero, the dealer's column is 0, and the four
# players score exactly what the same game scores at a table of four.


@st.composite
def profile_and_entry_at_five(draw):
    profile = draw(profiles())
    number = draw(st.integers(1, profile.games_for(5)))
    return profile, number, draw(entries(number))


@given(profile_and_entry_at_five())
def test_every_valid_game_at_five_sums_to_zero_without_the_dealer(case):
    profile, number, entry = case
    players = playing(number, 5)
    scored = score_entry(seated_at_five(entry, players), profile, seats=5)
    assert scored.ok, scored.problems
    assert sum(scored.points) == 0
    assert scored.points[dealer(number, 5) - 1] == 0
    if number <= profile.games_per_match:
        at_four = score_entry(entry, profile)
        assert tuple(scored.points[seat - 1] for seat in players) == at_four.points
        assert (scored.struck, scored.downgraded) == (at_four.struck, at_four.downgraded)
    if not scored.struck:
        row = Transcribed(number, scored.points, scored.soloist)
        described = transcribe(row, profile, seats=5)
        if described.problems:
            assert profile.overrides(), described.problems  # RULINGS 12: only a custom profile
            assert described.problems[0].code == Code.POINTS_AMBIGUOUS
        else:
            assert described.kind == scored.kind


@settings(max_examples=60)
@given(st.data())
def test_sheets_at_five_sum_to_zero_in_every_round(data):
    profile = data.draw(profiles())
    entered = data.draw(five_seat_sheets(profile))
    sheet = score_sheet(entered, profile, seats=5)
    assert sheet.problems == ()
    assert all(total.checksum == 0 and len(total.subtotal) == 5 for total in sheet.rounds)
    assert all(row.scored.points[row.dealer - 1] == 0 for row in sheet.rows)
    assert sheet.complete == (len(entered) == profile.games_for(5))


def test_points_of_needs_four_players():
    kind = at_five(solo(6, declarer=2)).kind
    assert points_of(kind, P) == (-2, 6, -2, -2)
    with pytest.raises(ValueError):
        points_of(kind, P, seats=5)  # nobody sits out: five would play
