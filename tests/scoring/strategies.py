"""Hypothesis strategies for valid entries, sheets and profiles."""

from dataclasses import replace

from hypothesis import strategies as st

from scoring import Contract, Game, Result, Sanction, Suit, build_profile
from scoring.cards import CALLABLE_ACES
from scoring.entries import playing

seats = st.integers(1, 4)


@st.composite
def profiles(draw):
    """The two named profiles and custom ones with valid (zero-sum, increasing) tables."""
    name = draw(st.sampled_from(["schafkopfschule-2007", "turnierregeln-3x16"]))
    if draw(st.booleans()):
        return build_profile(name)
    rufer = sorted(draw(st.lists(st.integers(1, 10), min_size=3, max_size=3, unique=True)))
    solo = sorted(draw(st.lists(st.integers(1, 10), min_size=3, max_size=3, unique=True)))
    tout, sie = draw(st.integers(1, 20)), draw(st.integers(1, 30))
    return build_profile(
        name,
        {
            "games_per_match": draw(st.sampled_from([8, 16, 32])),
            "solo_approval_from": draw(st.integers(1, 9)),
            "points": {
                "rufer": rufer,
                "solo": [[3 * e, e] for e in solo],
                "tout": [3 * tout, tout],
                "sie": [3 * sie, sie],
            },
            "sanctions": {
                "rufer": [2 * (o := draw(st.integers(1, 6))), o],
                "solo": 3 * draw(st.integers(1, 8)),
                "tout": 3 * draw(st.integers(1, 12)),
            },
        },
    )


@st.composite
def games(draw, number):
    contract = draw(st.sampled_from(list(Contract)))
    if contract is Contract.SIE and number == 1:
        contract = Contract.SOLO
    declarer = draw(seats)
    suit = None
    partner = None
    if contract is Contract.RUFER:
        suit = draw(st.sampled_from(CALLABLE_ACES))
        partner = draw(seats.filter(lambda s: s != declarer))
    elif contract in (Contract.SOLO, Contract.SOLO_TOUT):
        suit = draw(st.sampled_from(list(Suit)))
    approved = draw(st.booleans())
    if contract is Contract.SIE:
        return Game(number, contract, declarer, approved=approved)
    if contract is not Contract.RUFER and draw(st.integers(0, 9)) == 0:
        return Game(number, contract, declarer, suit=suit, invalid_announcement=True, approved=approved)
    if contract.is_tout:
        return Game(
            number,
            contract,
            declarer,
            suit=suit,
            result=draw(st.sampled_from(list(Result))),
            approved=approved,
        )
    if draw(st.booleans()):
        card_points = draw(st.integers(0, 120))
        schwarz = card_points in (0, 120) and draw(st.booleans())
        return Game(
            number,
            contract,
            declarer,
            suit=suit,
            partner=partner,
            declarer_points=card_points,
            schwarz=schwarz,
            approved=approved,
        )
    return Game(
        number,
        contract,
        declarer,
        suit=suit,
        partner=partner,
        result=draw(st.sampled_from(list(Result))),
        schneider=draw(st.booleans()),
        schwarz=draw(st.booleans()),
        approved=approved,
    )


@st.composite
def sanctions(draw, number):
    contract = draw(st.sampled_from([c for c in Contract if c is not Contract.SIE]))
    declarer = draw(seats)
    partner = draw(seats.filter(lambda s: s != declarer)) if contract is Contract.RUFER else None
    return Sanction(number, contract, declarer, draw(seats), partner)


def entries(number):
    return st.one_of(games(number), games(number), games(number), sanctions(number))


@st.composite
def sheets(draw, profile):
    """Entries for some or all games of a match, in random order of entry."""
    count = draw(st.integers(0, profile.games_per_match))
    entered = [draw(entries(n)) for n in range(1, count + 1)]
    return draw(st.permutations(entered))


def seated_at_five(entry, players):
    """A four-seat entry moved to a table of five: seat i becomes the i-th of the four
    ``players`` (the seats that play the game; the dealer sits out)."""
    moved = {seat: players[seat - 1] for seat in (1, 2, 3, 4)}
    if isinstance(entry, Sanction):
        return replace(
            entry,
            declarer=moved[entry.declarer],
            liable=moved[entry.liable],
            partner=moved.get(entry.partner),
        )
    return replace(entry, declarer=moved[entry.declarer], partner=moved.get(entry.partner))


@st.composite
def five_seat_sheets(draw, profile):
    """Entries for some or all games of a match at a table of five, in random order of entry."""
    count = draw(st.integers(0, profile.games_for(5)))
    entered = [seated_at_five(draw(entries(n)), playing(n, 5)) for n in range(1, count + 1)]
    return draw(st.permutations(entered))
