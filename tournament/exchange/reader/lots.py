"""``lots``: the lots drawn between equal participants, with their groups."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .base import MAX_INTEGER, _Reader


class LotsReader(_Reader):
    """Lots: one part of ``document._DocumentReader`` (after the people and the matches)."""

    def lots(self):
        self.lot_draws = []
        for index, item in enumerate(self.array(self.document.get("lots"), "", "lots")):
            where = _("Lot %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "lot")
            match = item.get("match")
            if match is not None:
                match = self.integer(match, where, _("The match"), 1, self.profile.matches)
            groups = []
            for group in self.array(item.get("groups"), where, "groups"):
                group = self.obj(group, where, "group")
                key, members = group.get("key"), group.get("members")
                if (
                    not isinstance(key, list)
                    or len(key) > 10
                    or any(isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_INTEGER for v in key)
                    or not isinstance(members, list)
                    or any(m not in self.numbers for m in members if not isinstance(m, bool))
                    or any(isinstance(m, bool) for m in members)
                ):
                    self.error(
                        where, _("a group of a lot holds its key and the start numbers of its members.")
                    )
                    continue
                groups.append(
                    {
                        "key": key,
                        "rank": self.integer(group.get("rank", 1), where, _("The rank")),
                        "members": members,
                    }
                )
            lot = {
                "match": match,
                "seed": self.text(item.get("seed"), where, _("The seed"), 64),
                "prize_places_only": bool(item.get("prize_places_only")),
                "groups": groups,
            }
            self.lot_draws.append(lot)
