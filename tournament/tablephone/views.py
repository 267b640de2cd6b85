"""The table's pages on the players' phones, opened by the table code (no log-in). The
supervisor's pages are in ``supervisor_views``."""

from __future__ import annotations

import functools

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from scoring.approvals import soloist_games_before
from scoring.scoresheet import dealer

from ..errors import ServiceError
from ..hall import phone_address
from ..jsontext import JSONTextError, parse_json
from ..names import surname
from ..prepared import Prepared
from ..problems import problem_messages
from ..results.load import Known, SheetFacts, load_sheet
from ..results.models import Scoresheet
from ..results.rows import covered, mismatch_text, sheet_rows
from ..results.sheet import SheetView
from ..throttle import client_address, limit
from . import table
from .codes import CodeRefused, Opened, current_etag, etag_of, formatted, normalized, open_code, seen
from .models import ApprovalCall
from .phone_state import approval_needs, point_values, seat_states
from .supervisor import OVERDUE

MAX_BODY = 400_000  # a signature is the largest thing a phone sends


def table_url(sheet: Scoresheet, request=None) -> str:
    """The address the table code opens."""
    return phone_address(reverse("table:sheet", args=[sheet.code]), request)


def _refused(request, code: str, error: CodeRefused):
    """Why the code opens nothing, as the page or the JSON asked for. A signed sheet's players
    see their totals (every phone at the table, also one that did not sign); the page lists the
    games this phone could not send with the code (kept in its storage under it)."""
    locked = None
    if error.sheet is not None:  # signed: the code's work is done
        locked = locked_context(error.sheet)
    if request.headers.get("Accept", "").startswith("application/json"):
        answer = {"ok": False, "gone": True, "message": error.message}
        if locked is not None:
            answer["html"] = render_to_string("table/_locked.html", locked, request=request)
            answer["state"] = {"status": error.sheet.status, "version": error.sheet.version}
        return JsonResponse(answer, status=error.status)
    context = {"code": normalized(code), "texts": leftover_texts()}
    if locked is not None:
        return render(request, "table/locked.html", {**context, **locked, "page": True}, status=error.status)
    return render(request, "table/refused.html", {**context, "message": error.message}, status=error.status)


def _throttled(request, code: str = ""):
    """The answer to an address that sent too many unknown codes this minute: nothing is looked
    up, a right code neither (else the wrong ones could go on being tried among the right)."""
    codes = limit("table_code")
    if not codes.reached(client_address(request)):
        return None
    message = _("Too many wrong table codes. Please try again in a minute.")
    if request.headers.get("Accept", "").startswith("application/json"):
        response = JsonResponse({"ok": False, "message": message}, status=429)
    else:
        context = {"code": normalized(code), "texts": leftover_texts(), "message": message}
        response = render(request, "table/refused.html", context, status=429)
    response["Retry-After"] = str(codes.retry_after())
    return response


def _counted(request, error: CodeRefused) -> CodeRefused:
    """An unknown code counts against the address (a renewed or closed one was a real code)."""
    if error.status == 404:
        limit("table_code").add(client_address(request))
    return error


def leftover_texts() -> dict:
    return {
        "title": _("Not stored with this code (show them to the referee, or enter them again):"),
        "dismiss": _("Remove the list from this phone"),
    }


def locked_context(sheet: Scoresheet) -> dict:
    """A signed sheet as every phone at the table shows it: the games as signed, and the totals
    with who signed for each seat (issue 28, item 14; a substitute, 5.2.11)."""
    read = load_sheet(sheet.pk)
    view = read.view()
    signers = {s.position: s.name for s in read.signatures}
    return {
        "sheet": read.sheet,
        "view": view,
        "scored": view.score,
        "rows": sheet_rows(view, None, names=names_of(view), played_only=True),
        "headers": [(seat, surname(seat.signer), 0) for seat in view.seats],
        "final": [
            (seat.position, signers.get(seat.position, seat.signer), total)
            for seat, total in zip(view.seats, view.totals, strict=True)
        ],
    }


