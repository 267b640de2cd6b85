"""The "Hilfe" link in every page's header: the handbook's section for the page shown."""

from __future__ import annotations

from django.urls import reverse

from .sections import help_target


def help_link(request) -> dict:
    """``help_url``: the part and anchor of the handbook that explain this page (none on a page
    without one, e.g. an error page or the handbook itself)."""
    match = getattr(request, "resolver_match", None)
    target = help_target(match.view_name if match else None)
    if target is None:
        return {}
    part, anchor = target
    return {"help_url": f"{reverse('handbook:part', args=[part])}#{anchor}"}
