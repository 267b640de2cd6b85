"""The pages everyone may see: no login, read only, nothing staff-only."""

from __future__ import annotations

import io

import segno
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from scoring.scoresheet import dealer

from .. import standings
from ..entry_text import describe_entry
from ..models import Participant, Scoresheet, StaffRole, Tournament
from ..permissions import can_create_tournament
from ..tables import StandingsTable

PER_PAGE = 50
PROJECTOR_ROWS = 15
PROJECTOR_SECONDS = 15
POLL_SECONDS = 30


def home(request):
    """The tournaments on this installation, newest first, with links for their staff."""
    tournaments = list(Tournament.objects.all())
    managed: set[int] = set()
    if request.user.is_authenticated:
        if request.user.is_superuser:
            managed = {t.pk for t in tournaments}
        else:
            managed = set(StaffRole.objects.filter(user=request.user).values_list("tournament_id", flat=True))
    return render(
        request,
        "public/home.html",
        {
            "tournaments": [(t, t.pk in managed) for t in tournaments],
            "can_create": can_create_tournament(request.user),
        },
    )


class PublicMixin:
    """A tournament's public page: looked up by its slug, answers GET only."""

    http_method_names = ["get", "head"]

    def dispatch(self, request, *args, **kwargs):
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["running"] = self.tournament.status == Tournament.Status.RUNNING
        context["poll_seconds"] = POLL_SECONDS
        return context


class OverviewView(PublicMixin, TemplateView):
    template_name = "public/overview.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["matches"] = self.tournament.matches.all()
        context["participants"] = self.tournament.participants.exclude(
            status=Participant.Status.RESERVE
        ).count()
        return context


class StandingsMixin:
    """One query, two audiences: the public standings and the organiser's, with the lots
    (STYLE 6). The search filters rows but never changes a rank."""

    template_name = "public/standings.html"
    partial_name = "public/_standings.html"

    def match_number(self) -> int | None:
        number = self.kwargs.get("match")
        if number is not None and not self.tournament.matches.filter(number=number).exists():
            raise Http404
        return number

    def standings_context(self) -> dict:
        match = self.match_number()
        result = standings.compute(self.tournament, match)
        query = self.request.GET.get("q", "").strip()
        rows = result.rows
        if query:
            folded = query.casefold()
            rows = [
                row
                for row in rows
                if str(row.number) == query
                or folded in row.name.casefold()
                or any(folded in s.name.casefold() for s in row.substitutes)
            ]
        table = StandingsTable(rows, slug=self.tournament.slug)
        RequestConfig(self.request, paginate={"per_page": PER_PAGE}).configure(table)
        return {
            "standings": result,
            "table": table,
            "query": query,
            "match": match,
            "matches": self.tournament.matches.filter(drawn_at__isnull=False),
            "metrics": standings.METRICS,
        }

    def get_template_names(self):
        if getattr(self.request, "htmx", False) and not self.request.htmx.boosted:
            return [self.partial_name]
        return [self.template_name]


class StandingsView(PublicMixin, StandingsMixin, TemplateView):
    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.standings_context())
        return context


class ParticipantView(PublicMixin, TemplateView):
    """A participant's day: table and seat in every match, each game with his points, his
    running total and his rank."""

    template_name = "public/participant.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        participant = get_object_or_404(
            Participant.objects.prefetch_related("substitutions"),
            tournament=self.tournament,
            number=kwargs["number"],
        )
        overall = standings.compute(self.tournament)
        seats = (
            participant.seats.select_related("table", "match", "table__scoresheet")
            .prefetch_related("table__seats__participant__substitutions", "table__scoresheet__entries")
            .order_by("match__number")
        )
        matches = []
        for seat in seats:
            sheet = seat.table.scoresheet
            counted = sheet.status != Scoresheet.Status.VOID
            total, games = 0, []
            for entry in sheet.entries.all():
                points = entry.points[seat.position - 1] if counted else 0
                total += points
                games.append(
                    {
                        "number": entry.number,
                        "dealer": dealer(entry.number),
                        "text": describe_entry(entry),
                        "points": points,
                        "total": total,
                        "struck": entry.struck,
                        "soloist": entry.declarer == seat.position
                        and entry.kind != "sanction"
                        and entry.contract != "rufer",
                    }
                )
            mates = [
                (s.position, s.participant.number, s.participant.player_name(seat.match.number))
                for s in seat.table.seats.all()
            ]
            matches.append(
                {"seat": seat, "mates": mates, "games": games, "total": total, "void": not counted}
            )
        context.update(
            participant=participant,
            row=overall.row(participant.number),
            matches=matches,
            metrics=standings.METRICS,
        )
        return context


class ProjectorView(PublicMixin, TemplateView):
    """Large type for the hall's projector; pages through the standings by itself."""

    template_name = "public/projector.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rows = standings.compute(self.tournament).rows
        pages = max(1, -(-len(rows) // PROJECTOR_ROWS))
        page = self.request.GET.get("page", "1")
        page = int(page) if page.isascii() and page.isdigit() else 1
        page = min(max(page, 1), pages)
        start = (page - 1) * PROJECTOR_ROWS
        context.update(
            rows=rows[start : start + PROJECTOR_ROWS],
            page=page,
            pages=pages,
            next_page=page % pages + 1,
            seconds=PROJECTOR_SECONDS,
            metrics=standings.METRICS,
        )
        return context


def public_url(request, tournament: Tournament) -> str:
    return request.build_absolute_uri(reverse("public:overview", args=[tournament.slug]))


class QrCodeView(PublicMixin, TemplateView):
    """A page to print: the QR code of the public address, and the address itself."""

    template_name = "public/qr.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["url"] = public_url(self.request, self.tournament)
        return context


@require_safe
def qr_svg(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    buffer = io.BytesIO()
    segno.make(public_url(request, tournament), error="m").save(buffer, kind="svg", scale=10, border=2)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
