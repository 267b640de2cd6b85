"""The rules of Bavarian Schafkopf and its tournaments, in pure Python.

Section numbers refer to the Schafkopfschule rules of 2007 and ``RULINGS`` to the project's
rulings (shared/rules/RULINGS.md). This package never imports Django: it works on plain
dataclasses and enums and names problems with codes that ``tournament`` translates.
"""

from .cards import Card, Contract, Rank, Suit
from .entries import Entry, Family, Game, Kind, Level, Result, Sanction, Transcribed
from .outcome import Scored, score_entry
from .problems import Code, Problem
from .profiles import DEFAULT_PROFILE, PROFILES, RuleProfile, build_profile
from .ranking import Tally, draw_lots, rank, tiebreak_key
from .scoresheet import Sheet, score_sheet

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "Card",
    "Code",
    "Contract",
    "Entry",
    "Family",
    "Game",
    "Kind",
    "Level",
    "Problem",
    "Rank",
    "Result",
    "RuleProfile",
    "Sanction",
    "Scored",
    "Sheet",
    "Suit",
    "Tally",
    "Transcribed",
    "build_profile",
    "draw_lots",
    "rank",
    "score_entry",
    "score_sheet",
    "tiebreak_key",
]
