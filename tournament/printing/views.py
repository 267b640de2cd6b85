"""Printed documents and downloads: each printed document is one template, shown as the HTML
preview or drawn as the PDF; the Excel workbook."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from ..documents.views import DocumentMixin
from ..jobs.models import Job
from ..jobs.views import start_or_follow
from ..participants.models import Participant
from ..results.models import GameEntry, Scoresheet
from ..tournaments.access import TournamentMixin
from ..tournaments.prize_places import prize_places
from .jobs import certificates_context, rankings_context, scoresheets_name
from .pdf import render_html, scoresheets_pdf, sheets_of
from .tablecodes import table_cards
from .workbook import EXPORTERS

# Up to these sizes a page answers at once (a few seconds at most); beyond them the work is a
# background job with its progress on the downloads page.
AT_ONCE_SHEETS = {True: 100, False: 30}  # blank, filled: a filled sheet takes several times longer
AT_ONCE_PARTICIPANTS = 400  # rankings and certificates
AT_ONCE_GAMES = 6000  # the workbook: a club evening of 26 tables × 2 matches is 1,664 games


def big_field(tournament) -> bool:
    return Participant.objects.filter(tournament=tournament).count() > AT_ONCE_PARTICIPANTS


class RankingsView(DocumentMixin, TournamentMixin, TemplateView):
    """Final or per-match rankings with every 5.4.2 column (5.4.1)."""

    template_name = "print/rankings.html"

    def document_name(self) -> str:
        match = self.match()
        return f"rangliste-{match}" if match else "rangliste"

    def match(self) -> int | None:
        value = self.request.GET.get("match", "")
        return int(value) if value.isascii() and value.isdigit() else None

    def get(self, request, *args, **kwargs):
        match = self.match()
        if match is not None and not self.tournament.matches.filter(number=match).exists():
            raise Http404
        if kwargs.get("format") == "pdf" and big_field(self.tournament):
            label = _("Rankings, match %(n)s") % {"n": match} if match else _("Rankings")
            return start_or_follow(self, Job.Kind.RANKINGS, label, match=match)
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(rankings_context(self.tournament, self.match()))
        return context


class CertificatesView(DocumentMixin, TournamentMixin, TemplateView):
    """Certificates (Urkunden) for the top places, one page each."""

    template_name = "print/certificates.html"
    filename = "urkunden"

    def places(self) -> int:
        places = self.request.GET.get("places", "")
        if places.isascii() and places.isdigit():
            return int(places)
        return prize_places(self.tournament).count  # the declared places, or the setting (issue 28)

    def get(self, request, *args, **kwargs):
        if (
            kwargs.get("format") == "pdf"
            and big_field(self.tournament)
            and self.places() > AT_ONCE_PARTICIPANTS
        ):
            return start_or_follow(self, Job.Kind.CERTIFICATES, _("Certificates"), places=self.places())
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(certificates_context(self.tournament, self.places()))
        context["prize_places"] = prize_places(self.tournament)  # said on screen, not printed
        context["chosen"] = self.request.GET.get("places", "")
        return context


class ExportXlsxView(TournamentMixin, View):
    """Standings, every game and every scoresheet as one Excel file."""

    def get(self, request, *args, **kwargs):
        games = GameEntry.objects.filter(
            scoresheet__match__tournament=self.tournament, scoresheet__match__discarded_at__isnull=True
        ).count()
        if games > AT_ONCE_GAMES:
            return start_or_follow(self, Job.Kind.WORKBOOK, _("Excel workbook"))
        filename, mime, content = EXPORTERS["xlsx"].render(self.tournament)
        response = HttpResponse(content, content_type=mime)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class ScoresheetsPrintView(TournamentMixin, View):
    """Every scoresheet of a match: ?blank=1 pre-filled to print before the match; .html is the
    preview of the same template."""

    def get(self, request, *args, **kwargs):
        match = self.tournament.matches.filter(number=kwargs["match"]).first()
        if match is None or not match.is_drawn:
            raise Http404
        blank = request.GET.get("blank") == "1"
        sheets = list(sheets_of(match))
        if kwargs["format"] == "html":
            return HttpResponse(render_html(sheets, blank, request))
        if len(sheets) > AT_ONCE_SHEETS[blank]:
            label = (
                _("Blank scoresheets, match %(n)s") if blank else _("Filled scoresheets, match %(n)s")
            ) % {"n": match.number}
            return start_or_follow(self, Job.Kind.SCORESHEETS, label, match=match.number, blank=blank)
        pdf = scoresheets_pdf(sheets, blank, request=request)
        response = HttpResponse(pdf, content_type="application/pdf")
        filename = scoresheets_name(self.tournament, match.number, blank)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class ScoresheetPdfView(TournamentMixin, View):
    """One scoresheet as its signed document."""

    def get(self, request, *args, **kwargs):
        sheet = get_object_or_404(
            Scoresheet.objects.select_related("table", "match__tournament"),
            match__tournament=self.tournament,
            match__discarded_at__isnull=True,
            match__number=kwargs["match"],
            table__number=kwargs["table"],
        )
        response = HttpResponse(scoresheets_pdf([sheet], blank=False), content_type="application/pdf")
        response["Content-Disposition"] = (
            f'inline; filename="{self.tournament.slug}-match{sheet.match.number}-'
            f'table{sheet.table.number}.pdf"'
        )
        return response


class TableCardsView(DocumentMixin, TournamentMixin, TemplateView):
    """A card for every table of a match, A6, to stand on the table (issue 16): the table, who
    sits where, and the table's code with its QR code for the players' phones. A table whose
    sheet is signed or void gets its card without the code, which no longer works."""

    template_name = "print/table_cards.html"

    def document_name(self) -> str:
        return f"durchgang-{self.kwargs['match']}-tischkarten"

    def get(self, request, *args, **kwargs):
        self.match = self.tournament.matches.filter(number=kwargs["match"]).first()
        if self.match is None or not self.match.is_drawn:
            raise Http404
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["match"] = self.match
        context["cards"] = table_cards(self.match, self.request)
        return context
