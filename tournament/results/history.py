"""A line of a sheet's history in words: what it changed about a game, before → after."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .effects import record_text
from .models import GameEntry
from .text import describe_record


def log_change(entry) -> str:
    """What a log line changed about a game: before → after, in words."""
    data = entry.data or {}
    if entry.action in ("entry.create",):
        return describe_record(data.get("after"))
    if entry.action in ("entry.update", "sheet.correct"):
        change = f"{describe_record(data.get('before'))} → {describe_record(data.get('after'))}"
        if data.get("reason"):  # 5.3.4: a correction names its reason
            return _("%(change)s (reason: %(reason)s)") % {"change": change, "reason": data["reason"]}
        return change
    if entry.action == "entry.delete":
        return describe_record(data.get("before"))
    if entry.action == "approval.grant":
        after = str(GameEntry.Contract((data.get("after") or {}).get("contract", "solo")).label)
        if data.get("before"):  # another contract approved for the game
            return f"{GameEntry.Contract(data['before'].get('contract', 'solo')).label} → {after}"
        return after
    if entry.action == "approval.withdraw":
        return str(GameEntry.Contract((data.get("before") or {}).get("contract", "solo")).label)
    if entry.action == "entry.rescored":
        return record_text(entry.game, data)
    if entry.action == "sheet.signatures_withdrawn":
        return ", ".join(str(name) for name in data.get("names", []))
    if entry.action == "sheet.sign" and data.get("seat"):
        method = _("on the pad") if data.get("method") == "pad" else _("on paper")
        return _("seat %(seat)s, %(name)s, %(method)s") % {
            "seat": data["seat"],
            "name": data.get("name", ""),
            "method": method,
        }
    return ""
