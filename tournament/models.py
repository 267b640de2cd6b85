"""The tournament and its rule profile. Participants, matches and scoresheets follow."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.profiles import DEFAULT_PROFILE, PROFILES, ProfileError, RuleProfile, build_profile

from .problems import problem_messages

PROFILE_CHOICES = [
    ("schafkopfschule-2007", _("Schafkopfschule 2007 (official, 2 × 32 games)")),
    ("turnierregeln-3x16", _("Turnierregeln 3 × 16 games")),
]
assert {key for key, _label in PROFILE_CHOICES} == set(PROFILES)


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    profile = models.CharField(
        _("rule profile"), max_length=40, choices=PROFILE_CHOICES, default=DEFAULT_PROFILE.name
    )
    # RULINGS 15: overrides in the shape of the exchange format's ``rules`` object.
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("home") + f"#{self.slug}"

    @property
    def rules(self) -> RuleProfile:
        """The rule profile in force: the named profile with this tournament's overrides."""
        return build_profile(self.profile, self.rule_overrides)

    def clean(self) -> None:
        try:
            build_profile(self.profile, self.rule_overrides)
        except ProfileError as error:
            raise ValidationError({"rule_overrides": problem_messages(error.problems)}) from None
