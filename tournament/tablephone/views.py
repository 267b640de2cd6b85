"""The table's pages on the players' phones, opened by the table code (no log-in), and the
supervisor's queue of calls for approval."""

from __future__ import annotations

import functools
import hashlib
import json

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe
from django.views.generic import TemplateView, View

from scoring.approvals import soloist_games_before
from scoring.scoresheet import dealer

from ..draw.models import Match
from ..errors import ServiceError
from ..hall import phone_address
from ..jsontext import JSONTextError, parse_json
from ..names import surname
from ..prepared import Prepared
from ..problems import problem_messages
from ..results.models import Scoresheet
from ..results.rows import sheet_rows
from ..results.sheet import Known, absent_rows, read_sheet, sheet_view
from ..results.text import describe_entry
from ..tournaments.access import PartialMixin, TournamentMixin
from ..tournaments.permissions import Perm
from . import services
from .models import ApprovalCall

MAX_BODY = 400_000  # a signature is the largest thing a phone sends


def table_url(sheet: Scoresheet, request=None) -> str:
    """The address the table code opens."""
    return phone_address(reverse("table:sheet", args=[sheet.code]), request)


def _refused(request, code: str, error: services.CodeRefused):
    """Why the code opens nothing, as the page or the JSON asked for. A signed sheet's players
    see their totals (every phone at the table, also one that did not sign); the page lists the
    games this phone could not send with the code (kept in its storage under it)."""
    locked = None
    if error.sheet is not None:  # signed: the code's work is done
        locked = {"sheet": error.sheet, "final": signed_totals(error.sheet)}
    if request.headers.get("Accept", "").startswith("application/json"):
        answer = {"ok": False, "gone": True, "message": error.message}
        if locked is not None:
            answer["html"] = render_to_string("table/_locked.html", locked, request=request)
            answer["state"] = {"status": error.sheet.status, "version": error.sheet.version}
        return JsonResponse(answer, status=error.status)
    context = {"code": services.normalized(code), "texts": leftover_texts()}
    if locked is not None:
        return render(request, "table/locked.html", {**context, **locked, "page": True}, status=error.status)
    return render(request, "table/refused.html", {**context, "message": error.message}, status=error.status)


def leftover_texts() -> dict:
    return {
        "title": _("Not stored with this code (show them to the referee, or enter them again):"),
        "dismiss": _("Remove the list from this phone"),
    }


def signed_totals(sheet: Scoresheet) -> list[tuple[int, str, int]]:
    """(seat, name, total) of a signed sheet, as its players signed it."""
    view = sheet_view(sheet)
    return [(seat.position, seat.name, total) for seat, total in zip(view.seats, view.totals, strict=True)]


