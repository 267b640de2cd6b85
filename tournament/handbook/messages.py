"""The handbook's part "Meldungen": every message of the rules engine and of the services, and
every mark of a sheet's rows, as the pages show them (in the active language, the changing parts
as "…"), with what to do."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext

from ..problems import MESSAGES
from .codes import SCORING, Advice
from .marks import MARKS
from .refusals import SERVICES

_BRACED = re.compile(r"\{\w+\}")  # the engine's messages: {game}, {value}
_NAMED = re.compile(r"%\(\w+\)s")  # the services' messages: %(game)s


@dataclass(frozen=True)
class Listed:
    """One message as a person meets it, its anchor in the handbook, and the advice."""

    anchor: str
    message: str
    advice: Advice


def _gaps(text: str) -> str:
    return _NAMED.sub("…", _BRACED.sub("…", text))


def rules_messages() -> list[Listed]:
    """The rules engine's messages (``scoring.problems.Code``), in the engine's order."""
    return [
        Listed(f"code-{code.value}", _gaps(str(MESSAGES[code])), advice) for code, advice in SCORING.items()
    ]


def service_messages() -> list[Listed]:
    """The refusals of the services and the table code, in the order of their text as shown."""
    listed = [
        Listed(f"service-{number}", _gaps(gettext(message)), advice)
        for number, (message, advice) in enumerate(SERVICES.items(), start=1)
    ]
    return sorted(listed, key=lambda entry: entry.message.lstrip("…“„ :").casefold())


def mark_messages() -> list[Listed]:
    """The marks of a sheet's rows and the sentences naming the other games a write changed."""
    return [
        Listed(f"mark-{number}", _gaps(gettext(message)), advice)
        for number, (message, advice) in enumerate(MARKS.items(), start=1)
    ]
