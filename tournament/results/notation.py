"""A game or a paper-list row as typed: the desk's short notation field and the table phone's
taps (which build the same notation). Parsed here, outside any form, so that the desk's forms
and the phone's service read it alike and refuse it with the same message (a ServiceError)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring import Game
from scoring.entries import Entry
from scoring.notation import NotationError, parse_game, parse_row

from ..errors import ServiceError
from ..problems import notation_message


def typed_game(notation: str, number: int, seats: int = 4) -> Game:
    """Game ``number`` typed in the short notation at a table of ``seats``, or the refusal
    saying what is wrong with it."""
    notation = notation.strip()
    if not notation:
        raise ServiceError(_("Type the game in short (e.g. re13+) or choose contract and declarer."))
    try:
        return parse_game(notation, number, seats=seats)
    except NotationError as error:
        raise ServiceError(notation_message(error)) from None


def typed_row(row: str, number: int, seats: int = 4) -> Entry:
    """Game ``number`` as a row of the paper list (its points in seat order), or the refusal."""
    try:
        return parse_row(row, number, seats=seats)
    except NotationError as error:
        raise ServiceError(notation_message(error)) from None
