"""Private files: photos and scans of signed paper lists, uploaded tournament documents. They
hold names, signatures and dates of birth, so no address of the site serves them directly: they
live outside the static and media folders (``PRIVATE_ROOT``) under unguessable names, and only
views that check the tournament's staff read them."""

from __future__ import annotations

import secrets
from pathlib import PurePath

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.utils.deconstruct import deconstructible
from django.utils.functional import cached_property


@deconstructible(path="tournament.storage.PrivateStorage")
class PrivateStorage(FileSystemStorage):
    def __init__(self) -> None:
        super().__init__()

    @cached_property
    def base_location(self):
        return settings.PRIVATE_ROOT

    def _clear_cached_properties(self, setting, **kwargs):
        super()._clear_cached_properties(setting, **kwargs)
        if setting == "PRIVATE_ROOT":
            self.__dict__.pop("base_location", None)
            self.__dict__.pop("location", None)

    def url(self, name):
        raise ValueError("A private file has no address: a view that checks the staff serves it.")


private_storage = PrivateStorage()


def unguessable_name(folder: str, filename: str) -> str:
    """``folder/<random>.<suffix>``: the name tells nothing and cannot be guessed."""
    return f"{folder}/{secrets.token_urlsafe(24)}{PurePath(filename).suffix.lower()}"


def scan_name(sheet, filename: str) -> str:
    return unguessable_name("scans", filename)
