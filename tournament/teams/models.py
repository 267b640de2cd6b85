"""A team of participants of one tournament (issue 17)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..tournaments.models import Tournament


class Team(models.Model):
    """Participants who are ranked together: the sum of their points, then of their 5.4.2
    counts, then lots."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team"), max_length=200)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name


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
