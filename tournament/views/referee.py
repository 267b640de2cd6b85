"""The referee's pages: the table board of a match, the scoresheet, the hand checker."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from scoring import Contract, Suit
from scoring.approvals import soloist_games_before
from scoring.hands import check_hand
from scoring.notation import format_game, format_row
from scoring.scoresheet import dealer

from ..entry_text import describe_entry
from ..models import Match, Scoresheet, Table
from ..permissions import Perm, has_perm
from ..problems import problem_messages
from ..referee_forms import (
    ApprovalForm,
    BoardApprovalForm,
    DeleteForm,
    GameForm,
    HandCheckForm,
    RowForm,
    SanctionForm,
    WithdrawForm,
)
from ..services import ServiceError
from ..services import scoresheets as sheet_service
from .base import TournamentMixin


class BoardView(TournamentMixin, TemplateView):
    """Every table of a match with its state, filterable; a table number opens its sheet."""

    template_name = "referee/board.html"
    STATES = ("empty", "open", "problem", "complete", "void")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        match = get_object_or_404(Match, tournament=self.tournament, number=kwargs["match"])
        games = self.tournament.rules.games_per_match
        sheets = (
            Scoresheet.objects.filter(match=match)
            .select_related("table")
            .annotate(entered=Count("entries"), highest=Max("entries__number"))
            .order_by("table__number")
        )
        rows = []
        for sheet in sheets:
            if sheet.status == Scoresheet.Status.VOID:
                state = "void"
            elif sheet.status == Scoresheet.Status.COMPLETE:
                state = "complete"
            elif not sheet.entered:
                state = "empty"
            elif sheet.highest != sheet.entered:
                state = "problem"  # a gap in the game numbers
            else:
                state = "open"
            rows.append((sheet, state))
        wanted = self.request.GET.get("state", "")
        counts = {state: sum(1 for _s, st in rows if st == state) for state in self.STATES}
        if wanted in self.STATES:
            rows = [row for row in rows if row[1] == wanted]
        context.update(
            match=match,
            rows=rows,
            games=games,
            wanted=wanted,
            counts=counts,
            matches=self.tournament.matches.filter(drawn_at__isnull=False),
            can_approve=has_perm(self.request.user, self.tournament, Perm.APPROVE),
            approval_form=kwargs.get("approval_form") or BoardApprovalForm(),
        )
        return context

    def post(self, request, *args, **kwargs):
        """The supervisor approves a game called in from a table (5.2.14, 5.2.16)."""
        if not has_perm(request.user, self.tournament, Perm.APPROVE):
            raise PermissionDenied
        form = BoardApprovalForm(request.POST)
        if form.is_valid():
            sheet = (
                Scoresheet.objects.filter(
                    match__tournament=self.tournament,
                    match__number=kwargs["match"],
                    table__number=form.cleaned_data["table"],
                )
                .select_related("match__tournament", "table")
                .first()
            )
            if sheet is None:
                form.add_error(
                    "table",
                    _("There is no table %(table)s in this match.") % {"table": form.cleaned_data["table"]},
                )
            else:
                try:
                    approval = sheet_service.approve(
                        request.user,
                        sheet,
                        form.cleaned_data["number"],
                        form.cleaned_data["contract"],
                        form.cards(),
                        form.cleaned_data.get("suit") or None,
                    )
                except ServiceError as error:
                    form.add_error(None, error.message)
                else:
                    messages.success(
                        request,
                        _("Table %(table)s, game %(game)s: %(contract)s approved.")
                        % {
                            "table": sheet.table.number,
                            "game": approval.number,
                            "contract": approval.get_contract_display(),
                        },
                    )
                    for problem in (approval.hand_check or {}).get("problems", []):
                        messages.warning(request, problem)
                    return redirect("referee:board", self.tournament.slug, kwargs["match"])
        return self.render_to_response(self.get_context_data(approval_form=form, **kwargs))

    def get(self, request, *args, **kwargs):
        table = request.GET.get("table", "").strip()
        if table:
            if (
                table.isdigit()
                and Table.objects.filter(
                    match__tournament=self.tournament,
                    match__number=kwargs["match"],
                    number=int(table),
                ).exists()
            ):
                return redirect("referee:sheet", self.tournament.slug, kwargs["match"], int(table))
            messages.error(request, _("There is no table %(table)s in this match.") % {"table": table})
        return super().get(request, *args, **kwargs)


def _seat_names(sheet: Scoresheet) -> list[dict]:
    match_number = sheet.match.number
    seats = []
    for seat in sheet.table.seats.select_related("participant").prefetch_related(
        "participant__substitutions"
    ):
        participant = seat.participant
        substitutions = [
            s for s in participant.substitutions.all() if s.from_match == match_number and s.from_game > 1
        ]
        seats.append(
            {
                "position": seat.position,
                "number": participant.number,
                "name": participant.player_name(match_number, 1),
                "later": [(s.from_game, s.name) for s in substitutions],
            }
        )
    return seats


class ScoresheetView(TournamentMixin, TemplateView):
    template_name = "referee/scoresheet.html"
    partial_name = "referee/_sheet.html"

    def load(self) -> Scoresheet:
        match = get_object_or_404(Match, tournament=self.tournament, number=self.kwargs["match"])
        table = get_object_or_404(Table, match=match, number=self.kwargs["table"])
        return get_object_or_404(Scoresheet.objects.select_related("match__tournament", "table"), table=table)

    # Display

    def sheet_context(self, sheet: Scoresheet, forms_in_use: dict | None = None) -> dict:
        rules = self.tournament.rules
        entries = {e.number: e for e in sheet.entries.all()}
        scored = sheet_service.score(sheet, list(entries.values()))
        approvals = {a.number: a for a in sheet.approvals.all()}
        rows, by_round = [], {r.number: r for r in scored.rounds}
        for number in range(1, rules.games_per_match + 1):
            entry = entries.get(number)
            row = scored.row(number)
            rows.append(
                {
                    "number": number,
                    "dealer": dealer(number),
                    "entry": entry,
                    "text": describe_entry(entry) if entry else "",
                    "points": row.scored.points if row else None,
                    "circled": row.scored.soloist if row and not row.scored.struck else None,
                    "running": row.running if row else None,
                    "approval": approvals.get(number),
                }
            )
            if number % 4 == 0:
                total = by_round.get(number // 4)
                rows.append({"round": number // 4, "total": total})
        next_number = scored.missing[0] if scored.missing else None
        edit = self.edit_number()
        forms_in_use = forms_in_use or {}
        game_form = forms_in_use.get("game") or self.initial_game_form(sheet, entries, edit, next_number)
        row_form = forms_in_use.get("row") or self.initial_row_form(sheet, entries, edit, next_number)
        sanction_form = forms_in_use.get("sanction") or self.initial_sanction_form(
            sheet, entries, edit, next_number
        )
        soloist_count = soloist_games_before(rules.games_per_match + 1, [r.scored for r in scored.rows])
        user = self.request.user
        return {
            "sheet": sheet,
            "rules": rules,
            "seats": _seat_names(sheet),
            "rows": rows,
            "scored": scored,
            "problems": problem_messages(scored.problems),
            "next_number": next_number,
            "edit": edit,
            "game_form": game_form,
            "row_form": row_form,
            "sanction_form": sanction_form,
            "approval_form": forms_in_use.get("approval") or ApprovalForm(initial={"number": next_number}),
            "soloist_count": soloist_count,
            "approval_from_now": soloist_count >= rules.solo_approval_from - 1,
            "history": sheet.history.select_related("user")[:12],
            "can_enter": has_perm(user, self.tournament, Perm.ENTER_RESULTS),
            "can_approve": has_perm(user, self.tournament, Perm.APPROVE),
            "can_sanction": has_perm(user, self.tournament, Perm.SANCTION),
            "mode": self.request.GET.get("mode") or forms_in_use.get("mode", "game"),
        }

    def edit_number(self) -> int | None:
        value = self.request.GET.get("edit") or self.request.POST.get("edit_number")
        return int(value) if value and value.isdigit() else None

    def initial_game_form(self, sheet, entries, edit, next_number) -> GameForm:
        entry = entries.get(edit) if edit else None
        initial = {"number": next_number, "version": sheet.version}
        if entry is not None and entry.kind == "game":
            engine = sheet_service.to_engine(entry, {}, self.tournament.rules)
            initial.update(number=edit, notation=format_game(engine), replace=True)
        return GameForm(initial=initial, auto_id="game_%s")

    def initial_row_form(self, sheet, entries, edit, next_number) -> RowForm:
        entry = entries.get(edit) if edit else None
        initial = {"number": next_number, "version": sheet.version}
        if entry is not None:
            initial.update(number=edit, replace=True)
            if entry.kind == "transcribed":
                engine = sheet_service.to_engine(entry, {}, self.tournament.rules)
                initial["row"] = format_row(engine)
            else:
                initial["row"] = " ".join(str(p) for p in entry.points)
        return RowForm(initial=initial, auto_id="row_%s")

    def initial_sanction_form(self, sheet, entries, edit, next_number) -> SanctionForm:
        entry = entries.get(edit) if edit else None
        initial = {"number": next_number, "version": sheet.version}
        if entry is not None:
            initial.update(number=edit, replace=True)
            if entry.kind == "sanction":
                initial.update(
                    contract=entry.contract,
                    declarer=entry.declarer,
                    partner=entry.partner,
                    liable=entry.liable,
                )
        return SanctionForm(initial=initial, auto_id="sanction_%s")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.sheet_context(self.load()))
        return context

    # Writing

    def post(self, request, *args, **kwargs):
        sheet = self.load()
        handlers = {
            "game": (GameForm, self.save_game),
            "row": (RowForm, self.save_game),
            "sanction": (SanctionForm, self.save_game),
            "delete": (DeleteForm, self.delete),
            "approve": (ApprovalForm, self.approve),
            "withdraw": (WithdrawForm, self.withdraw),
        }
        action = request.POST.get("action", "")
        if action not in handlers:
            return HttpResponseBadRequest(_("Unknown action."))
        form_class, handler = handlers[action]
        form = form_class(request.POST, auto_id=f"{action}_%s")
        if not form.is_valid() and any(
            form.fields[name].widget.is_hidden for name in form.errors if name in form.fields
        ):
            # Hidden fields are the page's own: a wrong one is a malformed or forged request.
            return HttpResponseBadRequest(_("The request is incomplete: please reload the page."))
        forms_in_use = {}
        try:
            if not form.is_valid():
                raise forms.ValidationError(self.form_errors(form))
            handler(sheet, form)
        except forms.ValidationError as error:
            for text in error.messages:
                messages.error(request, text)
            forms_in_use = {action: form, "mode": action if action in ("row", "sanction") else "game"}
        except PermissionDenied:
            raise
        except ServiceError as error:
            messages.error(request, error.message)
            for detail in error.details:
                messages.error(request, detail)
            forms_in_use = {action: form, "mode": action if action in ("row", "sanction") else "game"}
        if request.htmx:
            context = {
                "tournament": self.tournament,
                **self.sheet_context(
                    Scoresheet.objects.select_related("match__tournament", "table").get(pk=sheet.pk),
                    self.rebound(forms_in_use, sheet),
                ),
            }
            return render(request, self.partial_name, context)
        if forms_in_use:
            context = self.get_context_data(**kwargs)
            context.update(self.sheet_context(sheet, self.rebound(forms_in_use, sheet)))
            return self.render_to_response(context)
        return redirect(
            reverse("referee:sheet", args=[self.tournament.slug, kwargs["match"], kwargs["table"]])
        )

    def rebound(self, forms_in_use: dict, sheet: Scoresheet) -> dict:
        """A refused form is shown again as typed, with the sheet's current version."""
        rebound = {}
        for key, form in forms_in_use.items():
            if key == "mode" or not hasattr(form, "data"):
                rebound[key] = form
                continue
            data = form.data.copy()
            data["version"] = Scoresheet.objects.get(pk=sheet.pk).version
            rebound[key] = type(form)(data, auto_id=f"{key}_%s")
        return rebound

    @staticmethod
    def form_errors(form) -> list[str]:
        texts = []
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            texts += [f"{label}: {error}" if label else str(error) for error in errors]
        return texts

    def save_game(self, sheet, form):
        entry = form.entry()
        replace = form.cleaned_data.get("replace", False)
        saved = sheet_service.save_entry(
            self.request.user, sheet, entry, form.cleaned_data["version"], replace=replace
        )
        text = _("Game %(game)s: %(entry)s (%(points)s).") % {
            "game": saved.number,
            "entry": describe_entry(saved),
            "points": " / ".join(f"{p:+d}" for p in saved.points),
        }
        if saved.struck:
            text += " " + _("Struck: it needed the supervisor's approval (5.2.17).")
        if saved.downgraded:
            text += " " + _("Scored as a plain Solo/Wenz in the first game (5.2.15).")
        messages.success(self.request, text)

    def delete(self, sheet, form):
        sheet_service.delete_entry(
            self.request.user, sheet, form.cleaned_data["number"], form.cleaned_data["version"]
        )
        messages.success(
            self.request,
            _("Game %(game)s was deleted; the history keeps it.") % {"game": form.cleaned_data["number"]},
        )

    def approve(self, sheet, form):
        approval = sheet_service.approve(
            self.request.user,
            sheet,
            form.cleaned_data["number"],
            form.cleaned_data["contract"],
            form.cards(),
            form.cleaned_data.get("suit") or None,
        )
        text = _("Game %(game)s: %(contract)s approved.") % {
            "game": approval.number,
            "contract": approval.get_contract_display(),
        }
        messages.success(self.request, text)
        for problem in (approval.hand_check or {}).get("problems", []):
            messages.warning(self.request, problem)

    def withdraw(self, sheet, form):
        sheet_service.withdraw_approval(self.request.user, sheet, form.cleaned_data["number"])
        messages.success(
            self.request, _("Game %(game)s: approval withdrawn.") % {"game": form.cleaned_data["number"]}
        )


class HandCheckView(TournamentMixin, FormView):
    """The supervisor's hand checker (2.5.1, 2.9, 4.2.2, 5.2.14): advice, the supervisor decides."""

    template_name = "referee/handcheck.html"
    form_class = HandCheckForm
    permission = Perm.APPROVE

    def form_valid(self, form):
        data = form.cleaned_data
        suit = Suit(data["suit"]) if data.get("suit") else None
        result = check_hand(data["hand"].replace(",", " ").split(), Contract(data["contract"]), suit)
        return self.render_to_response(
            self.get_context_data(form=form, result=result, result_problems=problem_messages(result.problems))
        )
