"""How a change a write made to another game is told: on the desk, on the table's phone and in
the history ("Spiel 6 gestrichen (5.2.16: 5. Solo ohne Genehmigung), weil Spiel 2 genehmigt
wurde."). The change itself is computed by ``scoring.effects``; the history keeps it as data
(``as_record``) and says it in the reader's language."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.effects import Change, Effect, GameState

from .text import points_text


class Cause(StrEnum):
    """What kind of write changed the other games."""

    ENTERED = "entered"
    CHANGED = "changed"
    DELETED = "deleted"
    SANCTION = "sanction"
    APPROVED = "approved"
    APPROVAL_WITHDRAWN = "approval_withdrawn"
    CORRECTED = "corrected"
    VOID = "void"  # changes no game's score: the standings count a void sheet for nothing


_CAUSES = {
    Cause.ENTERED: gettext_lazy("game %(game)s was entered"),
    Cause.CHANGED: gettext_lazy("game %(game)s was changed"),
    Cause.DELETED: gettext_lazy("game %(game)s was deleted"),
    Cause.SANCTION: gettext_lazy("a sanction was entered for game %(game)s"),
    Cause.APPROVED: gettext_lazy("game %(game)s was approved"),
    Cause.APPROVAL_WITHDRAWN: gettext_lazy("the approval of game %(game)s was withdrawn"),
    Cause.CORRECTED: gettext_lazy("game %(game)s was corrected"),
}


def cause_text(cause: str, game: int | None) -> str:
    """The cause, as the end of a sentence "…, because <cause>."."""
    text = _CAUSES.get(cause)
    return str(text) % {"game": game} if text is not None else _("another game changed")


def effect_text(number: int, effect: str, before: dict, after: dict) -> str:
    """What happened to game ``number``, from the states as ``as_record`` keeps them."""
    values = {"game": number}
    if effect == Effect.STRUCK:
        if after.get("rule") == "5.2.14":
            return _("Game %(game)s struck (5.2.14: Tout or Sie without approval)") % values
        return _("Game %(game)s struck (5.2.16: Solo no. %(nth)s without approval)") % {
            **values,
            "nth": after.get("nth_solo") or "",
        }
    if effect == Effect.COUNTS_AGAIN:
        return _("Game %(game)s counts again (%(points)s)") % {
            **values,
            "points": points_text(after.get("points", ())),
        }
    if effect == Effect.DOWNGRADED:
        return _("Game %(game)s scored as a plain Solo/Wenz in the first game (5.2.15)") % values
    return _("Game %(game)s: %(before)s → %(after)s") % {
        **values,
        "before": points_text(before.get("points", ())),
        "after": points_text(after.get("points", ())),
    }


def state_record(state: GameState | None) -> dict | None:
    if state is None:  # the game was not on that sheet (entered or deleted)
        return None
    return {
        "points": list(state.points),
        "struck": state.struck,
        "downgraded": state.downgraded,
        "rule": state.rule,
        "nth_solo": state.nth_solo,
    }


def as_record(change: Change, cause: str, cause_game: int | None) -> dict:
    """A change as its history line keeps it (the line's ``game`` is the changed game)."""
    return {
        "effect": change.effect.value,
        "cause": cause,
        "cause_game": cause_game,
        "before": state_record(change.before),
        "after": state_record(change.after),
    }


def record_text(number: int | None, data: dict) -> str:
    """A history line ``entry.rescored`` in words."""
    before, after = data.get("before") or {}, data.get("after") or {}
    effect = effect_text(number or 0, data.get("effect", ""), before, after)
    return _("%(effect)s, because %(cause)s.") % {
        "effect": effect,
        "cause": cause_text(data.get("cause", ""), data.get("cause_game")),
    }


def change_text(change: Change, cause: str, cause_game: int | None) -> str:
    """A change as the desk and the phone are told it."""
    return record_text(change.number, as_record(change, cause, cause_game))
