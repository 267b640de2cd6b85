"""How an entry reads on screen and paper: the usual German short forms, translated."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .models import GameEntry

SUIT_NAMES = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}


def points_text(points) -> str:
    """The points of an entry by seat, e.g. "+1 / -1 / +1 / -1" (five at a table of five)."""
    return " / ".join(f"{p:+d}" if p else "0" for p in points)


def contract_text(contract: str, suit: str) -> str:
    suit_name = SUIT_NAMES.get(suit, "")
    return {
        "rufer": _("Sauspiel with the %(suit)s-Sau") % {"suit": suit_name} if suit_name else _("Sauspiel"),
        "solo": _("%(suit)s-Solo") % {"suit": suit_name} if suit_name else "Solo",
        "solo_tout": _("%(suit)s-Solo-Tout") % {"suit": suit_name} if suit_name else "Solo-Tout",
        "wenz": _("Wenz"),
        "wenz_tout": _("Wenz-Tout"),
        "sie": _("Sie"),
    }.get(contract, contract)


# The short forms of a score list: the suit as players say it.
SUIT_SHORT = {"eichel": "Ei", "gras": "Gras", "herz": "Herz", "schellen": "Schell"}


def contract_short(contract: str, suit: str) -> str:
    """The contract as written on a score list, in the game's own words in every language:
    Ei-Sau (Sauspiel with the Eichel-Sau), Herz-Solo, Wenz, Gras-Tout (Solo-Tout), Wenz-Tout,
    Sie."""
    suit_name = SUIT_SHORT.get(suit, "")
    return {
        "rufer": f"{suit_name}-Sau" if suit_name else "Sauspiel",
        "solo": f"{suit_name}-Solo" if suit_name else "Solo",
        "solo_tout": f"{suit_name}-Tout" if suit_name else "Solo-Tout",  # a sanction names no suit
        "wenz": "Wenz",
        "wenz_tout": "Wenz-Tout",
        "sie": "Sie",
    }.get(contract, contract)


def short_entry(entry: GameEntry) -> tuple[str, str, str]:
    """(contract, players, result) for the columns of a printed sheet, e.g. ("Ei-Sau", "1 & 3",
    "gewonnen"), ("Herz-Solo", "2", "95 Augen"), ("Strafe Gras-Sau", "1 & 3", "Platz 2
    schuldig"), ("Liste", "2", "") for a copied paper-list row with seat 2 circled."""
    if entry.kind == GameEntry.Kind.TRANSCRIBED:
        return _("paper list"), str(entry.declarer or ""), ""
    players = f"{entry.declarer} & {entry.partner}" if entry.partner else str(entry.declarer)
    contract = contract_short(entry.contract, entry.suit)
    if entry.kind == GameEntry.Kind.SANCTION:
        return (
            f"{_('Sanction')} {contract}",
            players,
            _("seat %(liable)s liable") % {"liable": entry.liable},
        )
    return contract, players, _outcome(entry, short=True)


def _outcome(entry: GameEntry, short: bool = False) -> str:
    if entry.invalid_announcement:
        return _("invalid, lost (2.4.10)") if short else _("announced invalidly, lost (2.4.10)")
    if entry.contract == "sie":
        return ""
    if entry.declarer_points is not None:
        text = _("%(points)s card points") % {"points": entry.declarer_points}
    else:
        text = _("won") if entry.result == "won" else _("lost")
    if entry.schwarz:
        text += " " + _("Schwarz")
    elif entry.schneider:
        text += " " + _("Schneider")
    return text


def describe_entry(entry: GameEntry) -> str:
    """E.g. "Sauspiel with the Eichel-Sau, 1 with 3: won" / "Herz-Solo, 2: 95 card points"."""
    if entry.kind == GameEntry.Kind.TRANSCRIBED:
        numbers = " ".join(f"{n:+d}" if n else "0" for n in entry.written or ())
        if entry.declarer:
            return _("paper-list row %(numbers)s, seat %(seat)s circled") % {
                "numbers": numbers,
                "seat": entry.declarer,
            }
        return _("paper-list row %(numbers)s") % {"numbers": numbers}
    game = contract_text(entry.contract, entry.suit)
    if entry.kind == GameEntry.Kind.SANCTION:
        players = f"{entry.declarer} & {entry.partner}" if entry.partner else str(entry.declarer)
        return _("sanction in %(game)s of %(players)s: seat %(liable)s liable") % {
            "game": game,
            "players": players,
            "liable": entry.liable,
        }
    players = (
        _("%(declarer)s with %(partner)s") % {"declarer": entry.declarer, "partner": entry.partner}
        if entry.partner
        else str(entry.declarer)
    )
    outcome = _outcome(entry)
    return f"{game}, {players}: {outcome}" if outcome else f"{game}, {players}"


# The fields of an entry's record that describe it, with what an older record may lack.
RECORD_FIELDS = {
    "kind": GameEntry.Kind.GAME,
    "contract": "",
    "suit": "",
    "declarer": None,
    "partner": None,
    "result": "",
    "schneider": False,
    "schwarz": False,
    "declarer_points": None,
    "invalid_announcement": False,
    "liable": None,
    "written": None,
}


def describe_record(record: dict | None) -> str:
    """An entry as the log keeps it (GameEntry.as_record), in words with its points."""
    if not record:
        return "—"
    entry = GameEntry(**{key: record.get(key) or default for key, default in RECORD_FIELDS.items()})
    text = describe_entry(entry)
    points = record.get("points")
    return f"{text} ({points_text(points)})" if points else text


def saved_text(saved: GameEntry) -> str:
    """What the desk and the table's phone are told after a game is stored."""
    text = _("Game %(game)s: %(entry)s (%(points)s).") % {
        "game": saved.number,
        "entry": describe_entry(saved),
        "points": points_text(saved.points),
    }
    if saved.struck:
        text += " " + _("Struck: it needed the supervisor's approval (5.2.17).")
    if saved.downgraded:
        text += " " + _("Scored as a plain Solo/Wenz in the first game (5.2.15).")
    return text
