"""Short constructors for entries in tests."""

from scoring import Contract, Game, Result, Sanction, Suit

WON, LOST = Result.WON, Result.LOST


def rufer(n, declarer=1, partner=3, result=WON, suit=Suit.EICHEL, **kw):
    return Game(n, Contract.RUFER, declarer, suit=suit, partner=partner, result=result, **kw)


def solo(n, declarer=1, result=WON, suit=Suit.HERZ, **kw):
    return Game(n, Contract.SOLO, declarer, suit=suit, result=result, **kw)


def wenz(n, declarer=1, result=WON, **kw):
    return Game(n, Contract.WENZ, declarer, result=result, **kw)


def solo_tout(n, declarer=1, result=WON, suit=Suit.GRAS, **kw):
    return Game(n, Contract.SOLO_TOUT, declarer, suit=suit, result=result, **kw)


def wenz_tout(n, declarer=1, result=WON, **kw):
    return Game(n, Contract.WENZ_TOUT, declarer, result=result, **kw)


def sie(n, declarer=1, **kw):
    return Game(n, Contract.SIE, declarer, **kw)


def sanction(n, contract, declarer, liable, partner=None):
    return Sanction(n, contract, declarer, liable, partner)
