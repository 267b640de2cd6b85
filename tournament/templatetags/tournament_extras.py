from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``values|get_item:"points"``: a dictionary value by a key held in a variable."""
    return mapping.get(key) if mapping else None
