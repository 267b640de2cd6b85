"""The referee's short notation: one game as a few keystrokes, one paper row as four numbers
(five at a table of five, where seats 1–5 may be named: README readings).

Games (case and spaces do not matter)::

    re13+      Sauspiel with the Eichel-Sau, declarer seat 1, partner seat 3, won
    rg24-s     Sauspiel with the Gras-Sau, 2 and 4, lost Schneider
    rs13+x     Sauspiel with the Schellen-Sau, won Schwarz
    re13 75    Sauspiel, the declarer side took 75 card points
    sh2+       Herz-Solo by seat 2, won          ss2 95   Schellen-Solo, 95 card points
    w3-s       Wenz by seat 3, lost Schneider    w3 120x  Wenz with every trick
    tg1+       Gras-Solo-Tout by seat 1, won     wt4-     Wenz-Tout by seat 4, lost
    sie2       Sie of seat 2
    sh2!       Herz-Solo announced invalidly (2.4.10)

The result is ``+`` (won) or ``-`` (lost) followed by ``s`` (Schneider) or ``x`` (Schwarz), or
the declarer side's card points (0–120), optionally followed by ``x`` for Schwarz.

Paper rows: four whole numbers in seat order, the circled one marked ``*`` or in brackets,
e.g. ``6* -2 -2 -2`` or ``(6) -2 -2 -2``; ``1 -1 1 -1`` has no circle. At a table of five a row
has five numbers, the sitting-out dealer's 0 among them: ``0 6* -2 -2 -2``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .cards import Contract, Suit
from .entries import TABLE_SIZES, Game, Result, Transcribed, seats_of
from .problems import Code

SUITS = {"e": Suit.EICHEL, "g": Suit.GRAS, "h": Suit.HERZ, "s": Suit.SCHELLEN}
_OUTCOME = r"(?:(?P<sign>[+-])(?P<level>s|x)?|(?P<points>[0-9]{1,3})(?P<schwarz>x)?|(?P<invalid>!))"


def _patterns(seats: int) -> list[tuple[Contract, re.Pattern[str]]]:
    seat = f"([1-{seats}])"
    return [
        (Contract.SIE, re.compile(r"sie" + seat)),
        (Contract.WENZ_TOUT, re.compile(r"wt" + seat + _OUTCOME)),
        (Contract.WENZ, re.compile(r"w" + seat + _OUTCOME)),
        (Contract.SOLO_TOUT, re.compile(r"t([eghs])" + seat + _OUTCOME)),
        (Contract.SOLO, re.compile(r"s([eghs])" + seat + _OUTCOME)),
        (Contract.RUFER, re.compile(r"r([eghs])" + seat + seat + _OUTCOME)),
    ]


_PATTERNS = {seats: _patterns(seats) for seats in TABLE_SIZES}


class NotationError(ValueError):
    """``seats``: the size of the table, for a message that names the seats or counts numbers."""

    def __init__(self, code: Code, value: str | None = None, seats: int = 4) -> None:
        super().__init__(code)
        self.code = code
        self.value = value
        self.seats = seats


# Read leniently, to say what is wrong with a game that no pattern reads.
_LENIENT = re.compile(r"(sie|wt|w|t|s|r)([a-z]?)([0-9]*)(.*)")
_SEATS_NAMED = {"sie": 1, "wt": 1, "w": 1, "t": 1, "s": 1, "r": 2}


def diagnose(compact: str, seats: int = 4) -> NotationError:
    """Why ``compact`` (lower case, no spaces) is not a game at a table of ``seats``: the first
    thing wrong in it."""
    found = _LENIENT.fullmatch(compact)
    if found is None:
        return NotationError(Code.NOTATION_UNREADABLE)
    head, letter, digits, rest = found.groups()
    if head in ("t", "s", "r"):
        if not letter:
            return NotationError(Code.NOTATION_SUIT_MISSING)
        if letter not in SUITS:
            return NotationError(Code.NOTATION_SUIT_UNKNOWN, letter)
    elif letter:
        return NotationError(Code.NOTATION_UNREADABLE)
    named = _SEATS_NAMED[head]
    for digit in digits[:named]:
        if int(digit) not in seats_of(seats):
            return NotationError(Code.NOTATION_SEAT_UNKNOWN, digit, seats)
    if len(digits) < named:
        return NotationError(Code.NOTATION_PARTNER_MISSING if digits else Code.NOTATION_UNREADABLE)
    if head != "sie" and not rest and len(digits) == named:
        return NotationError(Code.NOTATION_RESULT_MISSING)
    return NotationError(Code.NOTATION_UNREADABLE)


def parse_game(text: str, number: int, approved: bool = False, seats: int = 4) -> Game:
    """Read a game in the short notation, naming seats 1 to ``seats``; ``NotationError`` if it
    is not one."""
    compact = re.sub(r"\s+", "", text.lower())  # seats are single digits: "re13 75" = "re1375"
    for contract, pattern in _PATTERNS[seats]:
        match = pattern.fullmatch(compact)
        if match is None:
            continue
        groups = match.groups()
        if contract is Contract.SIE:
            return Game(number, contract, int(groups[0]), approved=approved)
        suit = None
        if contract in (Contract.RUFER, Contract.SOLO, Contract.SOLO_TOUT):
            suit, groups = SUITS[groups[0]], groups[1:]
        declarer = int(groups[0])
        partner = int(groups[1]) if contract is Contract.RUFER else None
        found = match.groupdict()
        game = Game(number, contract, declarer, suit=suit, partner=partner, approved=approved)
        if found["invalid"]:
            return replace(game, invalid_announcement=True)
        if found["points"] is not None:
            return replace(game, declarer_points=int(found["points"]), schwarz=bool(found["schwarz"]))
        return replace(
            game,
            result=Result.WON if found["sign"] == "+" else Result.LOST,
            schneider=found["level"] == "s",
            schwarz=found["level"] == "x",
        )
    raise diagnose(compact, seats)


_NUMBER = re.compile(r"^(\()?([+-]?[0-9]{1,3})(\))?(\*)?$")


def parse_row(text: str, number: int, approved: bool = False, seats: int = 4) -> Transcribed:
    """Read a paper-list row: one number per seat, the circled one marked (RULINGS 12)."""
    tokens = text.replace(",", " ").replace(";", " ").split()
    if len(tokens) != len(seats_of(seats)):
        raise NotationError(Code.POINTS_NOT_FOUR, seats=seats)
    points, circled = [], []
    for seat, token in enumerate(tokens, start=1):
        match = _NUMBER.match(token)
        if match is None or bool(match.group(1)) != bool(match.group(3)):
            raise NotationError(Code.POINTS_NOT_FOUR, seats=seats)
        points.append(int(match.group(2)))
        if match.group(1) or match.group(4):
            circled.append(seat)
    if len(circled) > 1:
        raise NotationError(Code.ROW_CIRCLED_TWICE)
    return Transcribed(number, tuple(points), circled[0] if circled else None, approved)


_LETTER = {suit: letter for letter, suit in SUITS.items()}


def format_game(game: Game) -> str:
    """The short notation of a described game: ``parse_game(format_game(g), n)`` gives g back."""
    c = game.contract
    if c is Contract.SIE:
        return f"sie{game.declarer}"
    letter = _LETTER[game.suit] if game.suit is not None else ""
    head = {
        Contract.RUFER: f"r{letter}{game.declarer}{game.partner}",
        Contract.SOLO: f"s{letter}{game.declarer}",
        Contract.SOLO_TOUT: f"t{letter}{game.declarer}",
        Contract.WENZ: f"w{game.declarer}",
        Contract.WENZ_TOUT: f"wt{game.declarer}",
    }[c]
    if game.invalid_announcement:
        return head + "!"
    if game.declarer_points is not None:
        return f"{head} {game.declarer_points}{'x' if game.schwarz else ''}"
    sign = "+" if game.result is Result.WON else "-"
    level = "x" if game.schwarz else "s" if game.schneider else ""
    return head + sign + level


def format_row(row: Transcribed) -> str:
    """The row as typed: one number per seat, four or five, the circled one marked."""
    return " ".join(
        f"{value}*" if seat == row.declarer else str(value) for seat, value in enumerate(row.points, start=1)
    )
