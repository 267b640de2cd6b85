"""A redraw over results by two people (5.2.2; issue 28): the organiser, who draws, asks for a
match with results to be drawn again; the supervisor, who alone may discard results, confirms,
which carries the redraw out, or declines. Nobody changes his roles on the day.

The request is an entry of the history (``draw.redraw_ask``): it is open until the match is
drawn again (``draw.match``, ``draw.all``), the supervisor declines (``draw.redraw_decline``) or
the organiser withdraws it (``draw.redraw_withdraw``)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..tournaments.audit import record
from ..tournaments.models import LogEntry, Tournament
from ..tournaments.permissions import Perm, require
from . import sheets
from .models import Match
from .services import locked, redraw_one, refuse_documents

ASK = "draw.redraw_ask"
DECLINE = "draw.redraw_decline"
WITHDRAW = "draw.redraw_withdraw"
_CLOSING = ("draw.match", "draw.all", DECLINE, WITHDRAW)


def requests(tournament: Tournament) -> tuple[dict[int, LogEntry], dict[int, LogEntry]]:
    """(open, declined): by match number, the organiser's open asks and the supervisor's
    declines since the last ask or draw of the match."""
    entries = LogEntry.objects.filter(tournament=tournament, action__in=(ASK, *_CLOSING)).order_by(
        "created", "id"
    )
    asked: dict[int, LogEntry] = {}
    declined: dict[int, LogEntry] = {}
    for entry in entries:
        if entry.action == "draw.all":
            asked.clear()
            declined.clear()
            continue
        number = entry.data.get("match")
        asked.pop(number, None)
        declined.pop(number, None)
        if entry.action == ASK:
            asked[number] = entry
        elif entry.action == DECLINE:
            declined[number] = entry
    return asked, declined


def open_requests(tournament: Tournament) -> dict[int, LogEntry]:
    """The open requests by match number, each the history entry of the organiser's ask."""
    return requests(tournament)[0]


def declined_requests(tournament: Tournament) -> dict[int, LogEntry]:
    """The supervisor's latest declines by match number, until the match is asked for or drawn."""
    return requests(tournament)[1]


def _match(tournament: Tournament, number: int) -> Match:
    match = tournament.matches.filter(number=number).first()
    if match is None or not match.is_drawn:
        raise ServiceError(_("Match %(match)s is not drawn yet.") % {"match": number})
    return match


@transaction.atomic
def ask(user, tournament: Tournament, number: int, seed: str = "") -> LogEntry:
    """The organiser asks the supervisor to discard the results of a match and draw it again."""
    require(user, tournament, Perm.DRAW)
    match = _match(tournament, number)
    tournament = locked(tournament, [match])
    refuse_documents([match])
    results = sheets.results_count(match)
    if not results:
        raise ServiceError(
            _("Match %(match)s has no results: it can be drawn again without the supervisor.")
            % {"match": number}
        )
    if number in open_requests(tournament):
        raise ServiceError(
            _("The redraw of match %(match)s is already asked for: the supervisor confirms or declines it.")
            % {"match": number}
        )
    return record(
        tournament, user, "draw.redraw_ask", match=number, seed=(seed or "").strip(), results=results
    )


@transaction.atomic
def withdraw(user, tournament: Tournament, number: int) -> LogEntry:
    """The organiser takes back his request before the supervisor answers it (asked for the
    wrong match, or the table's problem was solved otherwise); the results stay."""
    require(user, tournament, Perm.DRAW)
    match = _match(tournament, number)
    tournament = locked(tournament, [match])  # not while the supervisor confirms it
    request = open_requests(tournament).get(number)
    if request is None:
        raise ServiceError(_("Nobody asks for a redraw of match %(match)s (any more).") % {"match": number})
    return record(tournament, user, "draw.redraw_withdraw", match=number, asked_by=request.user_name)


@transaction.atomic
def answer(user, tournament: Tournament, number: int, confirm: bool) -> Match | None:
    """The supervisor confirms that the results of the match are discarded, which draws it again
    with the seed the organiser gave (the match returned), or declines (None)."""
    require(user, tournament, Perm.DISCARD_RESULTS)
    match = _match(tournament, number)
    tournament = locked(tournament, [match])  # no entry and no second answer meanwhile
    request = open_requests(tournament).get(number)
    if request is None:
        raise ServiceError(_("Nobody asks for a redraw of match %(match)s (any more).") % {"match": number})
    if not confirm:
        record(tournament, user, "draw.redraw_decline", match=number, asked_by=request.user_name)
        return None
    return redraw_one(
        user, tournament, number, request.data.get("seed"), discard_results=True, asked_by=request.user_name
    )


def drawn_again(match: Match) -> LogEntry | None:
    """The history entry of the match's latest draw when it replaced an earlier draw (whose table
    cards no longer work: issue 28, item 13), else None."""
    latest = (
        LogEntry.objects.filter(tournament_id=match.tournament_id)
        .filter(Q(action="draw.all") | Q(action="draw.match", data__match=match.number))
        .order_by("-created", "-id")
        .first()
    )
    if latest is None:
        return None
    replaced = latest.data.get("replaced")
    if latest.action == "draw.all":
        return latest if replaced and str(match.number) in replaced else None
    return latest if replaced else None
