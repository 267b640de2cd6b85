"""Standings for everyone and for the staff (one query, two audiences), and the projector."""

from __future__ import annotations

import copy
import hashlib
import time

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, QueryDict
from django.middleware.gzip import re_accepts_gzip
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView
from django_tables2 import RequestConfig

from ..draw.models import Match
from ..errors import ServiceError
from ..hooks import Slot
from ..participants.models import Team
from ..participants.tables import empty_text
from ..prepared import Prepared
from ..tournaments.access import PartialMixin, PublicMixin, TournamentMixin, swaps_part
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm
from ..tournaments.prize_places import prize_places
from . import drawn, standings
from . import lots as lots_service
from .forms import LotForm
from .tables import StandingsTable

PER_PAGE = 50
PAGE_SECONDS = 3600  # a visitor's page goes an hour after it was drawn, whatever its results
PROJECTOR_SECONDS = 15


# The teams' standings under the overall ones (issue 17): the teams (above) answer at start-up.
team_standings = Slot("The standings of the tournament's teams.")

# What the whole standings page asks besides (the players' phones open it): compiled once.
_DRAWN_MATCHES = Prepared(
    lambda pk: Match.objects.filter(tournament_id=pk, drawn_at__isnull=False).order_by("number"),
    int,
)
_TEAMS = Prepared(
    lambda pk: Team.objects.filter(tournament_id=pk).order_by().values_list("pk", flat=True)[:1],
    int,
)


class StandingsMixin(PartialMixin):
    """One query, two audiences: the public standings and the organiser's, with the lots
    (STYLE 6). The search filters rows but never changes a rank."""

    template_name = "public/standings.html"
    partial_name = "public/_standings.html"

    def match_number(self) -> int | None:
        number = self.kwargs.get("match")
        if number is not None and not self.tournament.matches.filter(number=number).exists():
            raise Http404
        return number

    results_key: tuple | None = None  # as read at the start of the request, where it was

    def drawn_matches(self):
        return _DRAWN_MATCHES(self.tournament.pk)

    def has_teams(self) -> bool:
        return bool(_TEAMS(self.tournament.pk))

    def standings_context(self, frame_of: standings.Standings | None = None) -> dict:
        """What the page shows; ``frame_of``: the frame of searches of these standings
        (``drawn``): every row, on one page, the lines left to the searches."""
        match = self.match_number()
        # Visitors' pages may be a few seconds behind while results keep coming (issue 16).
        visitor = not self.request.user.is_authenticated
        fresh = settings.STANDINGS_FRESH_SECONDS if visitor else 0
        result = frame_of or standings.compute(self.tournament, match, fresh=fresh, current=self.results_key)
        query = self.request.GET.get("q", "").strip()
        rows = result.rows
        if query and not frame_of:
            rows = result.search(query)
        table = StandingsTable(rows, slug=self.tournament.slug, empty_text=empty_text(query))
        table.frame = bool(frame_of)
        RequestConfig(self.request, paginate=not frame_of and {"per_page": PER_PAGE}).configure(table)
        return {
            "standings": result,
            "table": table,
            "query": query,
            "match": match,
            # called by the whole page only, not by its polled part
            "matches": self.drawn_matches,
            "has_teams": self.has_teams,
            "metrics": standings.METRICS,
        }


# The orders the standings' header links to: one column, either way.
_COLUMNS = ("rank", "number", "name", *(m.key for m in standings.METRICS))
ORDERS = frozenset(_COLUMNS) | frozenset(f"-{column}" for column in _COLUMNS)


def keepable(request) -> bool:
    """Whether the address is one the standings pages link to (a search, a page as its number,
    an order by one column): a page is kept only for those, so that made-up addresses cannot
    fill the cache with copies."""
    parameters = request.GET
    if not set(parameters) <= {"q", "page", "sort"} or any(len(v) != 1 for _n, v in parameters.lists()):
        return False
    page, order = parameters.get("page"), parameters.get("sort")
    return (
        len(parameters.get("q", "")) <= 40
        and (page is None or (page.isdigit() and page == str(int(page)) and int(page) <= 10_000))
        and (order is None or order in ORDERS)
    )


def page_key(request, tournament_key: tuple) -> str:
    """Where a visitor's page is kept: its tournament, language, whole page or the part htmx
    swaps, and address (match, page, order, search)."""
    address = [*tournament_key, get_language(), swaps_part(request), request.get_full_path()]
    return "standings-page:" + hashlib.sha256("\n".join(map(str, address)).encode()).hexdigest()


def kept_response(request, content: bytes, packed: bytes) -> HttpResponse:
    """A kept page as the visitor's browser takes it: gzipped where it says it can."""
    if re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) and len(packed) < len(content):
        response = HttpResponse(packed)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(content)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


