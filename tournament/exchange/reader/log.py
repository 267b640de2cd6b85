"""``log``: the history's lines, each naming its table where it has one."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ...tournaments.models import ACTIONS
from .base import MAX_SMALL, _Reader, _shown


class LogReader(_Reader):
    """The log: one part of ``document._DocumentReader`` (after the matches: lines name tables)."""

    def log(self):
        self.log_lines = []
        tables = {(t.match, t.draw, t.number) for t in self.tables}
        for index, item in enumerate(self.array(self.document.get("log"), "", "log")):
            where = _("Log line %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "log")
            line = {
                "at": self.moment(item.get("at"), where, _("The time")),
                "action": self.choice(item.get("action"), list(ACTIONS), where, "action"),
                "by": self.text(item.get("by"), where, _("Who"), 150, required=False),
                "game": self.integer(item["game"], where, _("The game"), 1, MAX_SMALL)
                if item.get("game") is not None
                else None,
                "data": self.free(item.get("data", {}), where, "data"),
                "sheet": None,
            }
            if item.get("table") is not None:
                key = (item.get("match"), item.get("draw", 1), item.get("table"))
                whole = all(isinstance(v, int) and not isinstance(v, bool) for v in key)
                if not whole or key not in tables:
                    self.error(
                        where,
                        _("there is no such match, draw and table: %(key)s.") % {"key": _shown(list(key))},
                    )
                line["sheet"] = key
            self.log_lines.append(line)
