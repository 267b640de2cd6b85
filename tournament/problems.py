"""Messages for the rules engine's problem codes. ``scoring`` names what is wrong; this module
says it to people, in their language, with the place: which game, which round, which field."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext_lazy as _

from scoring.problems import Code, Problem

MESSAGES = {
    Code.GAME_NUMBER_OUT_OF_RANGE: _("The game number {value} is not a game of this match."),
    Code.SEAT_OUT_OF_RANGE: _("{field}: seat {value} does not exist (seats are 1 to 4)."),
    Code.SUIT_MISSING: _("The suit is missing: a Sauspiel names the called Ace, a Solo its trumps."),
    Code.SUIT_NOT_ALLOWED: _("This contract names no suit."),
    Code.CALLED_ACE_HERZ: _("The Herz-Sau cannot be called: Herz is trump in a Sauspiel (2.5.1)."),
    Code.PARTNER_MISSING: _("A Sauspiel needs the partner: who held the called Ace?"),
    Code.PARTNER_NOT_ALLOWED: _("Only a Sauspiel has a partner."),
    Code.PARTNER_IS_DECLARER: _("The partner cannot be the declarer."),
    Code.RESULT_MISSING: _("The result is missing: won or lost, or the declarer's card points."),
    Code.RESULT_TWICE: _("Enter either the result or the card points, not both."),
    Code.CARD_POINTS_OUT_OF_RANGE: _("Card points must be between 0 and 120, not {value}."),
    Code.SCHWARZ_NEEDS_ALL_POINTS: _(
        "Schwarz needs 120 or 0 card points, not {value}: one side took every trick."
    ),
    Code.TOUT_HAS_NO_LEVEL: _("A Tout has no Schneider or Schwarz: it is won or lost (2.8)."),
    Code.TOUT_NEEDS_RESULT: _(
        "Enter a Tout as won or lost: card points do not show that every trick was taken."
    ),
    Code.SIE_ALWAYS_WON: _("A Sie is always won and has no card points (2.9)."),
    Code.SIE_IN_FIRST_GAME: _("A Sie does not count in the first game of a match (2.9.1)."),
    Code.SIE_CANNOT_BE_INVALID: _("A Sie cannot be announced invalidly."),
    Code.INVALID_RUFER_IS_SANCTION: _(
        "An invalid Sauspiel call is entered as a sanction by the supervisor (3.4.17)."
    ),
    Code.INVALID_ANNOUNCEMENT_IS_LOST: _(
        "An invalid announcement is a lost game at the plain level (2.4.10): "
        "no win, no card points, no Schneider or Schwarz."
    ),
    Code.SANCTION_CONTRACT_INVALID: _("A sanction names a Sauspiel, Solo, Wenz or Tout."),
    Code.SEAT_SITS_OUT: _("Seat {value} dealt game {game} and sits it out: he cannot be its {field}."),
    Code.POINTS_NOT_FOUR: _("Enter four whole numbers, one per seat."),
    Code.POINTS_DO_NOT_SUM_TO_ZERO: _("The four numbers sum to {value}, not 0."),
    Code.DEALER_POINTS_NOT_ZERO: _(
        "Seat {seat} dealt game {game} and sits it out: his number is 0, not {value}."
    ),
    Code.POINTS_MATCH_NOTHING: _(
        "These numbers match no game and no sanction of the point table (is the circled seat right?)."
    ),
    Code.POINTS_AMBIGUOUS: _(
        "These numbers match {value} different entries of this profile's tables: enter the game itself."
    ),
    Code.TOUT_OR_SCHWARZ_IN_FIRST_GAME: _(
        "In the first game a Tout or a Schwarz counts as a plain Solo or Wenz (5.2.15)."
    ),
    Code.NOTATION_UNREADABLE: _(
        "This is not a game in short: e.g. re13+ (Sauspiel with the Eichel-Sau, 1 with 3, won), "
        "sh2- (Herz-Solo of 2, lost), w3+s, tg1+, wt4-, sie2, or re13 75 for card points."
    ),
    Code.NOTATION_SEAT_UNKNOWN: _("There is no seat {value}: the seats are 1 to 4."),
    Code.NOTATION_SUIT_UNKNOWN: _("“{value}” is no suit: e (Eichel), g (Gras), h (Herz), s (Schellen)."),
    Code.NOTATION_SUIT_MISSING: _(
        "The suit is missing after the contract: e, g, h or s (re13+ is a Sauspiel with the Eichel-Sau)."
    ),
    Code.NOTATION_PARTNER_MISSING: _("A Sauspiel names declarer and partner: re13+ (1 with 3)."),
    Code.NOTATION_RESULT_MISSING: _(
        "The result is missing: + won or - lost (re13+), or the card points (re13 75)."
    ),
    Code.ROW_CIRCLED_TWICE: _("Only one number of a row is circled: the soloist's."),
    Code.GAME_MISSING: _("Game {game} has not been entered."),
    Code.GAME_NUMBER_TWICE: _("Game {game} is entered twice."),
    Code.ROUND_CHECKSUM_NOT_ZERO: _("Round {round} does not sum to zero but to {value} (5.3.3)."),
    Code.MATCH_CHECKSUM_NOT_ZERO: _("The match does not sum to zero but to {value} (5.3.3)."),
    Code.UNKNOWN_PROFILE: _("There is no rule profile called “{value}”."),
    Code.PROFILE_VALUE_INVALID: _("{field}: {value} is not a valid value."),
    Code.PROFILE_NOT_ZERO_SUM: _(
        "{field}: with {value} a game would not sum to zero (the declarer's value must equal "
        "what the others pay together)."
    ),
    Code.PARTICIPANTS_NOT_MULTIPLE_OF_FOUR: _("{value} participants do not fill tables of four (5.2.2)."),
    Code.PARTICIPANTS_DO_NOT_FILL_TABLES: _(
        "{value} participants do not fill tables of four and five (5.2.2)."
    ),
    Code.HAND_NOT_EIGHT_CARDS: _("A hand has eight cards, not {value}."),
    Code.HAND_CARD_TWICE: _("The card {value} is in the hand twice."),
    Code.HAND_CARD_UNKNOWN: _("“{value}” is not a card (e.g. EO, GU, HA, S10, G7)."),
    Code.CALLED_ACE_HELD: _("The declarer holds the called Ace himself (2.5.1)."),
    Code.CALLED_SUIT_NOT_HELD: _(
        "The declarer holds no other card of the called suit but Ober and Unter (2.5.1)."
    ),
    Code.ALL_ACES_HELD: _("With all the Aces the declarer is blocked: no Sauspiel (2.5.3)."),
    Code.TRUMP_SUIT_NOT_HELD: _("The declarer holds no card of the suit he makes trumps (2.6.4)."),
}

# At a table of five (README readings) the messages that name the seats or count the numbers.
AT_FIVE = {
    Code.SEAT_OUT_OF_RANGE: _("{field}: seat {value} does not exist (seats are 1 to 5)."),
    Code.POINTS_NOT_FOUR: _("Enter five whole numbers, one per seat, the dealer's 0 included."),
    Code.POINTS_DO_NOT_SUM_TO_ZERO: _("The five numbers sum to {value}, not 0."),
    Code.NOTATION_SEAT_UNKNOWN: _("There is no seat {value}: the seats are 1 to 5."),
}

PLACE = _("Game {game}: ")

# The fields of an entry as a message names them (in the forms' words).
FIELD_NAMES = {
    "declarer": _("declarer"),
    "partner": _("partner"),
    "liable": _("liable player"),
    "liable_partner": _("partner"),
}


def _shortened(value) -> str:
    """A value for a message: as it is when short, else its start (a pasted table can be huge)."""
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def problem_message(problem: Problem) -> str:
    """The problem as a sentence, prefixed with its game number when it has one."""
    message = AT_FIVE.get(problem.code) if problem.seats == 5 else None
    template = str(message or MESSAGES[problem.code])  # translated into the active language
    text = template.format(
        game=problem.game,
        round=problem.round,
        seat=problem.seat,
        field=FIELD_NAMES.get(problem.field or "", problem.field),
        value=_shortened(problem.value),
    )
    if problem.game is not None and "{game}" not in template:
        text = str(PLACE).format(game=problem.game) + text
    return text


def problem_messages(problems: Iterable[Problem]) -> list[str]:
    return [problem_message(problem) for problem in problems]


def notation_message(error) -> str:
    """What is wrong with a typed game or paper row (a scoring.notation.NotationError)."""
    return problem_message(Problem(error.code, value=error.value, seats=error.seats))
