"""The supervisor's pages of the table phones: the queue of calls for approval (on the board and
on the supervisor's phone), the one-tap answer, and the board's button renewing a table's code."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from ..draw.models import Match
from ..errors import ServiceError
from ..results import services as sheet_service
from ..results.models import Scoresheet
from ..results.text import describe_entry
from ..tournaments.access import PartialMixin, TournamentMixin
from ..tournaments.permissions import Perm
from .codes import formatted
from .models import ApprovalCall
from .supervisor import Answered, answer_call, calls_context, renew_code


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


def answered_texts(answered: Answered, approve: bool, values: dict) -> tuple[str, int, list[str]]:
    """What the supervisor is told of a call answered: the answer, its level, and the warnings
    (signatures withdrawn, the hand check's problems)."""
    if answered.entered is not None:
        text = _(
            "Table %(table)s, game %(game)s is already entered (%(entry)s): the call is "
            "closed. An approval for it is given on the scoresheet."
        ) % {**values, "entry": describe_entry(answered.entered)}
        return text, messages.ERROR, []
    text = (
        _("Table %(table)s, game %(game)s: %(contract)s approved.")
        if approve
        else _("Table %(table)s, game %(game)s: %(contract)s refused.")
    ) % values
    text = " ".join([text, *answered.effects])  # every other game the approval changed (issue 26)
    warnings = [sheet_service.withdrawn_text(answered.withdrawn)] if answered.withdrawn else []
    return text, messages.SUCCESS, warnings + answered.warnings


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
        try:
            answered = answer_call(request.user, call, approve, request.POST.get("reason", ""))
        except ServiceError as error:
            text, level, warnings = error.message, messages.ERROR, []
        else:
            text, level, warnings = answered_texts(answered, approve, values)
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


class RenewView(TournamentMixin, View):
    """The board's button: a new code for the table; the old one stops working."""

    permission = Perm.ENTER_RESULTS
    http_method_names = ["post"]

    def post(self, request, slug, match, table):
        match_obj = get_object_or_404(Match, tournament=self.tournament, number=match)
        sheet = get_object_or_404(Scoresheet, match=match_obj, table__number=table)
        code = renew_code(request.user, sheet)
        messages.success(
            request,
            _(
                "Table %(table)s has a new code: %(code)s. The old code no longer works; "
                "print the table card again."
            )
            % {"table": table, "code": formatted(code)},
        )
        return redirect(reverse("referee:board", args=[slug, match]) + f"#table-{table}")
