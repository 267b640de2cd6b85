"""One number of prize places (issue 28, item 5): the places the prize list declares when the
tournament has one (cash places, goods, the middle and the last place), the edit page's setting
otherwise. The certificates, the projector's highlight and the lots "touching the prize places"
(5.4.2) all ask here, and the pages say which of the two it is."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..hooks import Slot
from .models import Tournament


@dataclass(frozen=True)
class PrizePlaces:
    count: int  # places 1 to count get a prize: the certificates, the projector's highlight
    runs: tuple[range, ...]  # every place with a prize, the declared middle and last place too
    declared: bool  # from the prize list; else the edit page's setting

    def touches(self, first: int, last: int) -> bool:
        """Whether a tied group occupying places first–last takes a place with a prize."""
        return any(run.start <= last and first < run.stop for run in self.runs)

    @property
    def span(self) -> str:
        return "1" if self.count == 1 else f"1–{self.count}" if self.count else "—"

    @property
    def source(self) -> str:
        if self.declared:
            return _("as the prize list declares them")
        return _("as set on the edit page, no prize list declared")


def from_setting(tournament: Tournament) -> PrizePlaces:
    count = tournament.prize_places
    return PrizePlaces(count, (range(1, count + 1),), declared=False)


declared = Slot("The places the tournament's prize list gives, or None without a declaration.")  # prizes


def prize_places(tournament: Tournament) -> PrizePlaces:
    """The prize places of the tournament: the declared ones, or the setting's."""
    return declared(tournament) or from_setting(tournament)
