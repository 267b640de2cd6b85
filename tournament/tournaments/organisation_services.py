"""Writes of the organisations (issue 29, item 2): the site administrator creates one and names
its first administrator, or approves a signed-in user's request; an organisation's
administrators take in members and make them administrators. Each write is in the
organisations' log (``record_organisation``)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.core.validators import slug_re
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..names import fold_umlauts
from .organisations import Organisation, OrganisationMember, OrganisationRequest, record_organisation
from .permissions import is_administrator

logger = logging.getLogger(__name__)

# The addresses of /verein/ itself beside /verein/<slug>/ (tournament.urls).
RESERVED_ORGANISATION_SLUGS = frozenset({"new", "request", "requests"})


def _site_admin(user) -> None:
    if not (getattr(user, "is_authenticated", False) and getattr(user, "is_superuser", False)):
        raise PermissionDenied("site administrator")


def _user_named(username: str):
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise ServiceError(
            _("There is no user “%(name)s”: the site administrator creates users.") % {"name": username}
        ) from None


def free_organisation_slug(name: str) -> str:
    base = slugify(fold_umlauts(name))[:70] or "verein"
    slug, counter = base, 2
    while slug in RESERVED_ORGANISATION_SLUGS or Organisation.objects.filter(slug=slug).exists():
        slug, counter = f"{base}-{counter}", counter + 1
    return slug


def _new(name: str, slug: str) -> Organisation:
    name = name.strip()
    if not name:
        raise ServiceError(_("Give the organisation a name."))
    slug = slug or free_organisation_slug(name)
    if len(slug) > 80 or not slug_re.fullmatch(slug):
        raise ServiceError(_("A short name has letters, digits and hyphens only, at most 80."))
    if slug in RESERVED_ORGANISATION_SLUGS:
        raise ServiceError(
            _("“%(slug)s” is an address of the site itself: choose another short name.") % {"slug": slug}
        )
    if Organisation.objects.filter(slug=slug).exists():
        raise ServiceError(_("Another organisation has the short name “%(slug)s”.") % {"slug": slug})
    return Organisation.objects.create(name=name, slug=slug)


@transaction.atomic
def create_organisation(user, name: str, slug: str, admin_username: str) -> Organisation:
    """The site administrator's: a new organisation with its first administrator."""
    _site_admin(user)
    admin = _user_named(admin_username)
    organisation = _new(name, slug)
    OrganisationMember.objects.create(organisation=organisation, user=admin, is_admin=True)
    record_organisation(
        organisation, user, "organisation.create", name=organisation.name, slug=organisation.slug
    )
    record_organisation(organisation, user, "member.add", username=admin.get_username(), admin=True)
    return organisation


@transaction.atomic
def request_organisation(user, name: str, reason: str) -> OrganisationRequest:
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("signed in")
    if not name.strip() or not reason.strip():
        raise ServiceError(_("Say the organisation's name and what it is for."))
    if OrganisationRequest.objects.filter(user=user, status=OrganisationRequest.Status.OPEN).count() >= 3:
        raise ServiceError(
            _("You have three requests open already: wait for the site administrator's answer.")
        )
    asked = OrganisationRequest.objects.create(user=user, name=name.strip(), reason=reason.strip())
    record_organisation(None, user, "organisation.request", name=asked.name, request=asked.pk)
    return asked


def _open(request_id: int) -> OrganisationRequest:
    asked = OrganisationRequest.objects.select_for_update().filter(pk=request_id).first()
    if asked is None or asked.status != OrganisationRequest.Status.OPEN:
        raise ServiceError(_("This request was answered already."))
    return asked


def _tell_asker(asked: OrganisationRequest, site: str) -> None:
    """The asker learns the answer by e-mail where his account has an address, once the answer
    is stored (a mail server that fails costs the mail, never the answer: it is logged, and
    the asker's own request page says the answer too). ``site``: the site's address, for the
    link to the organisation's page."""
    address = asked.user.email
    if not address:
        return

    def send() -> None:
        with translation.override(settings.LANGUAGE_CODE):
            if asked.status == OrganisationRequest.Status.APPROVED:
                page = reverse("organisation:page", args=[asked.organisation.slug])
                subject = _("Schafkopf-Turnier: %(name)s was created") % {"name": asked.name}
                body = _(
                    "Your request was approved: %(name)s was created, with you as its administrator.\n"
                    "Its page: %(link)s"
                ) % {"name": asked.name, "link": site.rstrip("/") + page}
            else:
                subject = _("Schafkopf-Turnier: your request for %(name)s") % {"name": asked.name}
                body = _("Your request for the organisation %(name)s was declined.") % {"name": asked.name}
        try:
            send_mail(subject, body, None, [address])
        except Exception as error:  # whatever the mail server or the message raises, after the commit
            logger.warning("The answer to organisation request %s could not be mailed: %s", asked.pk, error)

    transaction.on_commit(send)


