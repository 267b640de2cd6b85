"""The pages that answer with a printed document: the HTML preview or the PDF of one template."""

from __future__ import annotations

from django.http import Http404, HttpResponse

from .pdf import render_pdf


class DocumentMixin:
    """``format`` in the address: ``html`` for the preview, ``pdf`` for the document; any other
    is a 404."""

    filename = "document"
    FORMATS = ("html", "pdf")

    def get(self, request, *args, **kwargs):
        if kwargs.get("format", "html") not in self.FORMATS:
            raise Http404
        return super().get(request, *args, **kwargs)

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        if self.kwargs.get("format") != "pdf":
            return response
        response.render()
        pdf = HttpResponse(render_pdf(response.content.decode()), content_type="application/pdf")
        pdf["Content-Disposition"] = f'inline; filename="{self.pdf_filename()}"'
        return pdf

    def pdf_filename(self) -> str:
        return f"{self.tournament.slug}-{self.document_name()}.pdf"

    def document_name(self) -> str:
        return self.filename
