"""The scoresheets of a draw's tables. They are results' (above the draw): the draw asks through
these slots, and results answers them at start-up (tournament/results/keeper.py, apps.py)."""

from __future__ import annotations

from ..hooks import Slot

results_count = Slot("How many games and approvals are on the match's sheets?")
entries = Slot("The games on the match's sheets, as (table number, record), for the history.")
create = Slot("A new scoresheet for each of the match's new tables.")
move = Slot("The match's sheets moved to its discarded draw.")
lock = Slot("The sheets of these matches locked, in the order an entry takes them.")
closed = Slot("The signed or void sheets of these matches, as (match, table) numbers in order.")