def phone_context(sheet: Scoresheet, known: Known | None = None) -> dict:
    """The table's sheet as the phone shows it: the desk's view of it (same engine, same
    messages), with names instead of seat numbers; the sheet read afresh (``context["sheet"]``)
    or, after a write, as the write ``known`` left it."""
    read = read_sheet(sheet.pk, known)
    sheet = read.sheet
    tournament = sheet.match.tournament
    rules = tournament.rules
    view = read.view(rules)
    scored = view.score
    names = {seat.position: seat.name for seat in view.seats}
    next_number = scored.missing[0] if scored.missing else None
    size = view.size  # four seats, or five where the dealer sits out
    soloists = soloist_games_before(rules.games_for(size) + 1, [r.scored for r in scored.rows])
    calls = [] if known is not None and "calls" in absent_rows(sheet) else _CALLS(sheet.pk)
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
    rows = sheet_rows(view, next_number, names=names, played_only=True)
    signatures = {s.position: s for s in read.signatures}
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
        "seats": [{"position": s.position, "name": s.name} for s in view.seats],
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
    state["etag"] = etag_of(sheet.version, [(c.pk, c.status) for c in calls], sheet.table.scorekeeper)
    return {
        "sheet": sheet,
        "tournament": tournament,
        "view": view,
        "rows": rows,
        "scored": scored,
        "names": names,
        "problems": problem_messages(scored.problems),
        "next_number": next_number,
        "calls": shown_calls,
        "overdue_after": services.OVERDUE,
        "signatures": signatures,
        "scorekeeper": names.get(sheet.table.scorekeeper, ""),
        "state": state,
        "approval_from_now": soloists >= rules.solo_approval_from - 1,
        "headers": [(seat, surname(seat.name)) for seat in view.seats],
        "final": [
            (seat, total, seat.position in signatures)
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
    }


def etag_of(version: int, calls: list, scorekeeper: int) -> str:
    """What tells the phone whether its sheet changed: the version, the calls' answers, the
    scorekeeper."""
    text = json.dumps([version, calls, scorekeeper])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# The phone's poll and every answer read the sheet's calls: compiled once (tournament.prepared).
_CALLS = Prepared(
    lambda sheet: ApprovalCall.objects.filter(scoresheet_id=sheet).order_by("-created", "-id")[:20], int
)
_CALL_STATES = Prepared(
    lambda sheet: (
        ApprovalCall.objects.filter(scoresheet_id=sheet)
        .order_by("-created", "-id")
        .values_list("pk", "status")[:20]
    ),
    int,
)


def current_etag(sheet: Scoresheet) -> str:
    calls = [] if sheet.__dict__.get("any_calls") is False else _CALL_STATES(sheet.pk)
    return etag_of(sheet.version, [list(c) for c in calls], sheet.table.scorekeeper)


def _sheet_html(request, context: dict) -> str:
    return render_to_string("table/_sheet.html", context, request=request)


@require_safe
def enter_code(request):
    """The page for typing a table code by hand (when the QR code cannot be scanned)."""
    code = request.GET.get("code", "")
    if code:
        try:
            sheet = services.sheet_for_code(code)
        except services.CodeRefused as error:
            return render(request, "table/code.html", {"error": error.message, "code": code}, status=200)
        return redirect("table:sheet", sheet.code)
    return render(request, "table/code.html", {"code": ""})


def by_code(view):
    """A view of the table's phone: the sheet the code in the address opens, or the page (or
    JSON) saying why the code opens nothing."""

    @functools.wraps(view)
    def wrapped(request, code):
        try:
            sheet = services.sheet_for_code(code)
        except services.CodeRefused as error:
            return _refused(request, code, error)
        return view(request, code, sheet)

    return wrapped


@never_cache
@require_safe
@by_code
def sheet_page(request, code, sheet):
    if code != sheet.code:
        return redirect("table:sheet", sheet.code)  # typed with capitals or a dash
    services.seen(sheet)
    context = phone_context(sheet)
    context["code"] = services.formatted(sheet.code)
    context["texts"] = phone_texts()
    return render(request, "table/sheet.html", context)


@never_cache
@require_safe
@by_code
def sheet_part(request, code, sheet):
    """The phone asks every few seconds whether its sheet changed: 204 when not."""
    services.seen(sheet)
    if request.GET.get("seen") == current_etag(sheet):
        return HttpResponse(status=204)
    context = phone_context(sheet)
    return JsonResponse({"html": _sheet_html(request, context), "state": context["state"]})


@csrf_exempt  # the code in the address is the credential, not a cookie
@never_cache
@require_POST
def send(request, code):
    """One write from the phone (a game, a change, a call, a signature), as JSON with its key."""
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
        sent = services.send(code, payload.get("key"), action, payload.get("data", {}))
    except services.CodeRefused as error:
        return _refused(request, code, error)
    except ServiceError as error:
        return JsonResponse({"ok": False, "message": str(error.message)}, status=400)
    sheet = sent.sheet
    services.seen(sheet)
    answer = sent.answer
    context = phone_context(sheet, sent.known)  # the sheet as the write left it
    sheet = context["sheet"]
    if sheet.status == Scoresheet.Status.SIGNED:
        locked = {"sheet": sheet, "final": signed_totals(sheet)}
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


# The supervisor's side


class CallsView(PartialMixin, TournamentMixin, TemplateView):
    """The calls for approval from every table, newest waiting first: on the board and on the
    supervisor's phone."""

    template_name = "referee/calls.html"
    partial_name = "referee/_calls.html"

    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(calls_context(self.tournament, self.request.GET.get("match")))
        context["can_approve"] = self.can(Perm.APPROVE)
        return context


class AnswerCallView(TournamentMixin, View):
    """The supervisor's one tap on a call: approve or refuse (``answer``), with a reason."""

    permission = Perm.APPROVE
    http_method_names = ["post"]
    partial_name = "referee/_calls.html"

    def post(self, request, *args, **kwargs):
        call = get_object_or_404(
            ApprovalCall.objects.select_related("scoresheet__match__tournament", "scoresheet__table"),
            pk=kwargs["call"],
            scoresheet__match__tournament=self.tournament,
        )
        approve = request.POST.get("answer") == "approve"
        values = {
            "table": call.scoresheet.table.number,
            "game": call.number,
            "contract": call.get_contract_display(),
        }
        answered, warnings = None, []
        try:
            answered = services.answer_call(request.user, call, approve, request.POST.get("reason", ""))
        except ServiceError as error:
            text, level = error.message, messages.ERROR
        else:
            text = (
                _("Table %(table)s, game %(game)s: %(contract)s approved.")
                if approve
                else _("Table %(table)s, game %(game)s: %(contract)s refused.")
            ) % values
            level = messages.SUCCESS
            if answered.status == ApprovalCall.Status.WITHDRAWN:
                entered = answered.scoresheet.entries.get(number=answered.number)
                text = _(
                    "Table %(table)s, game %(game)s is already entered (%(entry)s): the call is "
                    "closed. An approval for it is given on the scoresheet."
                ) % {**values, "entry": describe_entry(entered)}
                level = messages.ERROR
            approval = answered.scoresheet.approvals.filter(number=answered.number).first()
            if approve and approval is not None:
                warnings = (approval.hand_check or {}).get("problems", [])
        match = request.POST.get("match", "")
        if request.htmx:
            context = {
                "tournament": self.tournament,
                "can_approve": True,
                "answer_text": text,
                "answer_level": "error" if level == messages.ERROR else "success",
                "answer_warnings": warnings,
                **calls_context(self.tournament, match),
            }
            return render(request, self.partial_name, context)
        messages.add_message(request, level, text)
        for warning in warnings:
            messages.warning(request, warning)
        url = reverse("referee:calls", args=[self.tournament.slug])
        return redirect(self.safe_next(f"{url}?match={match}" if match.isdigit() else url))


def calls_context(tournament, match: str | None = None) -> dict:
    calls = ApprovalCall.objects.filter(
        scoresheet__match__tournament=tournament, scoresheet__match__discarded_at__isnull=True
    ).select_related("scoresheet__table", "scoresheet__match")
    if match and str(match).isdigit():
        calls = calls.filter(scoresheet__match__number=int(match))
    waiting = list(calls.filter(status=ApprovalCall.Status.WAITING).order_by("created"))
    answered = list(
        calls.exclude(status=ApprovalCall.Status.WAITING)
        .exclude(status=ApprovalCall.Status.WITHDRAWN)
        .order_by("-answered")[:10]
    )
    now = timezone.now()
    seats = {}
    for call in waiting:
        seats[call.pk] = (
            call.scoresheet.table.seats.select_related("participant").filter(position=call.declarer).first()
        )
    return {
        "waiting": [(call, now - call.created > services.OVERDUE, seats.get(call.pk)) for call in waiting],
        "answered": answered,
        "match_filter": match if match and str(match).isdigit() else "",
    }


class RenewView(TournamentMixin, View):
    """The board's button: a new code for the table; the old one stops working."""

    permission = Perm.ENTER_RESULTS
    http_method_names = ["post"]

    def post(self, request, slug, match, table):
        match_obj = get_object_or_404(Match, tournament=self.tournament, number=match)
        sheet = get_object_or_404(Scoresheet, match=match_obj, table__number=table)
        code = services.renew_code(request.user, sheet)
        messages.success(
            request,
            _(
                "Table %(table)s has a new code: %(code)s. The old code no longer works; "
                "print the table card again."
            )
            % {"table": table, "code": services.formatted(code)},
        )
        return redirect(reverse("referee:board", args=[slug, match]) + f"#table-{table}")
