"""The organiser's team pages, the public team standings and their printed document."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from ..documents.views import DocumentMixin
from ..errors import ServiceError
from ..participants import teams as team_service
from ..participants.models import Participant, Team
from ..standings.forms import LotForm
from ..standings.standings import METRICS
from ..tournaments.access import PartialMixin, PublicMixin, TournamentMixin
from ..tournaments.permissions import Perm
from . import lots as team_lots
from . import standings as team_standings
from .forms import MembersForm, TeamForm


def teams_with_members(tournament):
    return Team.objects.filter(tournament=tournament).prefetch_related(
        Prefetch("members", queryset=Participant.objects.order_by("number"))
    )


class TeamsView(TournamentMixin, TemplateView):
    """Every team with its members and the team standings; the organiser creates teams here."""

    template_name = "organiser/teams.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("form", TeamForm())
        context.update(
            teams=teams_with_members(self.tournament),
            without_team=self.tournament.participants.filter(team__isnull=True).count(),
            team_standings=team_standings.compute(self.tournament),
            metrics=METRICS,
            lot_form=LotForm(),
        )
        return context

    def post(self, request, *args, **kwargs):
        if not self.can(Perm.EDIT_PARTICIPANTS):
            raise PermissionDenied
        form = TeamForm(request.POST)
        if not form.is_valid():
            self.refuse_form(form)
            return redirect("organiser:teams", self.tournament.slug)
        try:
            team = team_service.create_team(request.user, self.tournament, form.cleaned_data["name"])
        except ServiceError as error:
            self.refuse(error)
            return redirect("organiser:teams", self.tournament.slug)
        messages.success(request, _("The team “%(name)s” was created.") % {"name": team.name})
        return redirect("organiser:team", self.tournament.slug, team.pk)


class TeamView(TournamentMixin, TemplateView):
    """One team: its name, its members (added by start number, taken out one by one), deleting
    it. Looked up through the tournament: another tournament's team is a 404."""

    template_name = "organiser/team.html"
    permission = Perm.EDIT_PARTICIPANTS

    def dispatch(self, request, *args, **kwargs):
        self.team = None
        return super().dispatch(request, *args, **kwargs)

    def get_team(self) -> Team:
        if self.team is None:
            self.team = get_object_or_404(Team, tournament=self.tournament, pk=self.kwargs["team"])
        return self.team

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = self.get_team()
        context.update(
            team=team,
            members=team.members.order_by("number"),
            rename_form=TeamForm(initial={"name": team.name}),
            members_form=MembersForm(tournament=self.tournament),
        )
        return context

    def post(self, request, *args, **kwargs):
        team = self.get_team()
        handler = {
            "rename": self.rename_team,
            "add": self.add_members,
            "remove": self.remove_member,
            "delete": self.delete_team,
        }.get(request.POST.get("action", ""))
        if handler is None:
            messages.error(request, _("Unknown action."))
            return redirect("organiser:team", self.tournament.slug, team.pk)
        try:
            return handler(team)
        except ServiceError as error:
            self.refuse(error)
            return redirect("organiser:team", self.tournament.slug, team.pk)

    def rename_team(self, team: Team):
        form = TeamForm(self.request.POST)
        if not form.is_valid():
            self.refuse_form(form)
        else:
            team_service.rename_team(self.request.user, self.tournament, team, form.cleaned_data["name"])
            messages.success(self.request, _("Saved."))
        return redirect("organiser:team", self.tournament.slug, team.pk)

    def add_members(self, team: Team):
        form = MembersForm(self.request.POST, tournament=self.tournament)
        if not form.is_valid():
            self.refuse_form(form)
            return redirect("organiser:team", self.tournament.slug, team.pk)
        chosen = form.cleaned_data["numbers"]
        moved = [(p, str(p.team)) for p in chosen if p.team_id not in (None, team.pk)]
        team_service.assign(self.request.user, self.tournament, team, chosen)
        messages.success(self.request, _("Saved."))
        for participant, before in moved:
            messages.info(
                self.request,
                _("%(name)s (%(number)s) left the team “%(team)s”.")
                % {"name": participant.name, "number": participant.number, "team": before},
            )
        return redirect("organiser:team", self.tournament.slug, team.pk)

    def remove_member(self, team: Team):
        number = self.request.POST.get("number", "")
        if not (number.isascii() and number.isdigit() and len(number) <= 10):
            raise Http404
        member = get_object_or_404(Participant, tournament=self.tournament, team=team, number=int(number))
        team_service.assign(self.request.user, self.tournament, None, [member])
        messages.success(self.request, _("Saved."))
        return redirect("organiser:team", self.tournament.slug, team.pk)

    def delete_team(self, team: Team):
        team_service.delete_team(self.request.user, self.tournament, team)
        messages.success(self.request, _("The team “%(name)s” was deleted.") % {"name": team.name})
        return redirect("organiser:teams", self.tournament.slug)


class TeamLotsView(TournamentMixin, FormView):
    """Lots for the teams still equal after points and counts (the Teams page's button)."""

    form_class = LotForm  # only its seed: teams have no prize places of their own
    permission = Perm.DRAW_LOTS
    http_method_names = ["post"]

    def form_valid(self, form):
        try:
            lot = team_lots.draw_team_lots(self.request.user, self.tournament, seed=form.cleaned_data["seed"])
        except ServiceError as error:
            self.refuse(error)
        else:
            messages.success(self.request, _("Lots were drawn with the seed %(seed)s.") % {"seed": lot.seed})
        return redirect("organiser:teams", self.tournament.slug)

    def form_invalid(self, form):
        self.refuse_form(form)
        return redirect("organiser:teams", self.tournament.slug)


class TeamStandingsMixin:
    def team_context(self) -> dict:
        return {"team_standings": team_standings.compute(self.tournament), "metrics": METRICS}


class PublicTeamStandingsView(PublicMixin, PartialMixin, TeamStandingsMixin, TemplateView):
    """The team standings on a phone: rank, team, its sums, and who played for it."""

    template_name = "public/teams.html"
    partial_name = "public/_teams.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.team_context())
        return context


class TeamRankingsView(DocumentMixin, TournamentMixin, TeamStandingsMixin, TemplateView):
    """The team standings to print, with every count (5.4.2) summed."""

    template_name = "print/team_rankings.html"
    filename = "mannschaften"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.team_context())
        return context
