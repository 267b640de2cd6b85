"""A game object of a table (shared/EXCHANGE.md, "Fields of a game"): a contract, a sanction or
the points, with its seats, as the rules engine's entry."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring import Code, Contract, Game, Problem, Result, Sanction, Suit, Transcribed

from ...problems import PLACE, problem_message
from .base import MAX_SMALL, _enum, _Reader, _shown

SEAT_FIELDS = ("declarer", "partner", "liable")


def _engine_message(problem: Problem) -> str:
    """The rules engine's message for a problem without its "Game n:" prefix, which the place
    of the message already says; a message that names its game itself keeps it."""
    text = problem_message(problem)
    return text.removeprefix(str(PLACE).format(game=problem.game)) if problem.game is not None else text


def _points_message(size: int) -> str:
    """A ``points`` list that is not one whole number per seat (the dealer's 0 at five)."""
    return problem_message(Problem(Code.POINTS_NOT_FOUR, seats=size))


def _is_points(value: Any, size: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) == size
        and not any(isinstance(p, bool) or not isinstance(p, int) or abs(p) > MAX_SMALL for p in value)
    )


def _seat_fields(reader: _Reader, data: dict, where: str, size: int) -> bool:
    """Seats are whole numbers (the rules engine says which seat is wrong); card points too."""
    ok = True
    for key in SEAT_FIELDS:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > 99):
            if size == 5:  # a table of five (README readings)
                message = _("%(field)s must be a seat 1–5, not %(value)s.")
            else:
                message = _("%(field)s must be a seat 1–4, not %(value)s.")
            reader.error(where, message % {"field": key, "value": _shown(value)})
            ok = False
    points = data.get("declarer_points")
    if points is not None and (isinstance(points, bool) or not isinstance(points, int) or abs(points) > 999):
        reader.error(
            where,
            _("The card points must be a whole number 0–120, not %(value)s.") % {"value": _shown(points)},
        )
        ok = False
    for key in ("schneider", "schwarz", "invalid_announcement"):
        if key in data and not isinstance(data[key], bool):
            reader.error(
                where,
                _("%(field)s must be true or false, not %(value)s.")
                % {"field": key, "value": _shown(data[key])},
            )
            ok = False
    return ok


def _game_entry(reader: _Reader, data: dict, number: int, where: str, size: int):
    """The engine entry a game object describes at a table of ``size`` seats, or None after
    recording why not."""
    errors = len(reader.errors)
    if "sanction" in data:
        s = reader.obj(data["sanction"], where, "sanction")
        contract = _enum(reader, s.get("contract"), Contract, where, "contract")
        if not _seat_fields(reader, s, where, size) or len(reader.errors) > errors:
            return None
        return Sanction(number, contract, s.get("declarer"), s.get("liable"), s.get("partner"))
    if "contract" in data:
        contract = _enum(reader, data["contract"], Contract, where, "contract")
        suit = _enum(reader, data["suit"], Suit, where, "suit") if data.get("suit") is not None else None
        result = (
            _enum(reader, data["result"], Result, where, "result") if data.get("result") is not None else None
        )
        if not _seat_fields(reader, data, where, size) or len(reader.errors) > errors:
            return None
        return Game(
            number,
            contract,
            data.get("declarer"),
            suit=suit,
            partner=data.get("partner"),
            result=result,
            schneider=data.get("schneider", False),
            schwarz=data.get("schwarz", False),
            declarer_points=data.get("declarer_points"),
            invalid_announcement=data.get("invalid_announcement", False),
            approved="approved_by" in data,
        )
    if "points" in data:
        points = data["points"]
        if not _is_points(points, size):
            reader.error(where, _points_message(size))
            return None
        if not _seat_fields(reader, data, where, size):
            return None
        return Transcribed(number, tuple(points), data.get("declarer"), approved="approved_by" in data)
    if size == 5:
        reader.error(where, _("a game needs a contract, a sanction or the five points."))
    else:
        reader.error(where, _("a game needs a contract, a sanction or the four points."))
    return None
