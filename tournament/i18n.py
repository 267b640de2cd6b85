"""Texts that are stored or written into documents rather than shown: in the installation's
language (settings.LANGUAGE_CODE), whatever language the person who caused them reads."""

from django.conf import settings
from django.utils import translation


def stored_text(text) -> str:
    """``text`` (a lazy translation) in the installation's language."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(text)
