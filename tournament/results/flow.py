"""The flow of a game from the desk and from a table's phone (plan → lock → plan again if the
sheet changed → write) is ``writing.carry_out`` (issue 26); kept here under its earlier names
for the callers that still use them."""

from __future__ import annotations

from .writing import Outcome, carry_out

enter_game = carry_out

__all__ = ["Outcome", "enter_game"]
