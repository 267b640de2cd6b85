"""Cards, suits and contracts of Bavarian Schafkopf (sections 1.2, 2.4.4 to 2.9)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class Suit(StrEnum):
    """The four suits (1.2.2), named as in the exchange format."""

    EICHEL = "eichel"
    GRAS = "gras"
    HERZ = "herz"
    SCHELLEN = "schellen"

    @property
    def letter(self) -> str:
        return self.value[0].upper()


class Rank(Enum):
    """The eight ranks of a suit with their card points (1.2.3)."""

    ASS = ("A", 11)
    ZEHN = ("10", 10)
    KOENIG = ("K", 4)
    OBER = ("O", 3)
    UNTER = ("U", 2)
    NEUN = ("9", 0)
    ACHT = ("8", 0)
    SIEBEN = ("7", 0)

    def __init__(self, symbol: str, card_points: int) -> None:
        self.symbol = symbol
        self.card_points = card_points


# Natural order of a non-trump suit in Rufer and Solo, where Obers and Unters are trumps.
SIDE_SUIT_ORDER: tuple[Rank, ...] = (
    Rank.ASS,
    Rank.ZEHN,
    Rank.KOENIG,
    Rank.NEUN,
    Rank.ACHT,
    Rank.SIEBEN,
)
# In a Wenz each Ober ranks between the King and the Nine of its suit (2.7.2).
WENZ_SIDE_SUIT_ORDER: tuple[Rank, ...] = (
    Rank.ASS,
    Rank.ZEHN,
    Rank.KOENIG,
    Rank.OBER,
    Rank.NEUN,
    Rank.ACHT,
    Rank.SIEBEN,
)
# The lords rank Acorns, Leaves, Hearts, Bells (1.2.5).
LORD_SUIT_ORDER: tuple[Suit, ...] = (Suit.EICHEL, Suit.GRAS, Suit.HERZ, Suit.SCHELLEN)


@dataclass(frozen=True, order=True)
class Card:
    suit: Suit
    rank: Rank

    def __str__(self) -> str:
        return f"{self.suit.letter}{self.rank.symbol}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read the short form used on the hand checker: suit letter then rank, e.g.
        ``EO`` (Eichel-Ober), ``HA`` (Herz-Sau), ``S10`` or ``SZ`` (Schellen-Zehn), ``G7``."""
        token = text.strip().upper()
        if len(token) < 2:
            raise ValueError(text)
        suits = {suit.letter: suit for suit in Suit}
        ranks = {rank.symbol: rank for rank in Rank} | {"Z": Rank.ZEHN, "S": Rank.ASS}
        suit = suits.get(token[0])
        rank = ranks.get(token[1:])
        if suit is None or rank is None:
            raise ValueError(text)
        return cls(suit, rank)


class Contract(StrEnum):
    """The six contracts (RULINGS 2), named as in the exchange format."""

    RUFER = "rufer"
    WENZ = "wenz"
    SOLO = "solo"
    WENZ_TOUT = "wenz_tout"
    SOLO_TOUT = "solo_tout"
    SIE = "sie"

    @property
    def is_tout(self) -> bool:
        return self in (Contract.SOLO_TOUT, Contract.WENZ_TOUT)


CALLABLE_ACES: tuple[Suit, ...] = (Suit.EICHEL, Suit.GRAS, Suit.SCHELLEN)


def suit_is_valid(contract: Contract, suit: Suit | None) -> bool:
    """A Rufer calls an Ace other than Herz (2.5.1); a Solo names any trump suit (2.6.3);
    Wenz, Wenz Tout and Sie name no suit."""
    if contract is Contract.RUFER:
        return suit in CALLABLE_ACES
    if contract in (Contract.SOLO, Contract.SOLO_TOUT):
        return suit is not None
    return suit is None


def trumps(contract: Contract, suit: Suit | None) -> tuple[Card, ...]:
    """All trumps of a contract, highest first (2.5.6, 2.6.6, 2.7.4)."""
    unters = tuple(Card(s, Rank.UNTER) for s in LORD_SUIT_ORDER)
    if contract in (Contract.WENZ, Contract.WENZ_TOUT):
        return unters
    obers = tuple(Card(s, Rank.OBER) for s in LORD_SUIT_ORDER)
    if contract is Contract.SIE:
        return obers + unters
    trump_suit = Suit.HERZ if contract is Contract.RUFER else suit
    if trump_suit is None:
        raise ValueError("a Solo needs a trump suit")
    return obers + unters + tuple(Card(trump_suit, rank) for rank in SIDE_SUIT_ORDER)