def names_of(view: SheetView):
    """Who played a seat in a game, by (seat, game): a substitute from the game he took over."""
    by_position = {seat.position: seat for seat in view.seats}

    def played_by(position: int, number: int) -> str:
        seat = by_position.get(position)
        return seat.name_at(number) if seat is not None else str(position)

    return played_by


def phone_context(sheet: Scoresheet, known: Known | None = None, facts: SheetFacts | None = None) -> dict:
    """The table's sheet as the phone shows it: the desk's view of it (same engine, same
    messages), with names instead of seat numbers; the sheet read afresh (``context["sheet"]``)
    or, after a write, as the write ``known`` left it (with the kinds of row the code's lookup
    found none of, ``Opened.facts``: not read)."""
    read = load_sheet(sheet.pk, known, facts)
    sheet = read.sheet
    tournament = sheet.match.tournament
    rules = tournament.rules
    view = read.view(rules)
    scored = view.score
    next_number = scored.missing[0] if scored.missing else None
    size = view.size  # four seats, or five where the dealer sits out
    # Who plays each seat in the next game (the last once all are entered): a substitute from
    # the game he took over, and who signs for it (5.2.11; issue 28, item 3).
    current = next_number or rules.games_for(size)
    seats = seat_states(view.seats, current)
    names = {seat["position"]: seat["name"] for seat in seats}
    soloists = soloist_games_before(rules.games_for(size) + 1, [r.scored for r in scored.rows])
    calls = [] if known is not None and facts is not None and not facts.calls else _CALLS(sheet.pk)
    latest: dict[int, ApprovalCall] = {}
    for call in calls:
        latest.setdefault(call.number, call)
    entered_numbers = {game.number for game in view.entered}
    # The calls of games still to be played: what the table waits for or was told.
    shown_calls = sorted(
        (
            c
            for c in latest.values()
            if c.status != ApprovalCall.Status.WITHDRAWN and c.number not in entered_numbers
        ),
        key=lambda c: c.number,
    )
    rows = sheet_rows(view, next_number, names=names_of(view), played_only=True)
    signatures = {s.position: s for s in read.signatures}
    signers = {position: signature.name for position, signature in signatures.items()}
    state = {
        "version": sheet.version,
        "status": sheet.status,
        "games": rules.games_for(size),
        "next": next_number,
        "dealer": dealer(next_number, size) if next_number else None,
        "size": size,
        "kinds": {str(g.number): g.entry.kind for g in view.entered},
        "approvals": {str(g.number): g.approval.contract for g in view.games if g.approval},
        "solo_count": soloists,
        "approval_from": rules.solo_approval_from,
        "totals": list(scored.totals),
        "seats": seats,
        "scorekeeper": sheet.table.scorekeeper,
        "signed": sorted(signatures),
        "calls": [
            {
                "number": c.number,
                "contract": c.contract,
                "suit": c.suit,
                "declarer": c.declarer,
                "status": c.status,
                "label": c.label,
                "by": c.answered_by_name,
                "reason": c.reason,
                "since": localtime(c.created).strftime("%H:%M"),
            }
            for c in shown_calls
        ],
    }
    state["etag"] = etag_of(
        sheet.version, [(c.pk, c.status) for c in calls], sheet.table.scorekeeper, len(read.signatures)
    )
    return {
        "sheet": sheet,
        "tournament": tournament,
        "view": view,
        "rows": rows,
        "scored": scored,
        "names": names,
        "problems": problem_messages(scored.problems)
        + [mismatch_text(g) for g in view.entered if g.approval is not None and not covered(g)],
        "next_number": next_number,
        "calls": shown_calls,
        "overdue_after": OVERDUE,
        "signatures": signatures,
        "scorekeeper": names.get(sheet.table.scorekeeper, ""),
        "state": state,
        "approval_from_now": soloists >= rules.solo_approval_from - 1,
        "headers": [
            (seat, surname(state_of["name"]), state_of["since"])
            for seat, state_of in zip(view.seats, seats, strict=True)
        ],
        "final": [
            (seat, total, seat.position in signatures, signers.get(seat.position, seat.signer))
            for seat, total in zip(view.seats, scored.totals, strict=True)
        ],
    }


