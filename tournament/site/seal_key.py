"""The server's public seal key (issue 27), for anybody who checks a seal: as a page, and as
plain text (``?format=text``) for a script."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..sealkey import public_key, spaced


@require_safe
def seal_key(request):
    key = public_key()
    if request.GET.get("format") == "text":
        return HttpResponse(key + "\n", content_type="text/plain; charset=utf-8")
    return render(request, "public/seal_key.html", {"key": key, "spaced": spaced(key)})
