"""What to do about each message of the rules engine (``scoring.problems.Code``): the handbook's
part "Meldungen" lists each code's message as the desk and the phone show it, with this advice
and the rule. ``tests/tournament/handbook/test_handbook.py`` fails for a code without its line."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.problems import Code


@dataclass(frozen=True)
class Advice:
    """What a person does about a message, and the rule behind it ("" when none applies)."""

    todo: Promise
    rule: str = ""


CHECK_PAPER = _("Look at the paper list or ask the table, then enter the game again with the right value.")
NAME_PARTNER = _("Ask who held the called Ace and enter him as the partner.")
ONLY_SAUSPIEL = _("Only a Sauspiel has a partner: enter a Solo, Wenz or Tout without one.")
RESULT = _("Add the result: won (+) or lost (-), or the card points of the declarer's side.")
TYPE_AGAIN = _("Type the game again as the help under the field shows, or choose it from the lists.")
NUMBERS = _("Copy the row of the paper list again: one number per seat, the circled one with *.")
SHEET_CHECK = _(
    "The sheet is not complete yet: enter the missing game or remove the one entered twice. Nobody "
    "signs before every game is there and each round sums to zero."
)
SETTINGS = _("The organiser corrects the tournament's settings on its edit page.")
DRAW_COUNT = _(
    "Check in or add players (reserve players, Ersatzspieler) or mark a no-show, until the count "
    "fills the tables; the draw page says how many are missing or extra."
)
HAND = _("Type the eight cards of the hand again, e.g. EO GU HA S10 G7 …, each card once.")
HAND_SAYS = _(
    "The hand check shows that this game cannot be played with this hand: the supervisor refuses "
    "the approval and explains it to the table."
)

SCORING = {
    Code.GAME_NUMBER_OUT_OF_RANGE: Advice(_("Enter a game number of this match (1 up to the last game).")),
    Code.SEAT_OUT_OF_RANGE: Advice(
        _("Enter the seat number as on the table card: 1 to 4 (at a table of five 1 to 5).")
    ),
    Code.SUIT_MISSING: Advice(_("Add the suit: for a Sauspiel the called Ace, for a Solo the trumps.")),
    Code.SUIT_NOT_ALLOWED: Advice(_("Leave the suit out: a Wenz, a Wenz-Tout and a Sie name none.")),
    Code.CALLED_ACE_HERZ: Advice(
        _("Herz is trump in a Sauspiel: the called Ace is Eichel, Gras or Schellen."), "2.5.1"
    ),
    Code.PARTNER_MISSING: Advice(NAME_PARTNER),
    Code.PARTNER_NOT_ALLOWED: Advice(ONLY_SAUSPIEL),
    Code.PARTNER_IS_DECLARER: Advice(NAME_PARTNER),
    Code.RESULT_MISSING: Advice(RESULT),
    Code.RESULT_TWICE: Advice(_("Enter the result or the card points: one of the two.")),
    Code.CARD_POINTS_OUT_OF_RANGE: Advice(CHECK_PAPER),
    Code.SCHWARZ_NEEDS_ALL_POINTS: Advice(
        _("Schwarz means every trick: 120 card points won, 0 lost."), "RULINGS 4"
    ),
    Code.TOUT_HAS_NO_LEVEL: Advice(
        _("A Tout is won or lost, nothing more: leave Schneider and Schwarz out."), "2.8"
    ),
    Code.TOUT_NEEDS_RESULT: Advice(
        _("Enter a Tout with + (won) or - (lost), not with card points."), "RULINGS 4"
    ),
    Code.SIE_ALWAYS_WON: Advice(_("Enter a Sie with its seat only (sie2): it is always won."), "2.9"),
    Code.SIE_IN_FIRST_GAME: Advice(
        _(
            "A Sie does not count in the first game of a match: nothing is entered for it; the supervisor "
            "says how the table goes on."
        ),
        "2.9.1",
    ),
    Code.SIE_CANNOT_BE_INVALID: Advice(_("Leave the ! out: a Sie is never announced invalidly.")),
    Code.INVALID_RUFER_IS_SANCTION: Advice(
        _("Call the supervisor: he enters the sanction on the Sanction tab of the sheet."), "3.4.17"
    ),
    Code.INVALID_ANNOUNCEMENT_IS_LOST: Advice(
        _("Enter the invalid announcement with ! and nothing else: it counts as lost, plain."), "2.4.10"
    ),
    Code.SANCTION_CONTRACT_INVALID: Advice(
        _("Choose the game the sanction is for: a Sauspiel, Solo, Wenz or Tout (never a Sie)."), "RULINGS 9"
    ),
    Code.SEAT_SITS_OUT: Advice(
        _("At a table of five the dealer sits out his game: enter one of the four who played.")
    ),
    Code.POINTS_NOT_FOUR: Advice(NUMBERS),
    Code.POINTS_DO_NOT_SUM_TO_ZERO: Advice(
        _("A row of the paper list always sums to 0: look for the number written wrongly."), "5.3.3"
    ),
    Code.DEALER_POINTS_NOT_ZERO: Advice(_("The dealer at a table of five scores 0 in the game he sits out.")),
    Code.POINTS_MATCH_NOTHING: Advice(
        _("No game gives these numbers: check the circled seat and the numbers, or enter the game itself.")
    ),
    Code.POINTS_AMBIGUOUS: Advice(
        _("The numbers fit several games: enter the game itself on the Game tab (e.g. sh2+).")
    ),
    Code.TOUT_OR_SCHWARZ_IN_FIRST_GAME: Advice(
        _("Nothing to do: in the first game a Tout or Schwarz counts as a plain Solo or Wenz."), "5.2.15"
    ),
    Code.NOTATION_UNREADABLE: Advice(TYPE_AGAIN),
    Code.NOTATION_SEAT_UNKNOWN: Advice(TYPE_AGAIN),
    Code.NOTATION_SUIT_UNKNOWN: Advice(TYPE_AGAIN),
    Code.NOTATION_SUIT_MISSING: Advice(TYPE_AGAIN),
    Code.NOTATION_PARTNER_MISSING: Advice(TYPE_AGAIN),
    Code.NOTATION_RESULT_MISSING: Advice(TYPE_AGAIN),
    Code.ROW_CIRCLED_TWICE: Advice(_("Mark only the soloist's number with *.")),
    Code.GAME_MISSING: Advice(SHEET_CHECK, "5.3.2"),
    Code.GAME_NUMBER_TWICE: Advice(SHEET_CHECK, "5.3.2"),
    Code.ROUND_CHECKSUM_NOT_ZERO: Advice(
        _(
            "Each round sums to zero: compare the round with the paper list and correct the game that "
            "differs."
        ),
        "5.3.3",
    ),
    Code.MATCH_CHECKSUM_NOT_ZERO: Advice(
        _("The whole match sums to zero: compare it with the paper list round by round."), "5.3.3"
    ),
    Code.UNKNOWN_PROFILE: Advice(SETTINGS, "RULINGS 15"),
    Code.PROFILE_VALUE_INVALID: Advice(SETTINGS, "RULINGS 15"),
    Code.PROFILE_NOT_ZERO_SUM: Advice(SETTINGS, "RULINGS 15"),
    Code.PARTICIPANTS_NOT_MULTIPLE_OF_FOUR: Advice(DRAW_COUNT, "5.2.2"),
    Code.PARTICIPANTS_DO_NOT_FILL_TABLES: Advice(DRAW_COUNT, "5.2.2"),
    Code.HAND_NOT_EIGHT_CARDS: Advice(HAND),
    Code.HAND_CARD_TWICE: Advice(HAND),
    Code.HAND_CARD_UNKNOWN: Advice(HAND),
    Code.CALLED_ACE_HELD: Advice(HAND_SAYS, "2.5.1"),
    Code.CALLED_SUIT_NOT_HELD: Advice(HAND_SAYS, "2.5.1"),
    Code.ALL_ACES_HELD: Advice(HAND_SAYS, "2.5.3"),
    Code.TRUMP_SUIT_NOT_HELD: Advice(HAND_SAYS, "2.6.4"),
}
