"""From a described game or sanction to its kind, or the list of what is wrong with it."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Contract, Suit, suit_is_valid
from .entries import (
    Family,
    Game,
    Kind,
    Level,
    Result,
    Sanction,
    family_of,
    playing,
    sanction_family_of,
    seats_of,
    sitting_out,
)
from .problems import Code, Problem
from .profiles import RuleProfile


@dataclass(frozen=True)
class Described:
    kind: Kind | None
    problems: tuple[Problem, ...] = ()
    downgraded: bool = False  # RULINGS 6


REQUIRED_SEATS = ("declarer", "liable")


def _seat_problems(number: int, table: int, in_range: bool, **named: int | None) -> list[Problem]:
    """Seats must be 1–4 (1–5 at a table of five); the declarer and the liable player must be
    given at all. At five the dealer sits out his game: he is neither declarer, partner nor
    liable (tables of five, README readings)."""
    out = sitting_out(number, table) if in_range else None
    problems = []
    for name, seat in named.items():
        if seat is None and name not in REQUIRED_SEATS:
            continue
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in seats_of(table):
            problems.append(
                Problem(Code.SEAT_OUT_OF_RANGE, game=number, field=name, value=str(seat), seats=table)
            )
        elif seat == out:
            problems.append(Problem(Code.SEAT_SITS_OUT, game=number, field=name, value=seat, seats=table))
    return problems


def _number_in_range(number: int, profile: RuleProfile, seats: int) -> bool:
    return 1 <= number <= profile.games_for(seats)


def _suit_problems(game: Game | Sanction, contract: Contract, suit: Suit | None) -> list[Problem]:
    if suit_is_valid(contract, suit):
        return []
    if contract is Contract.RUFER and suit is Suit.HERZ:
        return [Problem(Code.CALLED_ACE_HERZ, game=game.number, field="suit")]  # 2.5.1
    code = Code.SUIT_NOT_ALLOWED if suit is not None else Code.SUIT_MISSING
    return [Problem(code, game=game.number, field="suit")]


def _partner_problems(number: int, contract: Contract, declarer: int, partner: int | None) -> list[Problem]:
    if contract is Contract.RUFER:
        if partner is None:
            return [Problem(Code.PARTNER_MISSING, game=number, field="partner")]
        if partner == declarer:
            return [Problem(Code.PARTNER_IS_DECLARER, game=number, field="partner")]
    elif partner is not None:
        return [Problem(Code.PARTNER_NOT_ALLOWED, game=number, field="partner")]
    return []


def _outcome(game: Game) -> tuple[bool | None, Level, list[Problem]]:
    """Won or lost, and the level (RULINGS 4)."""
    n = game.number
    contract = game.contract
    if game.invalid_announcement:
        # RULINGS 10: the game ends at once, lost at the plain level.
        if game.result is Result.WON or game.schneider or game.schwarz or game.declarer_points is not None:
            return (
                None,
                Level.NORMAL,
                [Problem(Code.INVALID_ANNOUNCEMENT_IS_LOST, game=n, field="invalid_announcement")],
            )
        return False, Level.NORMAL, []
    if contract is Contract.SIE:
        # 2.9: a Sie is laid down, always won, no level.
        if game.result is Result.LOST or game.schneider or game.schwarz or game.declarer_points is not None:
            return None, Level.NORMAL, [Problem(Code.SIE_ALWAYS_WON, game=n, field="result")]
        return True, Level.NORMAL, []
    if contract.is_tout:
        problems = []
        if game.declarer_points is not None:
            # A trick may be worth 0 card points: points cannot show that every trick was taken.
            problems.append(Problem(Code.TOUT_NEEDS_RESULT, game=n, field="declarer_points"))
        elif game.result is None:
            problems.append(Problem(Code.RESULT_MISSING, game=n, field="result"))
        if game.schneider or game.schwarz:
            problems.append(Problem(Code.TOUT_HAS_NO_LEVEL, game=n, field="schneider"))  # 2.8
        if problems:
            return None, Level.NORMAL, problems
        return game.result is Result.WON, Level.NORMAL, []
    if game.declarer_points is not None:
        if game.result is not None or game.schneider:
            return None, Level.NORMAL, [Problem(Code.RESULT_TWICE, game=n, field="declarer_points")]
        p = game.declarer_points
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 120:
            return (
                None,
                Level.NORMAL,
                [Problem(Code.CARD_POINTS_OUT_OF_RANGE, game=n, field="declarer_points", value=str(p))],
            )
        won = p >= 61  # 4.1.2
        if game.schwarz:
            if p not in (0, 120):  # RULINGS 4
                return (
                    None,
                    Level.NORMAL,
                    [Problem(Code.SCHWARZ_NEEDS_ALL_POINTS, game=n, field="schwarz", value=p)],
                )
            return won, Level.SCHWARZ, []
        schneider = p >= 91 or p <= 30  # 4.1.3
        return won, Level.SCHNEIDER if schneider else Level.NORMAL, []
    if game.result is None:
        return None, Level.NORMAL, [Problem(Code.RESULT_MISSING, game=n, field="result")]
    level = Level.SCHWARZ if game.schwarz else Level.SCHNEIDER if game.schneider else Level.NORMAL
    return game.result is Result.WON, level, []


def describe_game(game: Game, profile: RuleProfile, seats: int = 4) -> Described:
    n = game.number
    problems: list[Problem] = []
    in_range = _number_in_range(n, profile, seats)
    if not in_range:
        problems.append(Problem(Code.GAME_NUMBER_OUT_OF_RANGE, game=n, field="game", value=n))
    problems += _seat_problems(n, seats, in_range, declarer=game.declarer, partner=game.partner)
    problems += _suit_problems(game, game.contract, game.suit)
    problems += _partner_problems(n, game.contract, game.declarer, game.partner)
    if game.invalid_announcement and game.contract is Contract.RUFER:
        problems.append(Problem(Code.INVALID_RUFER_IS_SANCTION, game=n, field="invalid_announcement"))
    elif game.invalid_announcement and game.contract is Contract.SIE:
        problems.append(Problem(Code.SIE_CANNOT_BE_INVALID, game=n, field="invalid_announcement"))
    if game.contract is Contract.SIE and n == 1:
        problems.append(Problem(Code.SIE_IN_FIRST_GAME, game=n, field="contract"))  # RULINGS 5
    won, level, outcome_problems = _outcome(game)
    problems += outcome_problems
    if problems:
        return Described(None, tuple(problems))

    family = family_of(game.contract)
    downgraded = False
    if n == 1 and (family is Family.TOUT or (family is Family.SOLO and level is Level.SCHWARZ)):
        # RULINGS 6, 5.2.15: scored as a plain Solo or Wenz with the same result.
        family, level, downgraded = Family.SOLO, Level.NORMAL, True
    assert won is not None
    if family is Family.RUFER:
        assert game.partner is not None
        side = frozenset((game.declarer, game.partner))
        winners = side if won else frozenset(playing(n, seats)) - side
        return Described(Kind(Family.RUFER, level=level, winners=winners))
    return Described(
        Kind(family, level=level if family is Family.SOLO else Level.NORMAL, won=won, declarer=game.declarer),
        downgraded=downgraded,
    )


def describe_sanction(sanction: Sanction, profile: RuleProfile, seats: int = 4) -> Described:
    n = sanction.number
    problems: list[Problem] = []
    in_range = _number_in_range(n, profile, seats)
    if not in_range:
        problems.append(Problem(Code.GAME_NUMBER_OUT_OF_RANGE, game=n, field="game", value=n))
    problems += _seat_problems(
        n, seats, in_range, declarer=sanction.declarer, partner=sanction.partner, liable=sanction.liable
    )
    family = sanction_family_of(sanction.contract)
    if family is None:
        problems.append(Problem(Code.SANCTION_CONTRACT_INVALID, game=n, field="contract"))
    problems += _partner_problems(n, sanction.contract, sanction.declarer, sanction.partner)
    if problems:
        return Described(None, tuple(problems))
    downgraded = False
    if family is Family.SANCTION_TOUT and n == 1:
        # RULINGS 6: in game 1 a Tout is a plain Solo or Wenz, so is its sanction.
        family, downgraded = Family.SANCTION_SOLO, True
    if family is Family.SANCTION_RUFER:
        assert sanction.partner is not None
        side = {sanction.declarer, sanction.partner}
        if sanction.liable in side:
            liable_partner = (side - {sanction.liable}).pop()
        else:
            liable_partner = (set(playing(n, seats)) - side - {sanction.liable}).pop()
        return Described(Kind(family, liable=sanction.liable, liable_partner=liable_partner))
    assert family is not None
    return Described(Kind(family, liable=sanction.liable, declarer=sanction.declarer), downgraded=downgraded)
