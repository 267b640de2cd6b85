"""The standings' lines as HTML, and a visitor's search of the standings answered from lines drawn
once per standings computation (issue 29.4).

Every row of the standings is drawn here (``line``), for every page that shows the table
(public/_standings_table.html through ``standings_lines``), so that a search put together from
kept lines is the page drawn afresh, byte for byte.

A player's phone polls the standings searched for his own line every 30 s (``?q=12``). Each such
address is asked for once in 30 s, and the standings change every few seconds while the tables
enter games, so a kept page (``views.StandingsView``) was nearly never given: each poll drew the
whole part again (6 ms, the largest share of a cup's evening on one server, ``make bench
PART=cluster``). Here the part is drawn once per standings computation, language and address,
with a placeholder for the search and a mark for the lines (the *frame*), and every line once;
a search then picks its lines and puts them in: a fraction of a millisecond. Both are kept per
process and, with Redis, for all processes and machines, as the standings themselves are.

Only what the frame can hold exactly: a visitor's swapped part (htmx), the search its only
parameter, sent as a browser's form sends it (the frame writes it so, in the address and the
header's links), and at least one line found and no more than a page.
``STANDINGS_DRAWN_SEARCHES`` (on by default) turns it off."""

from __future__ import annotations

import hashlib
import urllib.parse
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import standings as standings_module
from .standings import StandingRow, Standings

# What the frame holds instead of the search and of the lines. The placeholder is written alike
# in the address (``get_full_path``) and in the header's links (``urlencode``): letters only.
PLACEHOLDER = "qqsearchqq"
MARK = "<!--standings-lines-->"


def substitute_texts(row: StandingRow) -> list[str]:
    """A line's substitutes, as its name cell says them (5.2.11, RULINGS 14: the start number
    keeps its points)."""
    return [
        _("substitute from match %(match)s, game %(game)s: %(name)s")
        % {"match": sub.from_match, "game": sub.from_game, "name": sub.name}
        for sub in row.substitutes
    ]


PARITY = "standingsparity"  # where a line's class goes, split off after drawing it


def line(row: StandingRow, prefix: str) -> tuple[str, str]:
    """A row of the standings through templates/public/_standings_line.html, in two parts
    around its class (even or odd, by its place on the page): rank (a star when decided by lot,
    RULINGS 13), start number, name linked to the participant's page (``prefix`` + number),
    club, substitutes, the 5.4.2 counts. Numbers as text: the template language would localise
    each, a third of its time."""
    substitutes = tuple(substitute_texts(row))
    key = (get_language(), prefix, row.number, row.rank, row.by_lot, row.name, row.club, substitutes, row.key)
    kept = _LINES.get(key)
    if kept is None:
        html = get_template("public/_standings_line.html").render(
            {
                "parity": PARITY,
                "number": str(row.number),
                "rank": str(row.rank),
                "by_lot": row.by_lot,
                "prefix": prefix,
                "name": row.name,
                "club": row.club,
                "substitutes": substitutes,
                "values": [str(value) for value in row.key],
            }
        )
        head, tail = html.split(PARITY, 1)
        if len(_LINES) >= LINES_KEPT:
            _LINES.clear()
        kept = _LINES[key] = (head, tail)
    return kept


def participant_prefix(slug: str) -> str:
    """The address of a participant's page without its number (…/p/), as the lines link it."""
    return reverse("public:participant", args=[slug, 1])[: -len("1/")]


# Lines as drawn, by what they say (most lines of a page say the same after the next result):
# per process, at most this many, emptied when full (as the sheets' rows, results/rows.py).
_LINES: dict[tuple, tuple[str, str]] = {}
LINES_KEPT = 20_000


def joined(lines: list[tuple[str, str]]) -> SafeString:
    """Lines on a page, alternately even and odd from its first."""
    parity = ("even", "odd")
    return mark_safe("".join(head + parity[index % 2] + tail for index, (head, tail) in enumerate(lines)))


def searchable(request) -> str | None:
    """The search of a visitor's poll that a frame can answer, or None (see the module); asked
    of an address the visitors' pages are kept for (``views.keepable``: a search of 40
    characters at most)."""
    query = request.GET.get("q", "")
    if not settings.STANDINGS_DRAWN_SEARCHES or not query.strip():
        return None
    # The address as the frame will write it (``get_full_path`` gives the query string as sent):
    # the search alone, as a browser's form sends it, which is how the header's links write it.
    if query != query.strip() or request.META.get("QUERY_STRING") != "q=" + urllib.parse.quote_plus(query):
        return None
    return query


@dataclass
class Drawn:
    version: tuple  # the standings drawn: their results key and when they were computed
    frame: str  # the part with PLACEHOLDER for the search and MARK for the lines
    lines: dict[int, tuple[str, str]]  # by start number: ``line``


# The newest drawn per process for each address, language and the rest of ``key`` (never the
# versions before: at 2,000 players a line for each is 1 MB), bounded; shared through Redis.
_MEMO: OrderedDict[tuple, Drawn] = OrderedDict()
MEMO_SIZE = 200
SHARED_SECONDS = 600


def drawn(key: tuple, standings: Standings, draw_frame, prefix: str) -> Drawn:
    """The frame and the lines of ``standings`` for ``key`` (the address and whatever else the
    frame shows besides the standings), drawn once: ``draw_frame()`` gives the frame."""
    which = (*key, get_language())
    version = (standings.results_key, standings.computed_at)
    kept = _MEMO.pop(which, None)  # put back as the newest below (another thread may pop too)
    if kept is not None and kept.version != version:
        kept = None
    name = "standings-drawn:" + hashlib.sha256(repr((which, version)).encode()).hexdigest()
    shared = standings_module.shared_cache()
    if kept is None and shared:
        kept = standings_module.cache_call(lambda: cache.get(name))
    if kept is None:
        kept = Drawn(version, draw_frame(), {row.number: line(row, prefix) for row in standings.rows})
        if shared:
            standings_module.cache_call(lambda: cache.set(name, kept, SHARED_SECONDS))
    _MEMO[which] = kept
    while len(_MEMO) > MEMO_SIZE:
        _MEMO.popitem(last=False)
    return kept


def search_part(query: str, standings: Standings, kept: Drawn, per_page: int) -> str | None:
    """The part of a search: the frame with the search written in and the lines it finds, or
    None where the frame cannot say it (nothing found: the page says so; more than a page)."""
    rows = standings.search(query)
    if not rows or len(rows) > per_page:
        return None
    found = joined([kept.lines[row.number] for row in rows])
    return kept.frame.replace(PLACEHOLDER, urllib.parse.quote_plus(query)).replace(MARK, found)
