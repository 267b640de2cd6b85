"""``participants``, ``substitutions`` and ``staff``: the people of the tournament."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _

from ...participants.models import Participant
from ...participants.registration import age_on
from ...tournaments.models import StaffRole
from .base import _Reader, _shown


class PeopleReader(_Reader):
    """People: one part of ``document._DocumentReader`` (after the head: the rules say the
    least age and the matches)."""

    def birth_date(self, value: Any, where: str):
        """A participant's or substitute's date of birth, old enough on the day (5.2.12)."""
        birth = self.date(value, where, _("The date of birth"), required=False, high=timezone.localdate())
        if birth and self.day and age_on(birth, self.day) < self.profile.min_age:
            self.error(
                where,
                _("younger than %(age)s on the tournament day (5.2.12).") % {"age": self.profile.min_age},
            )
        return birth

    def participants(self):
        self.people: list[dict] = []
        self.numbers: set[int] = set()
        for index, item in enumerate(self.array(self.document.get("participants"), "", "participants")):
            item = self.obj(item, _("Participant %(n)s") % {"n": index + 1}, "participant")
            number = self.integer(
                item.get("number"), _("Participant %(n)s") % {"n": index + 1}, _("The start number")
            )
            where = _("Start number %(n)s") % {"n": number if number is not None else "?"}
            person = {
                "number": number,
                "name": self.text(item.get("name"), where, _("The name"), 200),
                "club": self.text(item.get("club"), where, _("The club"), 200, required=False),
                "birth_date": self.birth_date(item.get("birth_date"), where),
                "status": self.choice(
                    item.get("status", Participant.Status.ACTIVE), Participant.Status.values, where, "status"
                )
                or Participant.Status.ACTIVE,
                "checked_in_at": self.moment(
                    item.get("checked_in_at"), where, _("The check-in time"), required=False
                ),
                "fee_paid": self.flag(item.get("fee_paid"), where, "fee_paid"),
            }
            if number is None:
                continue
            if number in self.numbers:
                self.error(where, _("the start number is given twice."))
            self.numbers.add(number)
            self.people.append(person)

    def late_game_limit(self) -> int:
        """The last game a substitute may take over from: game 40 at a table of five."""
        return self.profile.games_for(5) if self.profile.tables_of_five else self.profile.games_per_match

    def late_substitutes(self):
        """A substitute from a game beyond a table of four's match takes over at a table of five
        (the service's rule, participants.services.substitute)."""
        for index, item in enumerate(self.subs):
            if item["from_game"] is None or item["from_game"] <= self.profile.games_per_match:
                continue
            at_five = any(
                len(table.seats) == 5 and item["number"] in table.seats
                for table in self.tables
                if table.match == item["from_match"]
            )
            if not at_five:
                self.error(
                    _("Substitution %(n)s") % {"n": index + 1},
                    _(
                        "start number %(n)s does not sit at a table of five in match %(match)s: "
                        "game %(game)s does not exist there."
                    )
                    % {"n": item["number"], "match": item["from_match"], "game": item["from_game"]},
                )

    def substitutions(self):
        self.subs: list[dict] = []
        moments = set()
        for index, item in enumerate(self.array(self.document.get("substitutions"), "", "substitutions")):
            where = _("Substitution %(n)s") % {"n": index + 1}
            item = self.obj(item, where, "substitution")
            number = self.integer(item.get("number"), where, _("The start number"))
            if number is None:
                continue
            if number not in self.numbers:
                self.error(where, _("start number %(n)s is not a participant.") % {"n": _shown(number)})
                continue
            substitution = {
                "number": number,
                "name": self.text(item.get("name"), where, _("The name"), 200),
                "club": self.text(item.get("club"), where, _("The club"), 200, required=False),
                "from_match": self.integer(
                    item.get("from_match"), where, _("The match"), 1, self.profile.matches
                ),
                "from_game": self.integer(  # up to 40 at a table of five (checked with the tables)
                    item.get("from_game", 1), where, _("The game"), 1, self.late_game_limit()
                ),
                "birth_date": self.birth_date(item.get("birth_date"), where),
            }
            moment = (number, substitution["from_match"], substitution["from_game"])
            if moment in moments:
                self.error(
                    where,
                    _("start number %(n)s has a substitute from match %(match)s, game %(game)s twice.")
                    % {"n": number, "match": moment[1], "game": moment[2]},
                )
            moments.add(moment)
            self.subs.append(substitution)

    def staff(self):
        self.roles: list[tuple[str, str]] = []
        items = self.array(self.document.get("staff"), "", "staff")
        names = [
            (
                self.text(item.get("username"), _("Staff"), _("The user name"), 150),
                self.choice(item.get("role"), StaffRole.Role.values, _("Staff"), "role"),
            )
            for item in (self.obj(item, _("Staff"), "staff") for item in items)
        ]
        known = set(
            get_user_model()
            .objects.filter(username__in=[n for n, _r in names if n])
            .values_list("username", flat=True)
        )
        for username, role in names:
            if not username or role is None:
                continue
            if username in known:
                self.roles.append((username, role))
            else:
                self.notes.append(
                    _("There is no user “%(name)s” here: the role %(role)s is not restored.")
                    % {"name": username, "role": StaffRole.Role(role).label}
                )
