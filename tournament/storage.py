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


MAX_SCAN_BYTES = 20 * 1024 * 1024  # a phone photo of an A4 list is a few MB
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1")  # what iPhones write


def scan_suffix(head: bytes) -> str | None:
    """The file suffix of a photo or scan known by its first 16 bytes, not by its name; None
    for anything else (a text or web page, say)."""
    if head.startswith(b"\xff\xd8\xff"):
        return ".jpg"
    if head.startswith(PNG_MAGIC):
        return ".png"
    if head.startswith(b"%PDF-"):
        return ".pdf"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return ".webp"
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return ".heic"
    return None
