"""JSON typed or uploaded by people: read safely, and what is wrong said in their language
(the json module's own messages are English and name no place a person can find)."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The json module's messages, as its decoder words them (json/decoder.py, json/scanner.py).
DECODER_MESSAGES = {
    "Expecting value": gettext_lazy("a value is expected"),
    "Expecting ',' delimiter": gettext_lazy('a comma "," is missing'),
    "Expecting ':' delimiter": gettext_lazy('a colon ":" is missing'),
    "Expecting property name enclosed in double quotes": gettext_lazy("a name in double quotes is expected"),
    "Unterminated string starting at": gettext_lazy("a text is not closed by a double quote"),
    "Invalid control character at": gettext_lazy("a text holds a control character (e.g. a line break)"),
    "Invalid \\escape": gettext_lazy("a text holds an invalid backslash escape"),
    "Invalid \\uXXXX escape": gettext_lazy("a text holds an invalid \\u escape"),
    "Extra data": gettext_lazy("something follows after the end"),
}


class JSONTextError(ValueError):
    """What is wrong with a JSON text, worded for the person who wrote or uploaded it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` that never escapes with a RecursionError, a digit-limit ValueError or an
    English message: every failure is a JSONTextError naming the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        reason = next(
            (text for start, text in DECODER_MESSAGES.items() if error.msg.startswith(start)),
            gettext_lazy("it cannot be read from here on"),
        )
        raise JSONTextError(
            _("This is not valid JSON: line %(line)s, column %(column)s: %(reason)s.")
            % {"line": error.lineno, "column": error.colno, "reason": reason}
        ) from None
    except UnicodeDecodeError as error:
        raise JSONTextError(
            _("The file is not written in UTF-8 (byte %(position)s cannot be read); save it as UTF-8.")
            % {"position": error.start + 1}
        ) from None
    except RecursionError:
        raise JSONTextError(_("Lists or objects nest too deeply to be read.")) from None
    except ValueError:  # an integer with thousands of digits (sys.get_int_max_str_digits)
        raise JSONTextError(_("A number is too long to be read.")) from None
