"""HTML to PDF with WeasyPrint: every printed document of the app is a template drawn here."""

from __future__ import annotations

from urllib.parse import urlparse

from django.conf import settings
from django.contrib.staticfiles import finders
from weasyprint import HTML
from weasyprint.urls import URLFetcher


def _fetcher():
    """WeasyPrint reads /static/... from the static folders, as the browser does, and nothing
    from the network: documents hold only our files and data URLs (signatures, the grid)."""

    class StaticFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            path = urlparse(url).path
            if url.startswith("file:") and path.startswith(settings.STATIC_URL):
                found = finders.find(path[len(settings.STATIC_URL) :])
                if found:
                    url = f"file://{found}"
            return super().fetch(url, headers)

    return StaticFetcher(allowed_protocols=("file", "data"))


def render_pdf(html: str) -> bytes:
    """The PDF of a page of HTML."""
    return HTML(string=html, base_url="file:///", url_fetcher=_fetcher()).write_pdf()
