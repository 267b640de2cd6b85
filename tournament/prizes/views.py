"""The prize list: the organiser's page (declaration with its live preview, then who gets what)
and the printed list with a receipt line per cash prize."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from ..documents.views import DocumentMixin
from ..errors import ServiceError
from ..tournaments.access import TournamentMixin, swaps_part
from ..tournaments.permissions import Perm
from . import services
from .forms import DeclarationForm, LineFormSet
from .models import PrizeDeclaration


class PrizesView(TournamentMixin, TemplateView):
    """Everyone on the staff sees the list; the organiser declares it. Before the draw the page
    previews the prizes for today's participants, live as the form is typed (htmx posts the
    unsaved form to ``?preview=1``); after the draw it shows who gets what."""

    template_name = "organiser/prizes.html"
    partial_name = "organiser/prizes_preview.html"

    def declaration(self) -> PrizeDeclaration:
        return PrizeDeclaration.objects.filter(tournament=self.tournament).first() or PrizeDeclaration(
            tournament=self.tournament
        )

    def get_context_data(self, form=None, formset=None, prizes=None, **kwargs):
        context = super().get_context_data(**kwargs)
        can_edit = self.can(Perm.EDIT_TOURNAMENT)
        if can_edit and form is None:
            declaration = self.declaration()
            form = DeclarationForm(instance=declaration)
            formset = LineFormSet(instance=declaration)
        context.update(
            prizes=prizes or services.prize_list(self.tournament),
            form=form,
            formset=formset,
            can_edit=can_edit,
        )
        return context

    def post(self, request, *args, **kwargs):
        if not self.can(Perm.EDIT_TOURNAMENT):
            raise PermissionDenied
        declaration = self.declaration()
        form = DeclarationForm(request.POST, instance=declaration)
        formset = LineFormSet(request.POST, instance=declaration)
        if "preview" in request.GET:
            return self.preview(form, formset)
        if form.is_valid() and formset.is_valid():
            try:
                services.declare(request.user, self.tournament, form.values(), formset.lines())
            except ServiceError as error:
                self.refuse(error)
            else:
                messages.success(request, _("The prize list was saved."))
                return redirect(request.path)
        return self.render_to_response(self.get_context_data(form=form, formset=formset))

    def preview(self, form, formset):
        """The list as the form now says, not saved: what is wrong with a field, or the money
        and the prizes for today's numbers."""
        formset.is_valid()  # the lines' own problems are the preview's to list
        prizes = None
        if form.is_valid() and all(f.is_valid() for f in formset.kept_forms()):
            unsaved = PrizeDeclaration(tournament=self.tournament, **form.values())
            prizes = services.prize_list(self.tournament, unsaved, formset.lines())
        context = self.get_context_data(form=form, formset=formset, prizes=prizes)
        context["preview"] = True
        template = self.partial_name if swaps_part(self.request) else self.template_name
        return self.response_class(request=self.request, template=[template], context=context)


class PrizesDocumentView(DocumentMixin, TournamentMixin, TemplateView):
    """The prize list to print: who gets what, and a line to sign for each cash prize."""

    template_name = "print/prizes.html"
    filename = "preisliste"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["prizes"] = services.prize_list(self.tournament)
        return context
