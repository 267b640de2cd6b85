"""People's names as people look for them: Grünwald found as gruenwald, grunwald or Grünwald;
"Sepp Huber", "Huber Sepp" and "Huber, Sepp" the same person; lists sorted by surname in German
order (DIN 5007-1: Bäuml before Brandl, Höß before Huber), the same on SQLite and PostgreSQL."""

from __future__ import annotations

import re
import unicodedata

from django.db.models import F, Q, Value
from django.db.models.functions import Lower, Replace

UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
_UMLAUT_TABLE = str.maketrans(UMLAUTS)
PLAIN_UMLAUTS = {"ä": "a", "ö": "o", "ü": "u", "ß": "ss", "Ä": "a", "Ö": "o", "Ü": "u"}
_PLAIN_TABLE = str.maketrans(PLAIN_UMLAUTS)
_WORDS = re.compile(r"[\s,;]+")


def fold_umlauts(text: str) -> str:
    """Grünwald as gruenwald is written without umlauts."""
    return text.translate(_UMLAUT_TABLE)


def search_key(text: str) -> str:
    """What a search compares: lower case with umlauts and ß spelt out, so that ü/ue, ö/oe,
    ä/ae, ß/ss find each other both ways (the same as ``folded`` in the database)."""
    return fold_umlauts(text.casefold())


def plain_key(text: str) -> str:
    """The other spelling a search compares: umlauts as their letter (Müller as muller, Bäuml as
    bauml), ß as ss (the same as ``plain_folded`` in the database)."""
    return text.casefold().translate(_PLAIN_TABLE)


def _replaced(field: str, letters: dict[str, str]):
    expression = Lower(F(field))
    for letter, spelt in letters.items():
        expression = Replace(expression, Value(letter), Value(spelt.lower()))
    return expression


def folded(field: str):
    """search_key in the database, for a filter: lower case with umlauts spelt out (SQLite's
    lower() leaves Ä, Ö, Ü as they are, so both cases are replaced)."""
    return _replaced(field, UMLAUTS)


def plain_folded(field: str):
    """plain_key in the database (both cases replaced, as in ``folded``)."""
    return _replaced(field, PLAIN_UMLAUTS)


def query_words(query: str) -> list[tuple[str, str]]:
    """The words of a search, in either spelling: order and commas do not matter."""
    return [(search_key(word), plain_key(word)) for word in _WORDS.split(query.strip()) if word]


def name_forms(name: str) -> tuple[str, str]:
    """A name as ``query_words`` compare it (kept by pages that search in Python)."""
    return search_key(name), plain_key(name)


def forms_match(words: list[tuple[str, str]], forms: tuple[str, str]) -> bool:
    """Every word of the search is part of the name, in one spelling or the other."""
    spelt, plain = forms
    return all(word in spelt or bare in plain for word, bare in words)


def name_matches(query: str, *names: str) -> bool:
    """The search finds one of the names: "Huber, Sepp", "sepp huber" and "Hüber" alike."""
    words = query_words(query)
    return bool(words) and any(forms_match(words, name_forms(name)) for name in names)


def name_search(queryset, query: str, *fields: str):
    """The rows one of whose ``fields`` holds every word of the query (either spelling, any
    order): the same rule as ``name_matches``, in the database. A field across a relation may
    repeat rows: the caller adds ``distinct()``."""
    words = query_words(query)
    if not words:
        return queryset
    aliases = {}
    condition = Q()
    for index, field in enumerate(fields):
        spelt, plain = f"_spelt{index}", f"_plain{index}"
        aliases[spelt], aliases[plain] = folded(field), plain_folded(field)
        every = Q()
        for word, bare in words:
            every &= Q(**{f"{spelt}__contains": word}) | Q(**{f"{plain}__contains": bare})
        condition |= every
    return queryset.alias(**aliases).filter(condition)


def surname(name: str) -> str:
    """The surname of "Huber, Sepp" or of "Sepp Huber"."""
    name = name.strip()
    if "," in name:
        return name.split(",", 1)[0].strip()
    words = name.split()
    return words[-1] if words else ""


def _din(text: str) -> str:
    """DIN 5007-1: case folded, ä with a, ö with o, ü with u, ß as ss (any accent as its letter)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def sort_key(name: str) -> tuple[str, str, str]:
    """The one order of names in every list: by surname, then the whole name, as a German list
    does (DIN 5007-1), the name as written deciding last. Sorted in Python, so SQLite and
    PostgreSQL (whose collations differ) give the same order."""
    return _din(surname(name)), _din(name), name


def club_key(club: str) -> tuple[str, str]:
    """A club in the same German order."""
    return _din(club), club


def by_name(queryset, limit: int | None = None, field: str = "name", then: str = "pk"):
    """The rows in German order (``sort_key``, then ``then``), the first ``limit`` of them, and
    how many there are. Only names and keys are sorted (a tournament's or a club's few thousand);
    the rows shown are loaded whole, with the queryset's annotations."""
    keys = sorted(queryset.values_list("pk", field, then), key=lambda row: (sort_key(row[1]), row[2]))
    wanted = [pk for pk, _name, _then in keys[:limit]]
    found = {row.pk: row for row in queryset.filter(pk__in=wanted)}
    return [found[pk] for pk in wanted if pk in found], len(keys)


def initial(name: str) -> str:
    """The letter a name is listed under."""
    key = sort_key(name)[0]
    return key[:1].upper() if key[:1].isalpha() else "#"


def spoken(name: str) -> str:
    """A name as people are called, given name first: "Nußbaumer, Hias" is Hias Nußbaumer on his
    certificate, while the lists keep him under N. A name written that way already, or one whose
    parts cannot be told apart ("Huber, Sepp, Dr."), stays as it is."""
    family, comma, given = name.partition(",")
    family, given = family.strip(), given.strip()
    if not comma or not family or not given or "," in given:
        return name.strip()
    return f"{given} {family}"


def comma_parts(name: str) -> tuple[str, str, str]:
    """A listed name around the word its comma follows, comma included ("Großhuber-",
    "Weißenbacher,", " Franz"), for a printout to keep that word and its comma on one line; a
    name without a comma is all before."""
    family, comma, given = name.partition(",")
    family = family.rstrip()
    if not comma or not family:
        return name, "", ""
    cut = max(family.rfind(" "), family.rfind("-")) + 1
    return family[:cut], f"{family[cut:]},", given


def person_name(user) -> str:
    """How a member of staff is named where players and referees read it (who approved a Tout,
    who answered a call): the name given in the account, else the login name (the walk of
    issue 28 saw "genehmigt von tl_huber")."""
    full = user.get_full_name().strip() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()
