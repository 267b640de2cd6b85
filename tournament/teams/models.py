"""The lots drawn for teams (issue 17); the team itself is a group of participants
(tournament/participants/models.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..tournaments.models import Tournament


class TeamLotDraw(models.Model):
    """Lots drawn for teams still equal after the sums of points and of the 5.4.2 counts:
    seeded, stored, reproducible, like ``LotDraw`` for participants (RULINGS 13). ``groups``
    holds each tied group's key, its shared rank and its teams' ids in the order the lot
    decided; the latest draw counts, for the groups that still tie as they did."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_lots")
    seed = models.CharField(_("seed"), max_length=64)
    groups = models.JSONField(default=list)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("team lot draw")
        verbose_name_plural = _("team lot draws")

    def __str__(self) -> str:
        return f"{self.tournament} – {_('teams')}: {self.seed}"
