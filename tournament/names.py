"""People's names as people look for them: Grünwald found as gruenwald and the other way round,
lists sorted by surname ("Huber, Sepp" and "Sepp Huber" both under H)."""

from __future__ import annotations

import unicodedata

from django.db.models import F, Value
from django.db.models.functions import Lower, Replace

UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
_UMLAUT_TABLE = str.maketrans(UMLAUTS)


def fold_umlauts(text: str) -> str:
    """Grünwald as gruenwald is written without umlauts."""
    return text.translate(_UMLAUT_TABLE)


def search_key(text: str) -> str:
    """What a search compares: lower case with umlauts and ß spelt out, so that ü/ue, ö/oe,
    ä/ae, ß/ss find each other both ways (the same as ``folded`` in the database)."""
    return fold_umlauts(text.casefold())


def folded(field: str):
    """search_key in the database, for a filter: lower case with umlauts spelt out (SQLite's
    lower() leaves Ä, Ö, Ü as they are, so both cases are replaced)."""
    expression = Lower(F(field))
    for letter, spelt in UMLAUTS.items():
        expression = Replace(expression, Value(letter), Value(spelt.lower()))
    return expression


def surname(name: str) -> str:
    """The surname of "Huber, Sepp" or of "Sepp Huber"."""
    name = name.strip()
    if "," in name:
        return name.split(",", 1)[0].strip()
    words = name.split()
    return words[-1] if words else ""


def surname_key(name: str) -> tuple[str, str]:
    """Sorting by surname, then the whole name, as a German list does (ä with a, DIN 5007-1)."""

    def plain(text: str) -> str:
        return "".join(
            c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c)
        )

    return plain(surname(name)), plain(name)


def initial(name: str) -> str:
    """The letter a name is listed under."""
    key = surname_key(name)[0]
    return key[:1].upper() if key[:1].isalpha() else "#"
