"""QR codes on paper and on screen (segno)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

QUIET_ZONE = 4  # modules of white around a QR code, as the standard asks


def qr_png(url: str) -> str:
    """The QR code of ``url`` as a PNG data URL of one pixel a module (the stylesheet draws it
    crisp at its printed size): cheap to make and cheap for WeasyPrint to lay out. segno makes
    it with a fixed mask instead of trying all eight (a fifth of the time; every mask gives a
    valid code)."""
    return segno.make(url, error="m", boost_error=False, mask=0).png_data_uri(scale=1, border=QUIET_ZONE)


def qr_vector(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG that takes the size the stylesheet gives it."""
    svg = segno.make(url, error="m").svg_inline(scale=1, border=QUIET_ZONE, omitsize=True)
    return mark_safe(svg)  # segno's own markup; the address is in it only as black and white
