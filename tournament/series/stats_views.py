"""The players' own numbers on the series' pages (issue 30): the season page of a series, a
player's page over every tournament of the register with his chart, and the consent to them in
the register. Public pages show only persons who consented; managers see everyone."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from ..stats import chart
from . import season as series_season
from . import services as series_service
from .models import Person, Series
from .views import ManagerMixin


class SeriesStatsView(TemplateView):
    """The season: each player's statistics, ranked by rating from the minimum of matches on."""

    template_name = "public/series_stats.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        series = get_object_or_404(Series.objects.select_related("organisation"), slug=kwargs["series"])
        season = series_season.of_series(series)
        everything = series_season.sees_everything(self.request.user, series.organisation)
        shown = season.players
        hidden = 0
        if not everything:
            public = series_season.consenting(season.players)
            shown = [p for p in season.players if p.key in public]
            hidden = len(season.players) - len(shown)
        rated = [p for p in shown if p.rated_matches >= season.min_matches]
        context.update(
            series=series,
            rated=rated,
            unrated=[p for p in shown if p.rated_matches < season.min_matches],
            hidden=hidden,
            everything=everything,
            min_matches=season.min_matches,
            awards=series_season.awards(series, season, everything=everything),
        )
        return context


class PlayerView(TemplateView):
    """A person's page: his numbers over every tournament of the register, his tournaments and
    the chart of his placings and rating. Only with his consent, but for managers."""

    template_name = "public/player.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        person = get_object_or_404(Person.objects.select_related("organisation"), pk=kwargs["person"])
        # only his organisation's managers see him without his consent (issue 29)
        everything = series_season.sees_everything(self.request.user, person.organisation)
        if not person.public_stats and not everything:
            raise Http404("no consent")
        stats = series_season.of_register(person.organisation).player(person.pk)
        placings = list(stats.placings) if stats else []
        context.update(
            person=person,
            stats=stats,
            everything=everything,
            placings=list(reversed(placings)),  # the newest first
            placing_chart=chart.placings(placings),
            rating_chart=chart.ratings(placings),
            min_matches=series_season.REGISTER_MATCHES,
        )
        return context


class ConsentView(ManagerMixin, View):
    """The register's checkbox: the person's consent to public pages of his numbers."""

    check = staticmethod(series_season.can_manage_register)
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        person = get_object_or_404(Person, pk=kwargs["person"])
        consent = request.POST.get("public_stats") == "1"
        if series_service.set_consent(request.user, person, consent):
            if consent:
                messages.success(
                    request, _("%(name)s: public season page and statistics on.") % {"name": person.name}
                )
            else:
                messages.success(
                    request, _("%(name)s: public season page and statistics off.") % {"name": person.name}
                )
        back = request.POST.get("back", "")
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            back = ""
        return redirect(back or "series:register")
