"""The referee's pages: the scoresheet, the hand checker. The table board of a match, which shows
the phones' calls too, is tournament/site's (site/board.py)."""

from __future__ import annotations

import re
from pathlib import PurePath

from django import forms
from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from scoring import Contract, Suit
from scoring.approvals import soloist_games_before
from scoring.hands import check_hand
from scoring.notation import format_game, format_row

from ..errors import ServiceError
from ..problems import problem_messages
from ..sealkey import public_key
from ..tournaments.access import PartialMixin, TournamentMixin
from ..tournaments.permissions import Perm
from . import services as sheet_service
from . import signing
from .forms import (
    ApprovalForm,
    CorrectionForm,
    DeleteForm,
    GameForm,
    HandCheckForm,
    PaperForm,
    RowForm,
    SanctionForm,
    SheetForm,
    SignForm,
    VoidForm,
    WithdrawForm,
)
from .history import log_change
from .load import load_sheets
from .models import GameEntry, Scoresheet
from .rows import sheet_rows
from .text import saved_text
from .verify import check
from .writing import Written, carry_out


def sheet_of(tournament, match: int, table: int, draw: int | None = None) -> Scoresheet | None:
    """The scoresheet of a table in a match, looked up through the tournament: of the current
    draw, or of an earlier draw the match was drawn again over (``draw``)."""
    found = Scoresheet.objects.filter(match__tournament=tournament, match__number=match, table__number=table)
    if draw is None:
        found = found.filter(match__discarded_at__isnull=True)
    else:
        found = found.filter(match__draw=draw, match__discarded_at__isnull=False)
    return found.select_related("match__tournament", "table").first()


def as_number(text: str) -> int | None:
    """A whole number typed by a person, or None: only the digits 0-9 count."""
    text = text.strip()
    return int(text) if text and text.isascii() and text.isdigit() else None


def told(request, message: str, written: Written) -> None:
    """The desk's answer to a write: its own message with every other game it changed named
    after it (issue 26), then whose signatures it withdrew."""
    messages.success(request, " ".join([message, *written.texts]))
    if written.withdrawn:
        messages.warning(request, sheet_service.withdrawn_text(written.withdrawn))


class ApprovalMessages:
    """What the supervisor is told after an approval: the game, and any hand-check warning."""

    def approve(self, sheet: Scoresheet, form: ApprovalForm, with_table: bool = False) -> None:
        data = form.cleaned_data
        approval = sheet_service.approve(
            self.request.user,
            sheet,
            data["number"],
            data["contract"],
            form.cards(),
            data.get("suit") or None,
            expected_version=data.get("version"),
        )
        values = {
            "table": sheet.table.number,
            "game": approval.number,
            "contract": approval.get_contract_display(),
        }
        text = (
            _("Table %(table)s, game %(game)s: %(contract)s approved.")
            if with_table
            else _("Game %(game)s: %(contract)s approved.")
        )
        told(self.request, text % values, approval.written)
        for problem in (approval.hand_check or {}).get("problems", []):
            messages.warning(self.request, problem)