class StandingsView(PublicMixin, StandingsMixin, TemplateView):
    """The public standings. What a visitor without a log-in sees is the same for everyone, so
    the whole page is kept in the cache all server processes share, with the results it shows:
    given while they are the tournament's, or STANDINGS_FRESH_SECONDS after they were computed.
    Two hundred phones in the hall cost a cache look-up each, and while phones enter games every
    second a page is drawn at most that often instead of once per result."""

    def get(self, request, *args, **kwargs):
        if request.user.is_authenticated or messages.get_messages(request) or not keepable(request):
            return super().get(request, *args, **kwargs)
        # The tournament was looked up by this request (PublicMixin): its results as fresh.
        version = self.results_key = standings.results_key(self.tournament, just_read=True)
        query = swaps_part(request) and drawn.searchable(request)
        if query:  # a player's phone polling his own line: from the lines drawn once (drawn)
            part = self.drawn_search(query)
            if part is not None:
                return HttpResponse(part)
        key = page_key(request, standings.identity(version))
        kept = standings.cache_call(lambda: cache.get(key))
        if kept is not None and len(kept) == 4:
            shown, computed_at, content, packed = kept
            if shown == version or time.time() - computed_at < settings.STANDINGS_FRESH_SECONDS:
                return kept_response(request, content, packed)
        response = super().get(request, *args, **kwargs)
        response.render()
        if response.status_code == 200:
            # Kept as of the standings it shows, which may be a few seconds older than
            # ``version`` (``fresh``): kept as of ``version`` it would pass for the newest.
            shown = response.context_data["standings"]
            # Kept gzipped too: compressing the page for each of 200 phones cost the hall's
            # cores more than drawing it once.
            page = (shown.results_key, shown.computed_at, response.content, compress_string(response.content))
            standings.cache_call(lambda: cache.set(key, page, PAGE_SECONDS))
        return response

    def get_context_data(self, frame_of=None, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.standings_context(frame_of))
        return context

    def drawn_search(self, query: str) -> str | None:
        """A search's part from the frame and lines drawn once for the standings it shows
        (``drawn``), or None where they cannot say it."""
        match = self.match_number()
        fresh = settings.STANDINGS_FRESH_SECONDS
        result = standings.compute(self.tournament, match, fresh=fresh, current=self.results_key)
        free = (self.request.path, str(result.lot.seed) if result.lot else "")  # the frame's free texts
        if any(drawn.PLACEHOLDER in text for text in free):
            return None  # the placeholder would be replaced there too
        running = self.tournament.current_status == Tournament.Status.RUNNING

        def draw_frame() -> str:
            # The part as the usual way draws it for the search PLACEHOLDER, every row in it.
            request = copy.copy(self.request)
            request.GET = QueryDict(f"q={drawn.PLACEHOLDER}")
            request.META = {**request.META, "QUERY_STRING": f"q={drawn.PLACEHOLDER}"}
            searching, self.request = self.request, request
            try:
                context = self.get_context_data(frame_of=result, **self.kwargs)
                return render_to_string(self.partial_name, context, request)
            finally:
                self.request = searching

        prefix = drawn.participant_prefix(self.tournament.slug)
        kept = drawn.drawn((self.request.path, match, running), result, draw_frame, prefix)
        return drawn.search_part(query, result, kept, PER_PAGE)


class ProjectorView(PublicMixin, TemplateView):
    """Large type for the hall's projector. Every row is sent; static/js/projector.js pages
    through them as many as the screen holds, and fetches them afresh after the last page."""

    template_name = "public/projector.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            rows=standings.compute(self.tournament).rows,
            seconds=PROJECTOR_SECONDS,
            metrics=standings.METRICS,
            prize_places=prize_places(self.tournament),  # highlighted: declared or set (issue 28)
        )
        return context


class StaffStandingsView(TournamentMixin, StandingsMixin, FormView):
    """The standings as the public sees them, with the lots for ties (5.4.2, RULINGS 13)."""

    template_name = "organiser/standings.html"
    form_class = LotForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.standings_context())
        context["can_draw_lots"] = self.can(Perm.DRAW_LOTS)
        if context["match"] is None and self.tournament.teams.exists():  # issue 17
            context["team_standings"] = team_standings(self.tournament)
        return context

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        places = prize_places(self.tournament)  # which places, and whose number (issue 28)
        form.fields["prize_places_only"].help_text = _("Prize places %(span)s, %(source)s.") % {
            "span": places.span,
            "source": places.source,
        }
        return form

    def form_valid(self, form):
        if not self.can(Perm.DRAW_LOTS):
            raise PermissionDenied
        try:
            lot = lots_service.draw_lots(
                self.request.user,
                self.tournament,
                self.match_number(),
                prize_places_only=form.cleaned_data["prize_places_only"],
                seed=form.cleaned_data["seed"],
            )
        except ServiceError as error:
            self.refuse(error)
        else:
            messages.success(self.request, _("Lots were drawn with the seed %(seed)s.") % {"seed": lot.seed})
        return redirect(self.request.path)
