"""Printed documents: each is one template, shown as the HTML preview or drawn as the PDF."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.generic import TemplateView

from .. import standings
from ..printing import _pdf
from .base import TournamentMixin


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
            from django.http import Http404

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
