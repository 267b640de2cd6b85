"""Standings for everyone and for the staff (one query, two audiences), and the projector."""

from __future__ import annotations

import hashlib
import logging
import time

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache, caches
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.shortcuts import redirect
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
from ..tournaments.permissions import Perm
from . import lots as lots_service
from . import standings
from .forms import LotForm
from .tables import StandingsTable

logger = logging.getLogger(__name__)

PER_PAGE = 50
PAGE_SECONDS = 3600  # a kept page is dropped after an hour without a new result
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

    def standings_context(self) -> dict:
        match = self.match_number()
        # Visitors' pages may be a few seconds behind while results keep coming (issue 16).
        visitor = not self.request.user.is_authenticated
        fresh = settings.STANDINGS_FRESH_SECONDS if visitor else 0
        result = standings.compute(self.tournament, match, fresh=fresh, current=self.results_key)
        query = self.request.GET.get("q", "").strip()
        rows = result.rows
        if query:
            rows = result.search(query)
        table = StandingsTable(rows, slug=self.tournament.slug, empty_text=empty_text(query))
        RequestConfig(self.request, paginate={"per_page": PER_PAGE}).configure(table)
        # The rendered table depends on nothing but the results, the language and the address
        # (match, page, order, search): kept under exactly these.
        table_key = [*result.results_key, get_language(), self.request.get_full_path()]
        return {
            "table_key": table_key,
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


def kept_page(key: str, version: tuple, shared: bool = True) -> tuple | None:
    """The page kept under ``key`` if it shows the results as they are (``version``), or as they
    were at most STANDINGS_FRESH_SECONDS ago: while phones enter games at the tables every result
    raises the version, and visitors' pages are then drawn at most that often instead of once
    per result (issue 16: the hall serves entries and readers at once). Looked for in this
    process's memory first, then (``shared``) in the cache all processes share, and kept in
    memory then."""
    fresh = settings.STANDINGS_FRESH_SECONDS
    local = caches["local"]
    for store in (local, cache) if shared else (local,):
        kept = store.get(key) if store is local else _shared(lambda: cache.get(key))
        if kept is not None and (kept[0] == version or time.time() - kept[1] < fresh):
            if store is not local:
                local.set(key, kept, PAGE_SECONDS)
            return kept
    return None


def keep_page(key: str, page: tuple, shared: bool = True) -> None:
    """Keep a drawn page in this process's memory and (``shared``) for all processes."""
    if shared:
        _shared(lambda: cache.set(key, page, PAGE_SECONDS))
    caches["local"].set(key, page, PAGE_SECONDS)


def _shared(call):
    """A call of the shared cache (files in CACHE_DIR): a folder that cannot be read or written
    (its owner, a full disk) costs the processes their sharing, never a visitor his page."""
    try:
        return call()
    except OSError as error:
        logger.warning("The shared cache in %s failed: %s", settings.CACHES["default"]["LOCATION"], error)
        return None


def kept_response(request, content: bytes, packed: bytes) -> HttpResponse:
    """A kept page as GZipMiddleware would send it, compressed once when it was kept rather than
    for every phone that asks for it (the middleware leaves a response with an encoding as is)."""
    if re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) and len(packed) < len(content):
        response = HttpResponse(packed)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(content)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


class StandingsView(PublicMixin, StandingsMixin, TemplateView):
    """The public standings. What a visitor without a log-in sees is the same for everyone, so
    the whole page is kept, in the cache all server processes share, under the results version,
    the language and the address: two hundred phones in the hall cost a cache look-up each."""

    def get(self, request, *args, **kwargs):
        if request.user.is_authenticated or messages.get_messages(request) or not keepable(request):
            return super().get(request, *args, **kwargs)
        # The tournament was looked up by this request (PublicMixin): its results as fresh.
        version = self.results_key = standings.results_key(self.tournament, just_read=True)
        address = [*standings.identity(version), get_language(), swaps_part(request), request.get_full_path()]
        key = "standings-page:" + hashlib.sha256("\n".join(map(str, address)).encode()).hexdigest()
        # A search is one player's (his own line, polled every 30 s): kept in this process only;
        # the pages of the list are asked for by all and drawn once for all processes.
        shared = not request.GET.get("q")
        kept = kept_page(key, version, shared)
        if kept is not None:
            return kept_response(request, kept[2], kept[3])
        response = super().get(request, *args, **kwargs)
        response.render()
        if response.status_code != 200:
            return response
        content = response.content
        packed = compress_string(content, max_random_bytes=GZipMiddleware.max_random_bytes)
        # Kept as of the results it shows, which may be a few seconds older than ``version``
        # (``fresh``): kept under ``version`` it would pass for the newest until the next result.
        shown = response.context_data["standings"]
        keep_page(key, (shown.results_key, shown.computed_at, content, packed), shared)
        return kept_response(request, content, packed)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.standings_context())
        return context


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
