"""Organisations (issue 29, item 2): a club or an organiser on a site shared by several. Each owns
its tournaments, its player register and its series; its members create tournaments for it and
its administrators give the roles of all of them, keep its register and series and take in new
members. The site administrator creates organisations, or approves a signed-in user's request.

A site with one organisation (the laptop in the hall) never has to name it: ``sole_organisation``
is the organisation of whatever is created without one, made on first need (the migration of
issue 29 makes it for existing data). On a site with several, every write names it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Organisation(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("short name"),
        max_length=80,
        unique=True,
        help_text=_("Used in the address of its page, e.g. /verein/sk-au/."),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("organisation:page", args=[self.slug])


class SeveralOrganisations(ValueError):
    """Something was created without its organisation on a site that has several."""


def sole_organisation() -> Organisation:
    """The organisation of a site that has one: the existing one, or the default of the settings
    (``DEFAULT_ORGANISATION_NAME`` / ``_SLUG``) made now. With several there is no default."""
    found = list(Organisation.objects.order_by("pk")[:2])
    if len(found) == 1:
        return found[0]
    if found:
        raise SeveralOrganisations("this site has several organisations: say which one")
    organisation, _created = Organisation.objects.get_or_create(
        slug=settings.DEFAULT_ORGANISATION_SLUG, defaults={"name": settings.DEFAULT_ORGANISATION_NAME}
    )
    return organisation


class OrganisationMember(models.Model):
    """A user of the organisation: a member creates tournaments for it; an administrator also
    manages all its tournaments (an organiser's rights there), its register, series and members."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="members", verbose_name=_("organisation")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("user")
    )
    is_admin = models.BooleanField(_("administrator"), default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organisation", "-is_admin", "user__username"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(fields=["organisation", "user"], name="member_once_per_organisation")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.organisation})"


class OrganisationRequest(models.Model):
    """A signed-in user asks for an organisation; the site administrator approves (it is created
    with him as its administrator) or declines."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        # With its context: a plain "approved" is the late Solo's approval, "angemeldet" in German.
        APPROVED = "approved", pgettext_lazy("organisation request", "approved")
        DECLINED = "declined", _("declined")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("asked by")
    )
    name = models.CharField(_("name"), max_length=200)
    reason = models.TextField(_("reason"), max_length=2000)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.OPEN)
    organisation = models.ForeignKey(
        Organisation, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("request for an organisation")
        verbose_name_plural = _("requests for an organisation")

    def __str__(self) -> str:
        return self.name


# What the organisations' log knows: writes that belong to no tournament.
ORGANISATION_ACTIONS = {
    "organisation.create": _("organisation created"),
    "organisation.request": _("organisation requested"),
    "organisation.approve": _("request approved: organisation created"),
    "organisation.decline": _("request declined"),
    "organisation.rename": _("organisation renamed"),
    "member.add": _("member added"),
    "member.change": _("member changed"),
    "member.remove": _("member removed"),
    "series.create": _("series created"),
    "series.update": _("series changed"),
}


class OrganisationLogEntry(models.Model):
    """One write of an organisation's own (its members, requests, series), by whom and when:
    the tournaments' log (``LogEntry``) for what belongs to no tournament."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, null=True, blank=True, related_name="log"
    )
    action = models.CharField(_("action"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    user_name = models.CharField(_("by"), max_length=150, blank=True)
    data = models.JSONField(_("details"), default=dict, blank=True)
    created = models.DateTimeField(_("at"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("organisation log entry")
        verbose_name_plural = _("organisations' log")

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.action}"

    @property
    def label(self) -> str:
        return str(ORGANISATION_ACTIONS[self.action])

    @property
    def summary(self) -> str:
        data = self.data or {}
        return ", ".join(str(data[key]) for key in ("name", "username", "slug") if data.get(key))


def record_organisation(organisation: Organisation | None, user, action: str, **data) -> OrganisationLogEntry:
    if action not in ORGANISATION_ACTIONS:
        raise ValueError(f"unknown organisation log action {action!r}: declare it in ORGANISATION_ACTIONS")
    return OrganisationLogEntry.objects.create(
        organisation=organisation,
        action=action,
        user=user if getattr(user, "pk", None) else None,
        user_name=user.get_username() if hasattr(user, "get_username") else "",
        data=data,
    )
