from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``values|get_item:"points"``: a dictionary value by a key held in a variable."""
    return mapping.get(key) if mapping else None


@register.filter
def points(values):
    """Four points as everywhere on the site, e.g. "+1 / -1 / +1 / -1"."""
    from ..results.text import points_text

    return points_text(values) if values else "—"
