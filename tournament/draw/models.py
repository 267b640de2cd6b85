"""Matches, their tables and seats (5.2.2)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ..participants.models import Participant
from ..tournaments.models import Tournament


class CurrentDraws(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(discarded_at__isnull=True)


class AllDraws(models.Manager):
    pass


class Match(models.Model):
    """One Durchgang: the games every table plays between two draws.

    Drawn again over results, a match keeps its discarded draw whole (tables, seats, sheets
    with their entries, approvals and history) as a row of its own with ``discarded_at`` set:
    ``Match.objects`` (and ``tournament.matches``) are the current draws, ``Match.all_draws``
    holds the discarded ones too."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField(_("match"))
    draw = models.PositiveSmallIntegerField(_("draw"), default=1)  # the how-many-th draw of it
    discarded_at = models.DateTimeField(_("discarded at"), null=True, blank=True)
    seed = models.CharField(_("seed of the draw"), max_length=64, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    objects = CurrentDraws()
    all_draws = AllDraws()

    class Meta:
        ordering = ["tournament", "number", "draw"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        base_manager_name = "all_draws"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=Q(discarded_at__isnull=True),
                name="match_number_unique",
            ),
            models.UniqueConstraint(fields=["tournament", "number", "draw"], name="match_draw_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="match_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('match')} {self.number}"

    @property
    def is_drawn(self) -> bool:
        return self.drawn_at is not None

    @property
    def is_discarded(self) -> bool:
        return self.discarded_at is not None


class Table(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table"))
    # 5.3.1: the player who keeps the scoresheet, by seat (1–5: a table of five has a seat 5).
    scorekeeper = models.PositiveSmallIntegerField(_("scorekeeper's seat"), default=1)
    # Four seats, or five where the dealer sits his game out (README readings): the sheet's
    # columns, its games (profile × 5/4) and rounds (five games) follow it.
    size = models.PositiveSmallIntegerField(_("seats"), default=4)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="table_number_unique"),
            models.CheckConstraint(
                condition=Q(scorekeeper__gte=1) & Q(scorekeeper__lte=F("size")),
                name="scorekeeper_is_a_seat",
            ),
            models.CheckConstraint(condition=Q(size__in=(4, 5)), name="table_of_four_or_five"),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number}"


class Seat(models.Model):
    """Positions 1–4 clockwise, 1–5 at a table of five; seat 1 deals game 1 (2.2.2)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Kept beside the table so that the database can refuse a participant twice in a match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    # A seated participant cannot be deleted alone; with the whole tournament he can.
    participant = models.ForeignKey(Participant, on_delete=models.RESTRICT, related_name="seats")
    # What this seat scored on its sheet, kept by the scoresheet service so that standings are
    # one aggregation over seats (5.4.1, 5.4.2, RULINGS 13).
    points = models.IntegerField(_("points"), default=0)
    sie = models.PositiveSmallIntegerField(default=0)
    tout_won = models.PositiveSmallIntegerField(default=0)
    tout_played = models.PositiveSmallIntegerField(default=0)
    solo_won = models.PositiveSmallIntegerField(default=0)
    solo_played = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "participant"], name="participant_once_per_match"),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=5), name="seat_position_1_to_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position}: {self.participant}"