def phone_texts() -> dict[str, str]:
    """What the phone's script says, in the page's language."""
    return {
        "contract": _("Game %n"),
        "change": _("Change game %n"),
        "declarer": _("Who plays?"),
        "partner": _("With whom?"),
        "result": _("Won or lost?"),
        "level": _("Schneider or Schwarz?"),
        "won": _("won"),
        "lost": _("lost"),
        "plain": _("neither"),
        "schneider": _("Schneider"),
        "schwarz": _("Schwarz"),
        "sauspiel": _("Sauspiel"),
        "solo": _("Solo"),
        "wenz": _("Wenz"),
        "tout": _("Tout"),
        "wenz_tout": _("Wenz Tout"),
        "sie": _("Sie"),
        "suit_e": _("Eichel"),
        "suit_g": _("Gras"),
        "suit_h": _("Herz"),
        "suit_s": _("Schellen"),
        "dealer": _("deals"),
        "dealer_out": _("deals and sits out"),  # a table of five
        "needs_call": _("Before this game is played the supervisor approves it (5.2.14, 5.2.16)."),
        "cards": _("The eight cards for the hand check (optional):"),
        "call": _("Call the supervisor"),
        "enter_anyway": _("Enter it without approval (it will be struck, 5.2.17)"),
        "waiting_one": _("1 game not sent yet"),
        "waiting_many": _("%n games not sent yet"),
        "offline": _("no connection"),
        "online": _("connected"),
        "refused": _("Not stored:"),
        "dismiss": _("OK"),
        "change_what": _("Change or delete game %n?"),
        "change_btn": _("change"),
        "delete_btn": _("delete"),
        "delete_confirm": _("Delete game %n? The history keeps it."),
        "sign_for": _("Seat %p: %name signs"),
        "keeper_confirm": _("Do all at the table agree that %name keeps the scoresheet?"),
        "play_now": _("approved: play it, then enter the result"),
        "enter_result": _("Enter the result"),
        "withdraw": _("withdraw the call"),
        "complete": _("All games are entered."),
        "sign_empty": _("The signature is empty: please sign in the box."),
        "waiting_call": _("Game %n: waiting for the supervisor (called at %t)."),
        "approved_call": _("Game %n: %c approved by %b."),
        "refused_call": _("Game %n: %c refused by %b."),
        "withdrawn_call": _("Game %n: the call (%c) is closed."),
        "code_dead": _("code no longer valid"),
        "locked": _("signed and locked"),
        "unsent": _("not sent yet"),  # a game waiting to be sent, as a row of the sheet (issue 28)
        "round": _("Round %(n)s") % {"n": "%n"},
        "total": _("total"),
        "checksum": _("checksum"),
    }


# Every answer and every poll that finds a change read the sheet's calls: compiled once
# (tournament.prepared).
_CALLS = Prepared(
    lambda sheet: ApprovalCall.objects.filter(scoresheet_id=sheet).order_by("-created", "-id")[:20], int
)


def _sheet_html(request, context: dict) -> str:
    return render_to_string("table/_sheet.html", context, request=request)


@require_safe
def enter_code(request):
    """The page for typing a table code by hand (when the QR code cannot be scanned)."""
    code = request.GET.get("code", "")
    if code:
        throttled = _throttled(request)
        if throttled is not None:
            return throttled
        try:
            opened = open_code(code)
        except CodeRefused as error:
            _counted(request, error)
            return render(request, "table/code.html", {"error": error.message, "code": code}, status=200)
        return redirect("table:sheet", opened.sheet.code)
    return render(request, "table/code.html", {"code": ""})


