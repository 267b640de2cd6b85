"""What the table's phone is told of the rules, so that its script decides nothing by itself
(issue 28, items 4 and 15): which contracts need the supervisor before play, which cannot count,
and the points of every kind of game, all from the rules engine (``scoring``) for the sheet's
profile and table size."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring import Contract
from scoring.approvals import Need, approval_need
from scoring.describe import describe_game
from scoring.entries import Game, Result, playing, sitting_out
from scoring.points import points_of
from scoring.profiles import RuleProfile

from ..problems import problem_messages
from ..results.sheet import SeatLine

LEVELS = {"": (False, False), "s": (True, False), "x": (False, True)}  # the phone's notation


def approval_needs(rules: RuleProfile, size: int) -> dict:
    """What announcing each contract asks of the table (``scoring.approvals.approval_need``):
    in game 1 (``first``), in a later game before the n-th Solo (``later``) and from it on
    (``late``), with why a contract ``refused`` in game 1 cannot count there (RULINGS 5)."""
    late = max(rules.solo_approval_from - 1, 0)
    tables: dict = {"first": {}, "later": {}, "late": {}, "why": {}}
    for contract in Contract:
        need, problem = approval_need(contract, 1, 0, rules, size)
        tables["first"][contract.value] = need.value
        if problem is not None:
            tables["why"][contract.value] = problem_messages([problem])[0]
        tables["later"][contract.value] = approval_need(contract, 2, 0, rules, size)[0].value
        tables["late"][contract.value] = approval_need(contract, 2, late, rules, size)[0].value
    return tables


def needless_call(contract: Contract, number: int, rules: RuleProfile, size: int) -> str:
    """Why a call for ``contract`` in game ``number`` cannot count or is not needed (a Sie or a
    Tout in game 1), or ``""``. The soloist count matters only for a Solo or Wenz, which a table
    may call for whenever it is unsure."""
    need, problem = approval_need(contract, number, 0, rules, size)
    if need is Need.REFUSED and problem is not None:
        return problem_messages([problem])[0]
    if need is Need.NONE and contract.is_tout:
        return _("In game 1 a Tout counts as a plain Solo or Wenz (5.2.15): it needs no approval.")
    return ""


def call_note(contract: Contract, number: int, rules: RuleProfile, size: int) -> tuple[str, bool]:
    """The supervisor's queue's note on a waiting call: (why it cannot count or needs no
    approval, whether it cannot count). A Sie in game 1 is a problem (RULINGS 5); a Tout there
    only needs no approval (RULINGS 6), which the queue says as a note, not as an alarm."""
    text = needless_call(contract, number, rules, size)
    refused = bool(text) and approval_need(contract, number, 0, rules, size)[0] is Need.REFUSED
    return text, refused


def point_values(rules: RuleProfile, size: int) -> dict:
    """The points of each kind of game the phone can enter, in game 1 (``first``, where a Tout or
    a Schwarz is a plain Solo, RULINGS 6) and later (``later``), as the engine scores it: keyed
    ``contract:result:level`` (the phone's notation), valued [declarer side, other side], each
    player. The phone scores the games still waiting to be sent with them (issue 28, item 15)."""
    values: dict = {}
    for key, number in (("first", 1), ("later", 2)):
        table = values[key] = {}
        players = playing(number, size)
        declarer, partner, defender = players[0], players[1], players[3]
        for contract in Contract:
            suit = {"rufer": "eichel", "solo": "herz", "solo_tout": "herz"}.get(contract.value)
            for result in (Result.WON, Result.LOST):
                for level, (schneider, schwarz) in LEVELS.items():
                    if (contract.is_tout or contract is Contract.SIE) and level:
                        continue
                    game = Game(
                        number,
                        contract,
                        declarer,
                        suit=suit,
                        partner=partner if contract is Contract.RUFER else None,
                        result=result,
                        schneider=schneider,
                        schwarz=schwarz,
                    )
                    kind = describe_game(game, rules, size).kind
                    if kind is None:
                        continue  # a Sie lost, or in game 1: never entered
                    points = points_of(kind, rules, size, sitting_out(number, size))
                    table[f"{contract.value}:{result.value}:{level}"] = [
                        points[declarer - 1],
                        points[defender - 1],
                    ]
    return values


def seat_states(seats: tuple[SeatLine, ...], current: int) -> list[dict]:
    """Each seat as the phone shows it: who plays it in game ``current`` (``name``), who signs
    for it (``signer``: who plays its last game, 5.2.11, 5.3.2) and from which game a substitute
    plays it (``since``, 0 where nobody took over)."""
    states = []
    for seat in seats:
        since = max((game for game, _name in seat.later if game <= current), default=0)
        states.append(
            {"position": seat.position, "name": seat.name_at(current), "signer": seat.signer, "since": since}
        )
    return states
