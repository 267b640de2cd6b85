"""Printed documents and downloads: each printed document is one template, shown as the HTML
preview or drawn as the PDF; the Excel workbook."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView, View

from ..results.models import Scoresheet
from ..standings import standings
from ..tournaments.access import TournamentMixin
from .pdf import _pdf, render_html, scoresheets_pdf, sheets_of
from .workbook import EXPORTERS


class DocumentMixin:
    """``format`` in the address: ``html`` for the preview, ``pdf`` for the document."""

    filename = "document"

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        if self.kwargs.get("format") != "pdf":
            return response
        response.render()
        pdf = HttpResponse(_pdf(response.content.decode()), content_type="application/pdf")
        pdf["Content-Disposition"] = f'inline; filename="{self.tournament.slug}-{self.document_name()}.pdf"'
        return pdf

    def document_name(self) -> str:
        return self.filename


class RankingsView(DocumentMixin, TournamentMixin, TemplateView):
    """Final or per-match rankings with every 5.4.2 column (5.4.1)."""

    template_name = "print/rankings.html"

    def document_name(self) -> str:
        match = self.match()
        return f"rangliste-{match}" if match else "rangliste"

    def match(self) -> int | None:
        value = self.request.GET.get("match", "")
        return int(value) if value.isascii() and value.isdigit() else None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        match = self.match()
        if match is not None and not self.tournament.matches.filter(number=match).exists():
            raise Http404
        context.update(
            standings=standings.compute(self.tournament, match), match=match, metrics=standings.METRICS
        )
        return context


class CertificatesView(DocumentMixin, TournamentMixin, TemplateView):
    """Certificates (Urkunden) for the top places, one page each."""

    template_name = "print/certificates.html"
    filename = "urkunden"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        places = self.request.GET.get("places", "")
        places = int(places) if places.isascii() and places.isdigit() else self.tournament.prize_places
        rows = [row for row in standings.compute(self.tournament).rows if row.rank <= places]
        context.update(rows=rows, places=places)
        return context


class ExportXlsxView(TournamentMixin, View):
    """Standings, every game and every scoresheet as one Excel file."""

    def get(self, request, *args, **kwargs):
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
            return HttpResponse(render_html(sheets, blank))
        response = HttpResponse(scoresheets_pdf(sheets, blank), content_type="application/pdf")
        kind = "blank" if blank else "filled"
        response["Content-Disposition"] = (
            f'attachment; filename="{self.tournament.slug}-match{match.number}-{kind}.pdf"'
        )
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