def by_code(view):
    """A view of the table's phone: the sheet the code in the address opens (``Opened``), or
    the page (or JSON) saying why the code opens nothing."""

    @functools.wraps(view)
    def wrapped(request, code):
        throttled = _throttled(request, code)
        if throttled is not None:
            return throttled
        try:
            opened = open_code(code)
        except CodeRefused as error:
            return _refused(request, code, _counted(request, error))
        return view(request, code, opened)

    return wrapped


@never_cache
@require_safe
@by_code
def sheet_page(request, code, opened: Opened):
    sheet = opened.sheet
    if code != sheet.code:
        return redirect("table:sheet", sheet.code)  # typed with capitals or a dash
    seen(sheet)
    context = phone_context(sheet)
    context["code"] = formatted(sheet.code)
    context["texts"] = phone_texts()
    size = context["view"].size
    # The rules as the phone's script needs them, from the engine, once with the page (they do
    # not change with the sheet): what needs a call (issue 28, item 4) and the point values
    # that score the games waiting to be sent (item 15).
    rules = context["tournament"].rules
    context["phone_rules"] = {"need": approval_needs(rules, size), "points": point_values(rules, size)}
    return render(request, "table/sheet.html", context)


@never_cache
@require_safe
@by_code
def sheet_part(request, code, opened: Opened):
    """The phone asks every few seconds whether its sheet changed: 204 when not."""
    seen(opened.sheet)
    if request.GET.get("seen") == current_etag(opened):
        return HttpResponse(status=204)
    context = phone_context(opened.sheet)
    return JsonResponse({"html": _sheet_html(request, context), "state": context["state"]})


@csrf_exempt  # the code in the address is the credential, not a cookie
@never_cache
@require_POST
def send(request, code):
    """One write from the phone (a game, a change, a call, a signature), as JSON with its key."""
    throttled = _throttled(request, code)
    if throttled is not None:
        return throttled
    if len(request.body) > MAX_BODY:
        return JsonResponse({"ok": False, "message": _("The entry is too large.")}, status=413)
    try:
        payload = parse_json(request.body)
    except JSONTextError as error:
        return JsonResponse({"ok": False, "message": str(error)}, status=400)
    if not isinstance(payload, dict) or not isinstance(payload.get("data", {}), dict):
        return JsonResponse({"ok": False, "message": _("The entry could not be read.")}, status=400)
    try:
        action = str(payload.get("action", ""))
        sent = table.send(code, payload.get("key"), action, payload.get("data", {}))
    except CodeRefused as error:
        return _refused(request, code, _counted(request, error))
    except ServiceError as error:
        return JsonResponse({"ok": False, "message": str(error.message)}, status=400)
    sheet = sent.opened.sheet
    seen(sheet)
    answer = sent.answer
    context = phone_context(sheet, sent.known, sent.opened.facts)  # the sheet as the write left it
    sheet = context["sheet"]
    if sheet.status == Scoresheet.Status.SIGNED:
        locked = locked_context(sheet)
        answer["html"] = render_to_string("table/_locked.html", locked, request=request)
        answer["state"] = {"status": sheet.status, "version": sheet.version}
    else:
        answer["html"] = _sheet_html(request, context)
        answer["state"] = context["state"]
    return JsonResponse(answer)


@require_safe
def service_worker(request):
    """Keeps the table's page and its scripts for a reload without a connection (where the
    browser allows service workers: HTTPS, or the server's own machine)."""
    response = render(
        request, "table/sw.js", {"static_prefix": settings.STATIC_URL}, content_type="text/javascript"
    )
    response["Service-Worker-Allowed"] = "/tisch/"
    response["Cache-Control"] = "no-cache"
    return response