class ScoresheetView(ApprovalMessages, PartialMixin, TournamentMixin, TemplateView):
    template_name = "referee/scoresheet.html"
    partial_name = "referee/_sheet.html"  # a change link or cancel: the sheet part only
    seats = 4  # the sheet's columns, set where the sheet is read (sheet_context)
    FORMS = {
        "game": GameForm,
        "row": RowForm,
        "sanction": SanctionForm,
        "delete": DeleteForm,
        "approve": ApprovalForm,
        "withdraw": WithdrawForm,
        "sign": SignForm,
        "paper": PaperForm,
        "correct": CorrectionForm,
        "void": VoidForm,
    }

    def load(self) -> Scoresheet:
        sheet = sheet_of(self.tournament, self.kwargs["match"], self.kwargs["table"], self.kwargs.get("draw"))
        if sheet is None:
            raise Http404
        return sheet

    # Display

    def get_context_data(self, sheet: Scoresheet | None = None, forms_in_use=None, edit=None, **kwargs):
        context = super().get_context_data(**kwargs)
        if edit is None and forms_in_use is None:
            edit = as_number(self.request.GET.get("edit", ""))
        context.update(self.sheet_context(sheet or self.load(), forms_in_use or {}, edit))
        return context

    def sheet_context(self, sheet: Scoresheet, forms_in_use: dict, edit: int | None = None) -> dict:
        """What the sheet page shows; ``edit``: the game being changed (change mode)."""
        rules = self.tournament.rules
        (read,) = load_sheets([sheet])
        sheet = read.sheet
        self.seats = sheet.size  # the entry forms' seats: four, or five
        view = read.view(rules)
        scored = view.score
        entries = {game.number: game.entry for game in view.entered}
        next_number = scored.missing[0] if scored.missing else None
        if edit not in entries:
            edit = None
        initial = {"number": next_number, "sheet": sheet.pk, "version": sheet.version}
        soloist_count = soloist_games_before(rules.games_for(view.size) + 1, [r.scored for r in scored.rows])
        return {
            "sheet": sheet,
            "rules": rules,
            "view": view,
            "seats": view.seats,
            "scored": scored,
            "problems": problem_messages(scored.problems),
            "next_number": next_number,
            "edit": edit,
            "rows": sheet_rows(view, next_number, editing=edit),
            "game_form": forms_in_use.get("game") or self.game_form(entries.get(edit), initial),
            "row_form": forms_in_use.get("row") or self.row_form(entries.get(edit), initial),
            "sanction_form": forms_in_use.get("sanction") or self.sanction_form(entries.get(edit), initial),
            "approval_form": forms_in_use.get("approve") or ApprovalForm(initial={"number": next_number}),
            "soloist_count": soloist_count,
            "approval_from_now": soloist_count >= rules.solo_approval_from - 1,
            "history": [
                (entry, log_change(entry))
                for entry in sheet.log.select_related("scoresheet__match", "scoresheet__table")
            ],
            # 5.3.2, 5.3.6: a signed or void sheet takes no entries; a signed one only corrections
            "can_enter": self.can(Perm.ENTER_RESULTS)
            and sheet.status not in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID)
            and not sheet.match.is_discarded,
            "can_approve": self.can(Perm.APPROVE)
            and not sheet.match.is_discarded
            and sheet.status not in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID),
            "can_sanction": self.can(Perm.SANCTION),
            "can_correct": self.can(Perm.CORRECT) and not sheet.match.is_discarded,
            "signatures": {s.position: s for s in read.signatures},
            "corrections": sheet.corrections,
            "mode": forms_in_use.get("mode") or self.request.GET.get("mode", "game"),
            "sheet_url": reverse(
                "referee:sheet", args=[self.tournament.slug, sheet.match.number, sheet.table.number]
            ),
            "differences": check(read),  # what is stored against what was entered and signed
            "server_seal_key": public_key() if sheet.digest else "",  # a seal made elsewhere is named
        }

    def game_form(self, entry, initial) -> GameForm:
        if entry is not None and entry.kind == "game":
            engine = sheet_service.to_engine(entry, {}, self.tournament.rules, entry.scoresheet.size)
            initial = {**initial, "number": entry.number, "notation": format_game(engine), "replace": True}
        return GameForm(initial=initial, auto_id="game_%s", seats=self.seats)

    def row_form(self, entry, initial) -> RowForm:
        if entry is not None:
            if entry.kind == "transcribed":
                written = format_row(
                    sheet_service.to_engine(entry, {}, self.tournament.rules, entry.scoresheet.size)
                )
            else:
                written = " ".join(str(p) for p in entry.points)
            initial = {**initial, "number": entry.number, "row": written, "replace": True}
        return RowForm(initial=initial, auto_id="row_%s", seats=self.seats)

    def sanction_form(self, entry, initial) -> SanctionForm:
        if entry is not None:
            initial = {**initial, "number": entry.number, "replace": True}
            if entry.kind == "sanction":
                initial.update(
                    contract=entry.contract,
                    declarer=entry.declarer,
                    partner=entry.partner,
                    liable=entry.liable,
                )
        return SanctionForm(initial=initial, auto_id="sanction_%s", seats=self.seats)

    # Writing

    CHANGE = re.compile(r"[äa]\s*([0-9]{1,3})")  # "ä2": change game 2 from the keyboard

    def post(self, request, *args, **kwargs):
        sheet = self.load()
        action = request.POST.get("action", "")
        if action not in self.FORMS:
            return HttpResponseBadRequest(_("Unknown action."))
        change = self.CHANGE.fullmatch(request.POST.get("notation", "").strip().lower())
        if action == "game" and change:
            return self.change_mode(request, sheet, int(change.group(1)))
        extra = {"seats": sheet.size} if issubclass(self.FORMS[action], SheetForm) else {}
        form = self.FORMS[action](request.POST, request.FILES, auto_id=f"{action}_%s", **extra)
        valid = form.is_valid()
        if not valid and any(
            form.fields[name].widget.is_hidden for name in form.errors if name in form.fields
        ):
            # Hidden fields are the page's own: a wrong one is a malformed or forged request.
            return HttpResponseBadRequest(_("The request is incomplete: please reload the page."))
        refused = False
        try:
            if not valid:
                raise forms.ValidationError("")
            if form.cleaned_data.get("sheet", sheet.pk) != sheet.pk:
                raise ServiceError(
                    _(
                        "This table was drawn again after the page was loaded: "
                        "please check the players and enter again."
                    )
                )
            getattr(self, f"do_{action}")(sheet, form)
        except forms.ValidationError:
            refused = True
            self.refuse_form(form)
        except ServiceError as error:  # an unreadable notation too (results.notation)
            refused = True
            self.refuse(error)
        sheet = self.load()
        # The tab stays the one used: copying a paper list is row after row (issue 14).
        forms_in_use, edit = {"mode": action if action in ("row", "sanction") else "game"}, None
        if refused:
            # Shown again as typed; a change stays a change, a new game goes to a free number.
            rebound = self.rebound(form, sheet)
            forms_in_use = {action: rebound, "mode": action if action in ("row", "sanction") else "game"}
            if rebound.data.get("replace") in ("True", "true", "on", True):
                edit = as_number(str(rebound.data.get("number", "")))
        if request.htmx:
            context = {"tournament": self.tournament, **self.sheet_context(sheet, forms_in_use, edit)}
            response = render(request, self.partial_name, context)
            if not refused:  # back to entering the next game, also after a reload
                response["HX-Replace-Url"] = context["sheet_url"]
            return response
        if refused:
            return self.render_to_response(self.get_context_data(sheet, forms_in_use, edit, **kwargs))
        return redirect("referee:sheet", self.tournament.slug, kwargs["match"], kwargs["table"])

    def change_mode(self, request, sheet: Scoresheet, number: int):
        """The entry form for changing game ``number``, reached by typing ä and its number."""
        forms_in_use = {}
        if not sheet.entries.filter(number=number).exists():
            messages.error(
                request, _("Game %(game)s is not entered: there is nothing to change.") % {"game": number}
            )
            # What was typed stays, selected, as after any other refusal.
            forms_in_use = {"game": self.rebound(GameForm(request.POST, auto_id="game_%s"), sheet)}
            number = None
        if request.htmx:
            context = {"tournament": self.tournament, **self.sheet_context(sheet, forms_in_use, number)}
            return render(request, self.partial_name, context)
        url = reverse("referee:sheet", args=[self.tournament.slug, sheet.match.number, sheet.table.number])
        return redirect(f"{url}?edit={number}#entry" if number else f"{url}#entry")

    def rebound(self, form, sheet: Scoresheet):
        """A refused form shown again as typed, with the sheet as it is now: a new game whose
        number was taken meanwhile moves to the next free number."""
        data = form.data.copy()
        data["sheet"], data["version"] = sheet.pk, sheet.version
        number = as_number(str(data.get("number", "")))
        if number and data.get("replace") not in ("True", "true", "on") and "number" in form.fields:
            taken = set(sheet.entries.values_list("number", flat=True))
            if number in taken:
                games = self.tournament.rules.games_for(sheet.size)
                free = [n for n in range(1, games + 1) if n not in taken]
                data["number"] = free[0] if free else number
        extra = {"seats": sheet.size} if isinstance(form, SheetForm) else {}
        return type(form)(data, auto_id=form.auto_id, **extra)

    def do_game(self, sheet, form):
        replace = form.cleaned_data.get("replace", False)
        entry, version = form.entry(sheet.size), form.cleaned_data["version"]
        # The table phone's flow too: planned on the sheet as loaded, written under the lock.
        entered = carry_out(
            lambda read: sheet_service.plan_entry(self.request.user, read, entry, version, replace), sheet
        )
        told(self.request, saved_text(entered.saved), entered.written)

    do_row = do_sanction = do_game

    def do_delete(self, sheet, form):
        written = sheet_service.delete_entry(
            self.request.user, sheet, form.cleaned_data["number"], form.cleaned_data["version"]
        )
        told(
            self.request,
            _("Game %(game)s was deleted; the history keeps it.") % {"game": form.cleaned_data["number"]},
            written,
        )

    def do_approve(self, sheet, form):
        self.approve(sheet, form)

    def do_sign(self, sheet, form):
        signature = signing.sign_with_pad(
            self.request.user,
            sheet,
            form.cleaned_data["position"],
            form.cleaned_data.get("image", ""),
            expected_version=form.cleaned_data.get("version"),
        )
        messages.success(self.request, _("%(name)s has signed.") % {"name": signature.name})

    def do_paper(self, sheet, form):
        signing.record_paper_signatures(
            self.request.user,
            sheet,
            form.cleaned_data["scan"],
            expected_version=form.cleaned_data.get("version"),
        )
        messages.success(self.request, _("The signed paper list is recorded; the scoresheet is locked."))

    def do_correct(self, sheet, form):
        correction = signing.correct(
            self.request.user,
            sheet,
            form.entry(sheet.size),
            form.cleaned_data["reason"],
            expected_version=form.cleaned_data.get("version"),
        )
        told(
            self.request,
            _("Game %(game)s corrected (%(initials)s).")
            % {"game": correction.number, "initials": correction.initials},
            correction.written,
        )

    def do_void(self, sheet, form):
        signing.declare_void(
            self.request.user,
            sheet,
            form.cleaned_data["reason"],
            expected_version=form.cleaned_data.get("version"),
        )
        messages.success(self.request, _("The scoresheet is void: its games count for nothing."))

    def do_withdraw(self, sheet, form):
        written = sheet_service.withdraw_approval(
            self.request.user,
            sheet,
            form.cleaned_data["number"],
            expected_version=form.cleaned_data.get("version"),
        )
        told(
            self.request,
            _("Game %(game)s: approval withdrawn.") % {"game": form.cleaned_data["number"]},
            written,
        )


