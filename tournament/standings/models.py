"""Lots drawn for ties (5.4.2)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..tournaments.models import Tournament


class LotDraw(models.Model):
    """Lots drawn for participants still equal after 5.4.2, for the overall standings or one
    match: seeded, stored, reproducible (RULINGS 13). ``groups`` holds each tied group's key
    and its members' start numbers in the order the lot decided."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="lots")
    match = models.PositiveIntegerField(_("match"), null=True, blank=True)  # None: overall
    seed = models.CharField(_("seed"), max_length=64)
    prize_places_only = models.BooleanField(_("only ties touching prize places"), default=False)
    groups = models.JSONField(default=list)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("lot draw")
        verbose_name_plural = _("lot draws")

    def __str__(self) -> str:
        return f"{self.tournament} – {self.match or _('overall')}: {self.seed}"
