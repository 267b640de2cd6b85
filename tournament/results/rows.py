"""A scoresheet's rows as every screen shows them: the referee's desk, the table's phone. What a
row says is decided here, once; templates/sheet/_row.html draws each (``render_rows``). The
desk shows every game of the match, the phone the games entered, the rounds done and the next
game, with names instead of seat numbers."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django.conf import settings
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.entries import Family

from .models import Approval, GameEntry
from .sheet import GameLine, RoundLine, SheetView
from .text import contract_short


class Cell(NamedTuple):
    """A seat's points in a row: ``css`` marks the dealer sitting out at a table of five
    (``out``), ``circled`` the soloist's (5.3.3)."""

    css: str
    value: str  # a text: the template language would localise every number, a third of its time
    circled: bool = False


class SheetRow(NamedTuple):
    """A row as the template unpacks it (``{% for kind, label, … in rows %}``: names looked up
    once per row, not per cell)."""

    kind: str  # "game" or "round"
    label: str  # the game's number, or the round's, as text
    css: str  # the row's classes
    text: str  # what was played, or the round's line
    cells: tuple[Cell, ...]
    dealer: str = ""
    entered: bool = False
    flags: tuple[tuple[str, str], ...] = ()  # (class, text) of each mark after the game
    approval: Approval | None = None
    number: int = 0


POINTS, OUT = "p num", "p num out"


def struck_text(line: GameLine, rules) -> str:
    """Why a game is struck: it needed approval and had none (5.2.17), as a Tout or Sie (5.2.14)
    or as a Solo or Wenz from the n-th on (5.2.16)."""
    scored = line.row.scored if line.row else None
    if scored is not None and scored.kind is not None and scored.kind.family is Family.SOLO:
        return _("struck: Solo/Wenz from the %(n)sth on without approval (5.2.16)") % {
            "n": rules.solo_approval_from
        }
    return _("struck: Tout or Sie without approval (5.2.14)")


Names = Callable[[int, int], str]  # (seat, game) → who played that seat in that game


def _game_text(line: GameLine, names: Names | None) -> str:
    """The desk's full description, or (``names``) the phone's short one with the players' names
    (a substitute's from the game he took over, 5.2.11)."""
    if line.entry is None:
        return ""
    if names is None:
        return line.text
    contract, players, result = line.short
    if line.entry.kind == GameEntry.Kind.GAME:
        players = " & ".join(names(p, line.number) for p in (line.entry.declarer, line.entry.partner) if p)
    return " · ".join(part for part in (contract, players, result) if part)


def covered(line: GameLine) -> bool:
    """Whether the game's approval covers the game entered, as the engine read it
    (``scoring.approvals.approval_covers``, through ``results.store.with_approval``)."""
    return bool(line.row and getattr(line.row.scored.entry, "approved", False))


def approved_contract(line: GameLine) -> str:
    """The approved contract as the game's row names it: "Herz-Tout" when the game entered is
    the Tout approved (its suit is the entry's), else the approval's contract alone (the walk of
    issue 28 saw "Solo Tout approved" under a Herz-Tout)."""
    assert line.approval is not None
    entry = line.entry
    if entry is not None and entry.contract == line.approval.contract:
        return contract_short(entry.contract, entry.suit)
    return contract_short(line.approval.contract, "")


def mismatch_text(line: GameLine) -> str:
    """An approval recorded for a game that does not match it: a problem, not a label on
    another contract (issue 28, item 4)."""
    assert line.approval is not None
    return _(
        "Game %(game)s: the approval was for a %(contract)s (by %(who)s), the game entered is "
        "another: it does not count for it (5.2.14, 5.2.16)."
    ) % {
        "game": line.number,
        "contract": line.approval.get_contract_display(),
        "who": line.approval.approved_by_name,
    }


def _round_row(line: RoundLine) -> SheetRow:
    total = line.total
    text = _("Round %(n)s") % {"n": line.number}
    label = str(line.number)
    if total is None:
        return SheetRow("round", label, "round", text, (), number=line.number)
    mark = "0 ✓" if total.checksum == 0 else f"{total.checksum} ✗"
    total_word, checksum_word = _("total"), _("checksum")  # makemessages reads no f-string
    css = "round bad" if total.checksum else "round"
    text = f"{text} · {total_word} · {checksum_word} {mark}"
    cells = tuple(Cell("p num total", str(value)) for value in total.running)
    return SheetRow("round", label, css, text, cells, number=line.number)


