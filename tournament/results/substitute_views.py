"""The organiser's page for a substitute (5.2.11): its own page, with the seats he takes over."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView

from ..errors import ServiceError
from ..participants.forms import SubstitutionForm
from ..participants.views import participant_of, seat_list
from ..tournaments.access import TournamentMixin
from ..tournaments.permissions import Perm
from .substitutes import substitute


class SubstituteView(TournamentMixin, FormView):
    """A substitute for a start number (5.2.11): its own page, with the seats it takes over."""

    template_name = "organiser/substitute_form.html"
    form_class = SubstitutionForm
    permission = Perm.EDIT_PARTICIPANTS

    def dispatch(self, request, *args, **kwargs):
        self.object = None
        return super().dispatch(request, *args, **kwargs)

    def get_participant(self):
        if self.object is None:
            self.object = participant_of(self.tournament, self.kwargs["number"])
        return self.object

    def get_initial(self):
        latest = self.get_participant().substitutions.order_by("-from_match", "-from_game").first()
        drawn = self.tournament.matches.filter(drawn_at__isnull=False).order_by("-number").first()
        start = latest.from_match + 1 if latest else (drawn.number if drawn else 1)
        return {"from_match": min(start, self.tournament.rules.matches), "from_game": 1}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        participant = self.get_participant()
        context["participant"] = participant
        context["substitutions"] = participant.substitutions.order_by("from_match", "from_game")
        context["seats"] = seat_list(participant)
        return context

    def form_valid(self, form):
        participant = self.get_participant()
        try:
            substitute(self.request.user, participant, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            for detail in error.details:
                form.add_error(None, detail)
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("%(name)s plays for start number %(number)s from match %(match)s, game %(game)s.")
            % {
                "name": form.cleaned_data["name"],
                "number": participant.number,
                "match": form.cleaned_data["from_match"],
                "game": form.cleaned_data["from_game"],
            },
        )
        return redirect("organiser:participant", self.tournament.slug, participant.number)
