"""The root of the hall's own certificate authority for the phones (issue 29, HALL_TLS=internal):
a page with its QR code, the download and the steps to install it, served over the hall's plain
HTTP too (a phone fetches it before it trusts the HTTPS address). Only with Caddy's internal CA;
with ACME, the club's own certificate or plain HTTP there is nothing to install (404)."""

from __future__ import annotations

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..documents.qr import qr_vector


def _root() -> bytes:
    if settings.HALL_TLS_MODE != "internal":
        raise Http404("The hall's HTTPS has no certificate authority of its own.")
    try:
        return settings.HALL_CA_ROOT.read_bytes()
    except OSError:
        raise Http404("Caddy has not made its certificate authority yet.") from None


def fingerprint(pem: bytes) -> str:
    """SHA-256 of the certificate, as phones show it (AB:CD:…), to compare by eye."""
    digest = x509.load_pem_x509_certificate(pem).fingerprint(hashes.SHA256()).hex().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


@require_safe
def hall_ca(request):
    pem = _root()
    page = (settings.HALL_HTTP_URL or request.build_absolute_uri("/").rstrip("/")) + "/hall/ca/"
    context = {
        "qr": qr_vector(page),
        "page": page,
        "fingerprint": fingerprint(pem),
        "https": settings.HALL_URL,
    }
    return render(request, "public/hall_ca.html", context)


@require_safe
def hall_ca_root(request):
    response = HttpResponse(_root(), content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="schafkopf-halle.crt"'
    return response
