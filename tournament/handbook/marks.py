"""Why a game of a sheet is marked, and why another game changed with a write: the marks the
desk's and the phone's rows show and the sentences after a write ("Spiel 6 gestrichen (5.2.16:
5. Solo ohne Genehmigung), weil Spiel 2 genehmigt wurde."), keyed by their English source text.
``tests/tournament/handbook/test_handbook.py`` reads ``results/rows.py`` and
``results/effects.py`` and fails for a mark without its line here."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .codes import Advice

STRUCK_TOUT = Advice(
    _(
        "A Tout or Sie needs the supervisor's approval before it is played. Without it the game "
        "stays on the sheet with 0 points for all and is not replayed. If he did approve it, he "
        "records the approval at the desk: the game counts again."
    ),
    "5.2.14, 5.2.17",
)
STRUCK_SOLO = Advice(
    _(
        "From the 5th Solo or Wenz of a table in a match (official rules) every further one needs "
        "the supervisor's approval. Without it the game has 0 points for all and is not replayed. "
        "A Solo entered, deleted or approved before it changes which one is the 5th: then a later "
        "game is struck, or counts again, and the answer names it."
    ),
    "5.2.16, 5.2.17",
)

MARKS = {
    "struck: Tout or Sie without approval (5.2.14)": STRUCK_TOUT,
    "struck: Solo/Wenz from the %(n)sth on without approval (5.2.16)": STRUCK_SOLO,
    "Game %(game)s struck (5.2.14: Tout or Sie without approval)": STRUCK_TOUT,
    "Game %(game)s struck (5.2.16: Solo no. %(nth)s without approval)": STRUCK_SOLO,
    "Game %(game)s counts again (%(points)s)": Advice(
        _(
            "Nothing to do: the game had been struck, and with this write it no longer needs an "
            "approval (an earlier Solo went) or now has one."
        ),
        "5.2.16",
    ),
    "game 1: plain Solo/Wenz (5.2.15)": Advice(
        _("Nothing to do: in the first game a Tout or a Schwarz counts as a plain Solo or Wenz."), "5.2.15"
    ),
    "Game %(game)s scored as a plain Solo/Wenz in the first game (5.2.15)": Advice(
        _("Nothing to do: in the first game a Tout or a Schwarz counts as a plain Solo or Wenz."), "5.2.15"
    ),
    "corrected after signing (5.3.4)": Advice(
        _(
            "The supervisor corrected this game after the signatures, with a reason; the old game "
            "stays visible."
        ),
        "5.3.4",
    ),
    "%(contract)s approved by %(who)s": Advice(
        _("Nothing to do: the supervisor approved this game before it was played; it counts."),
        "5.2.14, 5.2.16",
    ),
    "Game %(game)s: the approval was for a %(contract)s (by %(who)s), the game entered is another: it "
    "does not count for it (5.2.14, 5.2.16).": Advice(
        _(
            "Check the game entered against what was announced: correct the game if it was typed "
            "wrongly, or the supervisor withdraws the approval and records the right one."
        ),
        "5.2.14, 5.2.16",
    ),
    "Game %(game)s: %(before)s → %(after)s": Advice(
        _("Another game's points changed with this write: the points before and after are both shown.")
    ),
}
