"""A team of participants of one tournament (issue 17)."""

from __future__ import annotations

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