@transaction.atomic
def approve_request(user, request_id: int, slug: str = "", site: str = "") -> Organisation:
    """The organisation asked for, with whoever asked as its administrator; he is told by
    e-mail (``_tell_asker``)."""
    _site_admin(user)
    asked = _open(request_id)
    organisation = _new(asked.name, slug)
    OrganisationMember.objects.create(organisation=organisation, user=asked.user, is_admin=True)
    asked.status, asked.organisation = OrganisationRequest.Status.APPROVED, organisation
    asked.decided_by, asked.decided = user, timezone.now()
    asked.save()
    record_organisation(
        organisation,
        user,
        "organisation.approve",
        name=organisation.name,
        slug=organisation.slug,
        username=asked.user.get_username(),
    )
    _tell_asker(asked, site)
    return organisation


@transaction.atomic
def decline_request(user, request_id: int, site: str = "") -> OrganisationRequest:
    """The request declined; the asker is told by e-mail (``_tell_asker``)."""
    _site_admin(user)
    asked = _open(request_id)
    asked.status, asked.decided_by, asked.decided = OrganisationRequest.Status.DECLINED, user, timezone.now()
    asked.save()
    record_organisation(
        None,
        user,
        "organisation.decline",
        name=asked.name,
        username=asked.user.get_username(),
        request=asked.pk,
    )
    _tell_asker(asked, site)
    return asked


def _require_admin(user, organisation: Organisation) -> None:
    if not is_administrator(user, organisation):
        raise PermissionDenied("organisation administrator")


@transaction.atomic
def add_member(user, organisation: Organisation, username: str, is_admin: bool = False) -> OrganisationMember:
    """A user into the organisation (or his administrator's flag changed, if he is in)."""
    _require_admin(user, organisation)
    member_user = _user_named(username)
    member, created = OrganisationMember.objects.select_for_update().get_or_create(
        organisation=organisation, user=member_user, defaults={"is_admin": is_admin}
    )
    if created:
        record_organisation(organisation, user, "member.add", username=username, admin=is_admin)
    elif member.is_admin != is_admin:
        _keep_an_admin(organisation, member, is_admin)
        member.is_admin = is_admin
        member.save(update_fields=["is_admin"])
        record_organisation(organisation, user, "member.change", username=username, admin=is_admin)
    return member


def _keep_an_admin(organisation: Organisation, member: OrganisationMember, staying_admin: bool) -> None:
    if member.is_admin and not staying_admin and organisation.members.filter(is_admin=True).count() == 1:
        raise ServiceError(_("The organisation keeps at least one administrator."))


@transaction.atomic
def rename_organisation(user, organisation: Organisation, name: str) -> Organisation:
    """Its name as the public pages and every tournament's line show it; its address (the short
    name) stays, so printed links keep working. A site from before issue 29 starts as "Verein"."""
    _require_admin(user, organisation)
    name = name.strip()
    if not name:
        raise ValueError("an organisation's name is not empty (its form says so)")
    organisation = Organisation.objects.select_for_update().get(pk=organisation.pk)
    if name != organisation.name:
        before, organisation.name = organisation.name, name
        organisation.save(update_fields=["name"])
        record_organisation(organisation, user, "organisation.rename", name=name, before=before)
    return organisation


@transaction.atomic
def remove_member(user, organisation: Organisation, member_id: int) -> OrganisationMember:
    _require_admin(user, organisation)
    Organisation.objects.select_for_update().get(pk=organisation.pk)  # two removing each other
    member = organisation.members.select_related("user").filter(pk=member_id).first()
    if member is None:
        raise ServiceError(_("This member is no longer in the organisation."))
    _keep_an_admin(organisation, member, staying_admin=False)
    record_organisation(organisation, user, "member.remove", username=member.user.get_username())
    member.delete()
    return member
