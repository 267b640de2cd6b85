"""Participants and their substitutes (5.2.11), and the teams they may be ranked in (issue 17)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..names import club_key, sort_key
from ..tournaments.models import Tournament

MAX_START_NUMBER = 2_147_483_647  # what every database stores in the column


class Participant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        RESERVE = "reserve", _("reserve player")
        WITHDRAWN = "withdrawn", _("withdrawn")
        NO_SHOW = "no_show", _("did not come")  # marked at check-in, before the draw (issue 17)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    number = models.PositiveIntegerField(
        _("start number"), validators=[MinValueValidator(1), MaxValueValidator(MAX_START_NUMBER)]
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE)
    # The day at the door (issue 17): checked in, and the entry fee paid.
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    fee_paid = models.BooleanField(_("entry fee paid"), default=False)
    team = models.ForeignKey(
        "tournament.Team",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )
    # Who this is in the club's register, when taken from it or added to it.
    person = models.ForeignKey(
        "tournament.Person",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="participations",
        verbose_name=_("person in the register"),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="start_number_unique_per_tournament"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="start_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"

    @property
    def checked_in(self) -> bool:
        return self.checked_in_at is not None

    @property
    def name_order(self) -> tuple:
        """Where the name stands in a German list (names.sort_key)."""
        return sort_key(self.name)

    @property
    def club_order(self) -> tuple:
        return club_key(self.club)

    @property
    def substitutes(self):
        """Its substitutions in order: as loaded in bulk (``known_substitutions``, set by
        ``results.load.load_sheets``) or as prefetched or read."""
        known = getattr(self, "known_substitutions", None)
        return known if known is not None else self.substitutions.all()

    def player_name(self, match: int, game: int = 1) -> str:
        """Who plays for this start number in that match and game (5.2.11, RULINGS 14)."""
        current = self.name
        for substitution in self.substitutes:
            if (substitution.from_match, substitution.from_game) <= (match, game):
                current = substitution.name
        return current


class Substitution(models.Model):
    """From ``from_match``/``from_game`` on, ``name`` plays for the start number, taking over its
    seat and points (5.2.11, RULINGS 14). The participant's own name stays in the history."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="substitutions")
    name = models.CharField(_("substitute's name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)  # 5.2.12
    from_match = models.PositiveIntegerField(_("from match"))
    from_game = models.PositiveIntegerField(_("from game"), default=1)
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["from_match", "from_game"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "from_match", "from_game"],
                name="one_substitution_per_moment",
            ),
            models.CheckConstraint(
                condition=Q(from_match__gte=1) & Q(from_game__gte=1),
                name="substitution_from_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} → {self.participant}"


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
