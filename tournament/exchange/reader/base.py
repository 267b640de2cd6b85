"""The reader's shared helpers: the limits of stored fields, the refusal, and ``_Reader``, which
collects every problem of a document instead of stopping at the first (each section's reader
builds on it); the places and values messages name."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from ...tournaments.models import EARLIEST_DATE, LATEST_DATE

FORMAT = "schafkopf-tournament/1"
MAX_DOCUMENT_BYTES = 100 * 1024 * 1024
MAX_INTEGER = 2_147_483_647  # the largest whole number every database column here holds
MAX_SMALL = 32_767
MAX_DEPTH = 24  # free-form values (log data, hand checks, entries before and after)
EARLIEST, LATEST = EARLIEST_DATE, LATEST_DATE
DIGEST = re.compile(r"[0-9a-f]{64}")
IMAGE_PREFIX = "data:image/png;base64,"
MAX_IMAGE = 500_000


class DocumentError(ValueError):
    """The document is refused; ``messages`` says everything that is wrong."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a value (iteratively: any depth is measured)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class _Reader:
    """Collects every problem of a document instead of stopping at the first."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, where: str, text: str) -> None:
        self.errors.append(f"{where}: {text}" if where else text)

    def integer(self, value: Any, where: str, what: str, low: int = 1, high: int = MAX_INTEGER):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.error(
                where,
                _("%(what)s must be a whole number %(limits)s, not %(value)s.")
                % {"what": what, "limits": f"{low}–{high}", "value": _shown(value)},
            )
            return None
        return value

    def text(self, value: Any, where: str, what: str, limit: int, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.error(where, _("%(what)s is missing or not text.") % {"what": what})
            return ""
        if "\x00" in value:
            self.error(where, _("%(what)s holds a NUL character.") % {"what": what})
            return ""
        if len(value) > limit:
            self.error(
                where, _("%(what)s is longer than %(limit)s characters.") % {"what": what, "limit": limit}
            )
            return ""
        return value.strip()

    def date(self, value: Any, where: str, what: str, required: bool = True, low=EARLIEST, high=LATEST):
        if value is None and not required:
            return None
        try:
            day = datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            day = None
        if day is None or not low <= day <= high:
            self.error(
                where,
                _("%(what)s must be a date like 2026-11-21 between %(low)s and %(high)s, not %(value)s.")
                % {"what": what, "value": _shown(value), "low": low.isoformat(), "high": high.isoformat()},
            )
            return None
        return day

    def moment(self, value: Any, where: str, what: str, required: bool = True):
        if value is None and not required:
            return None
        try:
            moment = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            moment = None
        if moment is None or not EARLIEST <= moment.date() <= LATEST:
            self.error(
                where,
                _("%(what)s must be a time like 2026-11-21T14:05:00+01:00, not %(value)s.")
                % {"what": what, "value": _shown(value)},
            )
            return None
        return moment if timezone.is_aware(moment) else timezone.make_aware(moment)

    def flag(self, value: Any, where: str, what: str) -> bool:
        """An added yes/no field: absent is no."""
        if value is None:
            return False
        if not isinstance(value, bool):
            self.error(where, _("The field “%(what)s” must be true or false.") % {"what": what})
            return False
        return value

    def obj(self, value: Any, where: str, what: str) -> dict:
        if not isinstance(value, dict):
            self.error(where, _("The field “%(what)s” must be an object ({…}).") % {"what": what})
            return {}
        return value

    def array(self, value: Any, where: str, what: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.error(where, _("The field “%(what)s” must be a list ([…]).") % {"what": what})
            return []
        return value

    def free(self, value: Any, where: str, what: str) -> Any:
        """A value stored as it is (log data, a hand check): no deeper than MAX_DEPTH, no NUL."""
        if _depth(value) > MAX_DEPTH:
            deeper = _("The field “%(what)s” nests deeper than %(n)s levels.")
            self.error(where, deeper % {"what": what, "n": MAX_DEPTH})
            return None
        if "\\u0000" in json.dumps(value):
            self.error(where, _("The field “%(what)s” holds a NUL character.") % {"what": what})
            return None
        return value

    def choice(self, value: Any, choices, where: str, what: str):
        if not isinstance(value, str) or value not in choices:
            self.error(
                where,
                _("“%(value)s” is not a valid value of the field “%(field)s” (one of: %(choices)s).")
                % {"value": _named(value), "field": what, "choices": ", ".join(choices)},
            )
            return None
        return value


def _shown(value: Any) -> str:
    """A value for a message: its JSON, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _named(value: Any) -> str:
    """A name for a message: as written when it is short text, else its JSON."""
    if isinstance(value, str) and len(value) <= 60 and value.isprintable():
        return value
    return _shown(value)


def _place(match=None, table=None, game=None, draw=None) -> str:
    parts = []
    if match is not None:
        parts.append(_("match %(n)s") % {"n": match})
    if draw is not None:
        parts.append(_("discarded draw %(n)s") % {"n": draw})
    if table is not None:
        parts.append(_("table %(n)s") % {"n": table})
    if game is not None:
        parts.append(_("game %(n)s") % {"n": game})
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


def _enum(reader: _Reader, value: Any, enum, where: str, what: str):
    """An exchange-format name as its enum, or None after saying which value is unknown."""
    name = reader.choice(value, [member.value for member in enum], where, what)
    return enum(name) if name is not None else None
