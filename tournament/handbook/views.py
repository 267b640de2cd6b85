"""The handbook's pages: its contents, each part in the active language, the messages and the
printable table card "So tragt ihr ein" (HTML preview and PDF, as every printed document)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from ..documents.pdf import render_pdf
from .messages import mark_messages, rules_messages, service_messages
from .sections import PARTS

LANGUAGES = ("de", "en")


def language() -> str:
    """The handbook's language: the page's, German where there is no handbook in it."""
    code = (get_language() or "de")[:2]
    return code if code in LANGUAGES else "de"


@require_safe
def index(request):
    return render(request, f"handbook/{language()}/index.html", {"parts": PARTS})


@require_safe
def part(request, part: str):
    if part not in PARTS:
        raise Http404
    context = {"parts": PARTS, "part": part, "title": PARTS[part]}
    if part == "meldungen":
        context.update(rules=rules_messages(), marks=mark_messages(), services=service_messages())
    return render(request, f"handbook/{language()}/{part}.html", context)


@require_safe
def card(request, format: str):
    """The A4 card for every table: how the players enter their games on the phone."""
    if format not in ("html", "pdf"):
        raise Http404
    html = render_to_string(f"handbook/{language()}/card.html", {"pdf": format == "pdf"}, request=request)
    if format == "html":
        return HttpResponse(html)
    response = HttpResponse(render_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="so-tragt-ihr-ein.pdf"'
    return response