def sheet_rows(
    view: SheetView,
    next_number: int | None = None,
    names: Names | None = None,
    editing: int | None = None,
    played_only: bool = False,
) -> list[SheetRow]:
    """The rows of ``view``: every game and round, or (``played_only``, the phone) the games
    entered, the rounds with totals and the next game. ``names``: the players' names in the
    games' texts, by seat (the phone); ``editing``: the game the desk is changing."""
    five = view.size == 5
    rules = view.rules
    flag_texts = {
        "downgraded": _("game 1: plain Solo/Wenz (5.2.15)"),
        "corrected": _("corrected after signing (5.3.4)"),
        "next": _("next game"),
    }
    rows: list[SheetRow] = []
    for line in view.lines():
        if isinstance(line, RoundLine):
            if line.total is not None or not played_only:
                rows.append(_round_row(line))
            continue
        entered = line.entry is not None
        is_next = line.number == next_number
        if played_only and not entered and not is_next:
            continue
        out = line.dealer if five else None
        points = line.points or ("",) * view.size
        circled = line.circled
        cells = tuple(
            Cell(OUT if seat == out else POINTS, str(value), seat == circled)
            for seat, value in enumerate(points, start=1)
        )
        flags = []
        if entered and line.struck:
            flags.append(("flag struck-flag", struck_text(line, rules)))
        if entered and line.downgraded:
            flags.append(("flag", flag_texts["downgraded"]))
        if entered and line.corrected:
            flags.append(("flag corrected-flag", flag_texts["corrected"]))
        if line.approval is not None and entered and not covered(line):
            flags.append(("flag mismatch", mismatch_text(line)))
        elif line.approval is not None:
            approved = _("%(contract)s approved by %(who)s") % {
                "contract": approved_contract(line),
                "who": line.approval.approved_by_name,
            }
            flags.append(("flag ok", approved))
        css = " ".join(
            word
            for word, on in (
                ("game", entered),
                ("struck", line.struck),
                ("corrected", line.corrected),
                ("next", is_next),
                ("editing", line.number == editing),
            )
            if on
        )
        text = _game_text(line, names) if entered else (flag_texts["next"] if is_next else "")
        rows.append(
            SheetRow(
                "game",
                str(line.number),
                css,
                text,
                cells,
                str(line.dealer),
                entered,
                tuple(flags),
                line.approval,
                line.number,
            )
        )
    return rows


# The phone's rows drawn once per process (ROW_CACHE): a table's phone gets its whole sheet back
# with every game it enters, and all but the newest rows are as they were. Drawing 40 rows through
# the template language took 3-4 ms of every entry, which at 67 entries a second on two cores
# took the table-entry bench's p95 from 38 ms to 240-310 ms. A row is kept by what it says (the
# row itself, the language, the columns): nothing else goes into its HTML. The desk's rows carry
# actions with the form's token and are drawn each time.
_DRAWN: dict[tuple, str] = {}
_DRAWN_MAX = 20_000  # about 6 MB a process: 500 tables' sheets


def render_rows(
    context, rows: list[SheetRow], lead: int, dealer_column: bool, row_actions: str
) -> SafeString:
    """``rows`` drawn through templates/sheet/_row.html in ``context`` (the sheet's template's)."""
    template = get_template("sheet/_row.html").template
    view = context.get("view")
    keep = settings.ROW_CACHE and not row_actions
    language = get_language()
    size = getattr(view, "size", None)
    drawn = []
    with context.push(lead=lead, dealer_column=dealer_column, row_actions=row_actions):
        for row in rows:
            key = (language, lead, dealer_column, size, row._replace(approval=None)) if keep else None
            html = _DRAWN.get(key) if keep else None
            if html is None:
                with context.push(row._asdict()):
                    html = template.render(context)
                if keep:
                    if len(_DRAWN) >= _DRAWN_MAX:
                        _DRAWN.clear()
                    _DRAWN[key] = html
            drawn.append(html)
    return mark_safe("".join(drawn))  # each part drawn (and escaped) by the row's template