class HandCheckView(TournamentMixin, FormView):
    """The supervisor's hand checker (2.5.1, 2.9, 4.2.2, 5.2.14): advice, the supervisor decides."""

    template_name = "referee/handcheck.html"
    form_class = HandCheckForm
    permission = Perm.APPROVE

    def form_valid(self, form):
        data = form.cleaned_data
        suit = Suit(data["suit"]) if data.get("suit") else None
        result = check_hand(form.cards(), Contract(data["contract"]), suit)
        return self.render_to_response(
            self.get_context_data(
                form=form,
                result=result,
                check=sheet_service.hand_check_record(result),
                suit_names=dict(GameEntry.Suit.choices),
            )
        )


SCAN_TYPES = {
    ".jpg": "image/jpeg",
    ".png": "image/png",
    ".pdf": "application/pdf",
    ".webp": "image/webp",
    ".heic": "image/heic",
}


class ScanView(TournamentMixin, TemplateView):
    """The photo or scan of a signed paper list, for the tournament's staff only."""

    def get(self, request, *args, **kwargs):
        sheet = sheet_of(self.tournament, kwargs["match"], kwargs["table"])
        if sheet is None or not sheet.paper_scan:
            raise Http404
        suffix = PurePath(sheet.paper_scan.name).suffix
        try:
            handle = sheet.paper_scan.open("rb")
        except FileNotFoundError:  # issue 27: the file went (a restore without the private files)
            messages.error(
                request,
                _("The scan of this sheet is missing from the server's files."),
            )
            return redirect("referee:sheet", self.tournament.slug, kwargs["match"], kwargs["table"])
        response = FileResponse(
            handle,
            as_attachment=True,  # never shown as a page of this site (a PDF may hold scripts)
            filename=f"{self.tournament.slug}-{sheet.match.number}-{sheet.table.number}{suffix}",
            content_type=SCAN_TYPES.get(suffix, "application/octet-stream"),
        )
        response["Content-Security-Policy"] = "sandbox; default-src 'none'"
        response["X-Content-Type-Options"] = "nosniff"
        return response
