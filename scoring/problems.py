"""Problem codes. The rules engine never speaks to people: it names what is wrong with a code
and the place (game, round, seat), and ``tournament`` turns that into a translated message."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    # One entry, as described
    GAME_NUMBER_OUT_OF_RANGE = "game_number_out_of_range"
    SEAT_OUT_OF_RANGE = "seat_out_of_range"
    SUIT_MISSING = "suit_missing"
    SUIT_NOT_ALLOWED = "suit_not_allowed"
    CALLED_ACE_HERZ = "called_ace_herz"  # 2.5.1
    PARTNER_MISSING = "partner_missing"
    PARTNER_NOT_ALLOWED = "partner_not_allowed"
    PARTNER_IS_DECLARER = "partner_is_declarer"
    RESULT_MISSING = "result_missing"
    RESULT_TWICE = "result_twice"  # both result and card points
    CARD_POINTS_OUT_OF_RANGE = "card_points_out_of_range"
    SCHWARZ_NEEDS_ALL_POINTS = "schwarz_needs_all_points"  # RULINGS 4
    TOUT_HAS_NO_LEVEL = "tout_has_no_level"  # RULINGS 4, 2.8
    TOUT_NEEDS_RESULT = "tout_needs_result"  # RULINGS 4: card points do not show every trick
    SIE_ALWAYS_WON = "sie_always_won"  # 2.9
    SIE_IN_FIRST_GAME = "sie_in_first_game"  # RULINGS 5, 2.9.1
    SIE_CANNOT_BE_INVALID = "sie_cannot_be_invalid"
    INVALID_RUFER_IS_SANCTION = "invalid_rufer_is_sanction"  # RULINGS 10
    INVALID_ANNOUNCEMENT_IS_LOST = "invalid_announcement_is_lost"  # RULINGS 10, 2.4.10
    SANCTION_CONTRACT_INVALID = "sanction_contract_invalid"  # RULINGS 9: no Sie sanction
    SEAT_SITS_OUT = "seat_sits_out"  # tables of five: the dealer plays no part in his game
    # Transcription (RULINGS 12)
    POINTS_NOT_FOUR = "points_not_four"
    POINTS_DO_NOT_SUM_TO_ZERO = "points_do_not_sum_to_zero"
    DEALER_POINTS_NOT_ZERO = "dealer_points_not_zero"  # tables of five: the dealer scores 0
    POINTS_MATCH_NOTHING = "points_match_nothing"
    POINTS_AMBIGUOUS = "points_ambiguous"
    TOUT_OR_SCHWARZ_IN_FIRST_GAME = "tout_or_schwarz_in_first_game"  # 5.2.15 on paper
    # A scoresheet (RULINGS 11)
    GAME_MISSING = "game_missing"
    GAME_NUMBER_TWICE = "game_number_twice"
    ROUND_CHECKSUM_NOT_ZERO = "round_checksum_not_zero"
    MATCH_CHECKSUM_NOT_ZERO = "match_checksum_not_zero"
    # The referee's short notation
    NOTATION_UNREADABLE = "notation_unreadable"
    NOTATION_SEAT_UNKNOWN = "notation_seat_unknown"
    NOTATION_SUIT_UNKNOWN = "notation_suit_unknown"
    NOTATION_SUIT_MISSING = "notation_suit_missing"
    NOTATION_PARTNER_MISSING = "notation_partner_missing"
    NOTATION_RESULT_MISSING = "notation_result_missing"
    ROW_CIRCLED_TWICE = "row_circled_twice"
    # Rule profiles (RULINGS 15)
    UNKNOWN_PROFILE = "unknown_profile"
    PROFILE_VALUE_INVALID = "profile_value_invalid"
    PROFILE_NOT_ZERO_SUM = "profile_not_zero_sum"
    # The draw (5.2.2)
    PARTICIPANTS_NOT_MULTIPLE_OF_FOUR = "participants_not_multiple_of_four"
    # Hands (2.5.1, 2.9, 5.2.14)
    HAND_NOT_EIGHT_CARDS = "hand_not_eight_cards"
    HAND_CARD_TWICE = "hand_card_twice"
    HAND_CARD_UNKNOWN = "hand_card_unknown"
    CALLED_ACE_HELD = "called_ace_held"  # 2.5.1
    CALLED_SUIT_NOT_HELD = "called_suit_not_held"  # 2.5.1
    ALL_ACES_HELD = "all_aces_held"  # 2.5.3
    TRUMP_SUIT_NOT_HELD = "trump_suit_not_held"  # 2.6.4
    # The draw with tables of five: no N = 4a + 5b (1–3, 6, 7, 11)
    PARTICIPANTS_DO_NOT_FILL_TABLES = "participants_do_not_fill_tables"


@dataclass(frozen=True)
class Problem:
    """What is wrong, and where. ``field`` names the offending field of an entry or
    profile; ``value`` carries the number a message needs (a seat, a sum, a count); ``seats``
    is the size of the table where the message names the seats or counts the numbers of a row
    (a table of five, README readings)."""

    code: Code
    game: int | None = None
    round: int | None = None
    seat: int | None = None
    field: str | None = None
    value: int | str | None = None
    seats: int = 4
