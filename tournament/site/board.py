"""The referee's table board of a match: every table with its sheet's state and its phone (silent
for minutes, calls for approval waiting), the supervisor's approvals of called-in games."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, OuterRef, Subquery
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from ..draw import redraw
from ..draw.models import Match
from ..errors import ServiceError
from ..results.forms import BoardApprovalForm
from ..results.models import Scoresheet
from ..results.verify import findings
from ..results.views import ApprovalMessages, as_number, sheet_of
from ..tablephone.codes import OFFLINE
from ..tablephone.models import ApprovalCall
from ..tablephone.supervisor import calls_context
from ..tournaments.access import TournamentMixin
from ..tournaments.permissions import Perm


class BoardView(ApprovalMessages, TournamentMixin, TemplateView):
    """Every table of a match with its state, filterable; a table number opens its sheet."""

    template_name = "referee/board.html"
    STATES = ("empty", "open", "problem", "complete", "signed", "void")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        match = get_object_or_404(Match, tournament=self.tournament, number=kwargs["match"])
        waiting_calls = (
            ApprovalCall.objects.filter(scoresheet=OuterRef("pk"), status=ApprovalCall.Status.WAITING)
            .values("scoresheet")
            .annotate(n=Count("pk"))
            .values("n")
        )
        sheets = (
            Scoresheet.objects.filter(match=match)
            .select_related("table")
            .annotate(
                entered=Count("entries"),
                highest=Max("entries__number"),
                last_activity=Max("entries__updated"),
                state_calls=Subquery(waiting_calls),
            )
            .order_by("table__number")
        )
        rows = [(sheet, self.state(sheet)) for sheet in sheets]
        offline_since = timezone.now() - OFFLINE
        rules = self.tournament.rules
        for sheet, state in rows:  # the table's phone silent for minutes while the sheet is open
            sheet.games = rules.games_for(sheet.table.size)  # 40 at a table of five
            sheet.phone_offline = bool(
                sheet.phone_seen and sheet.phone_seen < offline_since and state not in ("signed", "void")
            )
        # Signed sheets are checked against their digest on every look at the board (issue 13).
        failed = {(f.table) for f in findings(sheet for sheet, _state in rows if sheet.digest)}
        wanted = self.request.GET.get("state", "")
        counts = {state: sum(1 for _sheet, st in rows if st == state) for state in self.STATES}
        if wanted in self.STATES:
            rows = [row for row in rows if row[1] == wanted]
        context.update(
            match=match,
            rows=[(sheet, state, sheet.table.number in failed) for sheet, state in rows],
            wanted=wanted,
            counts=counts,
            matches=self.tournament.matches.filter(drawn_at__isnull=False),
            can_approve=self.can(Perm.APPROVE),
            approval_form=kwargs.get("approval_form") or BoardApprovalForm(),
            **calls_context(self.tournament, str(match.number)),
            redraw_request=redraw.open_requests(self.tournament).get(match.number),
            # Drawn again and nothing entered yet: the new table cards are to be printed (issue 28).
            drawn_again=None if counts["empty"] < sum(counts.values()) else redraw.drawn_again(match),
            discarded=Match.all_draws.filter(
                tournament=self.tournament, number=match.number, discarded_at__isnull=False
            ).prefetch_related("scoresheets__table"),
        )
        return context

    @staticmethod
    def state(sheet: Scoresheet) -> str:
        if sheet.status in (Scoresheet.Status.VOID, Scoresheet.Status.COMPLETE, Scoresheet.Status.SIGNED):
            return sheet.status
        if not sheet.entered:
            return "empty"
        return "problem" if sheet.highest != sheet.entered else "open"  # a gap in the games

    def get(self, request, *args, **kwargs):
        typed = request.GET.get("table", "")
        if typed.strip():
            number = as_number(typed)
            if number is not None and sheet_of(self.tournament, kwargs["match"], number):
                return redirect("referee:sheet", self.tournament.slug, kwargs["match"], number)
            messages.error(
                request, _("There is no table %(table)s in this match.") % {"table": typed.strip()}
            )
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        """The supervisor approves a game called in from a table (5.2.14, 5.2.16)."""
        if not self.can(Perm.APPROVE):
            raise PermissionDenied
        form = BoardApprovalForm(request.POST)
        if form.is_valid():
            sheet = sheet_of(self.tournament, kwargs["match"], form.cleaned_data["table"])
            if sheet is None:
                form.add_error(
                    "table",
                    _("There is no table %(table)s in this match.") % {"table": form.cleaned_data["table"]},
                )
            else:
                try:
                    self.approve(sheet, form, with_table=True)
                except ServiceError as error:
                    form.add_error(None, error.message)
                else:
                    return redirect("referee:board", self.tournament.slug, kwargs["match"])
        return self.render_to_response(self.get_context_data(approval_form=form, **kwargs))
