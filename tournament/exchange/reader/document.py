"""The whole document, section by section: ``read_document``."""

from __future__ import annotations

from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from ...jsontext import JSONTextError, parse_json
from ...prizes.exchange import read_prizes
from ...teams.exchange import read_teams
from ...tournaments.models import slug_taken
from .base import FORMAT, MAX_DOCUMENT_BYTES, DocumentError
from .head import HeadReader
from .log import LogReader
from .lots import LotsReader
from .matches import MatchesReader
from .people import PeopleReader
from .plan import Plan
from .seals import SealsReader
from .signing import SigningReader


class _DocumentReader(
    HeadReader, PeopleReader, MatchesReader, SigningReader, SealsReader, LotsReader, LogReader
):
    """The whole document, part by part."""

    def __init__(self, document: dict) -> None:
        super().__init__()
        self.document = document
        self.notes: list[str] = []


def _unreadable_text(document: Any) -> str | None:
    """Where the document holds text that is no text: a lone surrogate (``"\\ud800"``), which
    JSON lets through and no database, page or file can store (issue 27). The place as the
    document's keys and indexes spell it, e.g. ``participants[0].name``; None when there is none."""
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return path or "/"
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{index}]") for index, item in enumerate(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                named = f"{path}.{key}" if path else str(key)
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    return path or "/"
                stack.append((item, named))
    return None


def _parsed(text: str | bytes) -> Any:
    if len(text) > MAX_DOCUMENT_BYTES:
        raise DocumentError([_("The document is larger than %(mb)s MB.") % {"mb": MAX_DOCUMENT_BYTES >> 20}])
    try:
        document = parse_json(text)
    except JSONTextError as error:
        raise DocumentError([error.message]) from None
    place = _unreadable_text(document)
    if place is not None:
        message = _("%(place)s: the text holds half of a character (a lone surrogate): it is no valid text.")
        raise DocumentError([message % {"place": place.encode("ascii", "backslashreplace").decode()[:120]}])
    return document


def read_document(text: str | bytes, slug: str | None = None) -> Plan:
    """Check a whole document; DocumentError lists everything that is wrong."""
    document = _parsed(text)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DocumentError(
            [_('This is not a tournament document: "format" must be "%(f)s".') % {"f": FORMAT}]
        )
    reader = _DocumentReader(document)
    reader.head()
    reader.participants()
    reader.substitutions()
    reader.matches()
    reader.late_substitutes()
    reader.seals()  # issue 27
    reader.lots()
    reader.log()
    reader.staff()
    teams = read_teams(reader, document.get("teams"), reader.numbers)  # issue 17
    prizes = read_prizes(reader, document.get("prizes"))  # issue 17
    if reader.errors:
        raise DocumentError(reader.errors)

    wanted = slugify(slug or reader.wanted_slug or reader.name)[:70] or "turnier"
    if slug and slug_taken(wanted):
        raise DocumentError([_("The short name “%(slug)s” is taken.") % {"slug": wanted}])
    chosen, counter = wanted, 2
    while slug_taken(chosen):
        chosen, counter = f"{wanted[:64]}-{counter}", counter + 1
    return Plan(
        name=reader.name,
        date=reader.day,
        venue=reader.venue,
        organiser=reader.organiser,
        slug=chosen,
        profile=reader.profile,
        status=reader.status,
        prize_places=reader.prize_places,
        retention_until=reader.retention_until,
        participants=reader.people,
        substitutions=reader.subs,
        draws=reader.draws,
        tables=reader.tables,
        lots=reader.lot_draws,
        staff=reader.roles,
        log=reader.log_lines,
        notes=reader.notes,
        teams=teams,
        check_in=reader.check_in,
        prizes=prizes,
        seals=reader.seal_links,
    )
