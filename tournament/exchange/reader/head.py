"""The document's ``tournament``: name, date, venue, status, retention and the rules."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.profiles import ProfileError, profile_from_exchange

from ...problems import problem_messages
from ...tournaments.models import RETENTION_MONTHS, Tournament, add_months
from .base import MAX_SMALL, DocumentError, _Reader


class HeadReader(_Reader):
    """The tournament: one part of ``document._DocumentReader``, which reads it first."""

    def head(self):
        head = self.obj(self.document.get("tournament"), "", "tournament")
        where = _("Tournament")
        self.name = self.text(head.get("name"), where, _("The name"), 200)
        self.day = self.date(head.get("date"), where, _("The date"))
        self.venue = self.text(head.get("venue"), where, _("The venue"), 200, required=False)
        self.organiser = self.text(head.get("organiser"), where, _("The organiser"), 200, required=False)
        self.wanted_slug = self.text(head.get("slug"), where, _("The short name"), 80, required=False)
        status = head.get("status", Tournament.Status.FINISHED)
        self.status = (
            self.choice(status, Tournament.Status.values, where, "status") or Tournament.Status.FINISHED
        )
        if head.get("status_automatic") is True:  # this project's writer: it follows the tournament
            self.status = ""
        self.check_in = self.flag(head.get("check_in"), where, "check_in")
        prize_places = head.get("prize_places", 3)
        self.prize_places = self.integer(prize_places, where, _("The prize places"), 1, MAX_SMALL) or 3
        self.retention_until = None
        if head.get("retention_until") is not None and self.day is not None:
            least = add_months(self.day, RETENTION_MONTHS)
            self.retention_until = self.date(
                head["retention_until"], where, _("The retention date"), low=least
            )  # 5.3.5: never shorter than 6 months after the tournament
        try:
            self.profile = profile_from_exchange(self.obj(head.get("rules") or {}, where, "rules"))
        except ProfileError as error:
            for message in problem_messages(error.problems):
                self.error(_("Rules"), message)
            raise DocumentError(self.errors) from None
