"""Hand-counted sheets for the statistics (issue 30): one match, a table of five and a table of
four, each game written down here with who played it (seat positions; the draw decides who
sits where, ``seat_numbers`` tells)."""

import datetime

import pytest

from scoring import Contract, Game, Result, Sanction, Suit
from tournament.draw.models import Seat
from tournament.draw.services import draw_all
from tournament.models import Participant
from tournament.results import services as sheet_service
from tournament.tournaments.permissions import COMMAND_LINE

# Table 1 (five seats; game n is dealt and sat out by seat ((n − 1) mod 5) + 1).
FIVE = [
    # 1: seat 1 sits out. Sauspiel 2 with 3, 70 card points: won.
    Game(1, Contract.RUFER, 2, suit=Suit.EICHEL, partner=3, declarer_points=70),
    # 2: seat 2 sits out. Herz-Solo by 3, 80: won.
    Game(2, Contract.SOLO, 3, suit=Suit.HERZ, declarer_points=80),
    # 3: seat 3 sits out. Wenz by 4, 40: lost.
    Game(3, Contract.WENZ, 4, declarer_points=40),
    # 4: seat 4 sits out. A sanction in a Solo: seat 1 liable, declarer 5.
    Sanction(4, Contract.SOLO, 5, 1),
    # 5: seat 5 sits out. Solo Tout by 1, won, no approval: struck (RULINGS 7, 8).
    Game(5, Contract.SOLO_TOUT, 1, suit=Suit.GRAS, result=Result.WON),
]
# Table 2 (four seats).
FOUR = [
    # Sauspiel 1 with 2, 95: won Schneider.
    Game(1, Contract.RUFER, 1, suit=Suit.GRAS, partner=2, declarer_points=95),
    # Sie by 3, approved.
    Game(2, Contract.SIE, 3),
    # Wenz Tout by 4, won, approved.
    Game(3, Contract.WENZ_TOUT, 4, result=Result.WON),
]
FOUR_APPROVED = {2: Contract.SIE.value, 3: Contract.WENZ_TOUT.value}


@pytest.fixture
def sheets(make_tournament, organiser, sheet_of):
    """Nine players (a table of five and one of four), one match, the games above."""

    def sheets(slug="handzettel", day=datetime.date(2026, 3, 1), persons=None, **fields):
        tournament = make_tournament(slug, date=day, rule_overrides={"matches": 1}, **fields)
        for n in range(1, 10):
            Participant.objects.create(
                tournament=tournament, number=n, name=f"Spieler {n}", person=(persons or {}).get(n)
            )
        draw_all(COMMAND_LINE, tournament, seed=slug)
        five, four = sheet_of(tournament, 1, 1), sheet_of(tournament, 1, 2)
        if five.size != 5:
            five, four = four, five
        sheet_service.fill_sheets(
            COMMAND_LINE, tournament, [(five, FIVE, {}), (four, FOUR, FOUR_APPROVED)], approved_by_name="TL"
        )
        return tournament, seat_numbers(five), seat_numbers(four)

    return sheets


def seat_numbers(sheet) -> dict[int, int]:
    """Seat position → start number."""
    return dict(Seat.objects.filter(table=sheet.table).values_list("position", "participant__number"))
