"""The player register (persons kept across tournaments) and series of tournaments with their
own standings rule (issue 17)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..tournaments.organisations import Organisation, sole_organisation


class OwnedByOrganisation(models.Model):
    """Issue 29: kept by one organisation, seen by its staff only. A site with one organisation
    need not name it (``sole_organisation``)."""

    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, verbose_name=_("organisation"))

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if self.organisation_id is None:
            self.organisation = sole_organisation()
        super().save(*args, **kwargs)


class Person(OwnedByOrganisation):
    """A player in the register: taken into a tournament as a participant without typing him
    again. Falls under the retention of his tournaments (anonymised with the last of them)."""

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    # Issue 30: without it the public pages show him in a tournament's standings only, with no
    # season page or statistics of him; organisers always see everything.
    public_stats = models.BooleanField(
        _("agrees to a public season page"),
        default=False,
        help_text=_("His statistics, rating and tournaments on public pages."),
    )
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("person")
        verbose_name_plural = _("player register")

    def __str__(self) -> str:
        return self.name


class Series(OwnedByOrganisation):
    """Tournaments counted together (a Cup, a Liga): the sum of all results or of the best
    ``best_of``, at least ``min_attendances`` to be ranked, the top N or top X % qualify."""

    class Counting(models.TextChoices):
        ALL = "all", _("sum of all results")
        BEST = "best", _("sum of the best results")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    season = models.CharField(_("season"), max_length=40, blank=True)
    counting = models.CharField(_("counting"), max_length=10, choices=Counting.choices, default=Counting.ALL)
    best_of = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True)
    min_attendances = models.PositiveSmallIntegerField(_("minimum attendances"), default=0)
    qualify_top = models.PositiveIntegerField(_("qualify: the top N"), null=True, blank=True)
    qualify_percent = models.DecimalField(
        _("qualify: the top X %"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
    )
    fixed_numbers = models.BooleanField(
        _("start numbers fixed for the season"),
        default=False,
        help_text=_("A player keeps his start number in every tournament of the series."),
    )
    # Issue 30: the cup's awards (stats.awards.AWARDS keys) and the minimums they and the
    # season page's rating list ask for.
    awards = models.JSONField(_("awards"), default=list, blank=True)
    award_attendances = models.PositiveSmallIntegerField(
        _("awards: minimum attendances"),
        default=3,
        help_text=_("For the best average placing and the Pechvogel."),
    )
    rating_matches = models.PositiveSmallIntegerField(
        _("rating: minimum matches"),
        default=8,
        help_text=_("Ranked by rating, and for the best rating award, from this many matches on."),
    )
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesNumber(models.Model):
    """A person's start number for the whole season of a series."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="numbers")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="series_numbers")
    number = models.PositiveIntegerField(_("start number"), validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("season start number")
        verbose_name_plural = _("season start numbers")
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="series_number_unique"),
            models.UniqueConstraint(fields=["series", "person"], name="series_person_once"),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.number} {self.person}"
