"""Creating and changing tournaments and their staff."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..hooks import Slot
from ..names import fold_umlauts
from .audit import record
from .models import OldSlug, StaffRole, Tournament, default_retention, slug_taken
from .organisations import Organisation
from .permissions import Perm, organisation_for, require

TOURNAMENT_FIELDS = (
    "prize_places",
    "check_in",
    "name",
    "slug",
    "date",
    "venue",
    "organiser",
    "profile",
    "rule_overrides",
    "status",
    "retention_until",
)

# What the base asks the capabilities above it; they answer at start-up (tournament/apps.py).
drawn = Slot("Was any match of the tournament drawn, a discarded draw too?")  # the draw
sync_matches = Slot("One match for each match of the tournament's rules.")  # the draw
has_results = Slot("Was any game or approval of the tournament ever recorded?")  # results


def free_slug(name: str) -> str:
    """A short name made from the tournament's name, that no tournament has or had."""
    base = slugify(fold_umlauts(name))[:70] or "turnier"
    slug, counter = base, 2
    while slug_taken(slug):
        slug, counter = f"{base}-{counter}", counter + 1
    return slug


@transaction.atomic
def create_tournament(user, organisation: Organisation | None = None, **fields) -> Tournament:
    """A new tournament of ``organisation`` (issue 29; ``organisation_for``: the user's only one
    when not named), its creator its organiser."""
    organisation = organisation_for(user, organisation)
    tournament = Tournament(
        organisation=organisation, **{k: v for k, v in fields.items() if k in TOURNAMENT_FIELDS}
    )
    if not tournament.slug:  # suggested from the name
        tournament.slug = free_slug(tournament.name)
    elif OldSlug.objects.filter(slug=tournament.slug).exists():
        raise ServiceError(
            _("The short name “%(slug)s” was another tournament's: its links still lead there.")
            % {"slug": tournament.slug}
        )
    tournament.full_clean()
    tournament.save()
    if getattr(user, "pk", None):  # from the command line there is nobody to make organiser
        StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    sync_matches(tournament)
    record(tournament, user, "tournament.create", name=tournament.name, organisation=organisation.slug)
    return tournament


@transaction.atomic
def update_tournament(user, tournament: Tournament, **fields) -> Tournament:
    require(user, tournament, Perm.EDIT_TOURNAMENT)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {k: str(getattr(tournament, k)) for k in fields if k in TOURNAMENT_FIELDS}
    for key in ("profile", "rule_overrides"):
        if key in fields and fields[key] != getattr(tournament, key) and drawn(tournament):
            raise ServiceError(
                _(
                    "The rules are fixed since the draw: every scoresheet is played and counted by "
                    "them. Draw again from scratch in a new tournament to play by others."
                )
            )
    old_slug = tournament.slug
    if "date" in fields and fields["date"] != tournament.date and tournament.has_signed_sheets:
        # 5.3.5: the retention of signed sheets runs from the tournament date
        raise ServiceError(_("Scoresheets are signed: the date of the tournament stays as it is (5.3.5)."))
    old_default = default_retention(tournament.date)
    for key, value in fields.items():
        if key in TOURNAMENT_FIELDS:
            setattr(tournament, key, value)
    if tournament.retention_until in (None, old_default):
        # Not set by hand: the retention follows the date (5.3.5).
        tournament.retention_until = default_retention(tournament.date)
    if (
        tournament.slug != old_slug
        and OldSlug.objects.filter(slug=tournament.slug).exclude(tournament=tournament).exists()
    ):
        raise ServiceError(
            _("The short name “%(slug)s” was another tournament's: its links still lead there.")
            % {"slug": tournament.slug}
        )
    tournament.full_clean()
    tournament.save()
    if tournament.slug != old_slug:  # printed QR codes and links keep working
        OldSlug.objects.filter(slug=tournament.slug).delete()
        OldSlug.objects.get_or_create(slug=old_slug, defaults={"tournament": tournament})
    sync_matches(tournament)
    after = {k: str(getattr(tournament, k)) for k in before}
    record(tournament, user, "tournament.update", before=before, after=after)
    return tournament


def _not_own_roles(user, tournament: Tournament, member) -> None:
    """Once a tournament has results nobody changes his own roles: the supervisor's powers
    (discarding results, correcting signed sheets) are given by somebody else, in the log."""
    if getattr(user, "pk", None) and member.pk == user.pk and has_results(tournament):
        raise ServiceError(
            _(
                "The tournament has results: you cannot change your own roles. "
                "Another organiser can, and the log keeps who did."
            )
        )


@transaction.atomic
def grant_role(user, tournament: Tournament, username: str, role: str) -> StaffRole:
    require(user, tournament, Perm.MANAGE_STAFF)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if role not in StaffRole.Role.values:
        raise ServiceError(_("There is no role “%(role)s”.") % {"role": role})
    try:
        member = get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise ServiceError(
            _("There is no user “%(name)s”: the site administrator creates users.") % {"name": username}
        ) from None
    _not_own_roles(user, tournament, member)
    staff, created = StaffRole.objects.get_or_create(tournament=tournament, user=member, role=role)
    if created:
        record(tournament, user, "staff.grant", username=username, role=role)
    return staff


@transaction.atomic
def revoke_role(user, tournament: Tournament, staff_id: int) -> StaffRole:
    require(user, tournament, Perm.MANAGE_STAFF)
    # Locked, so that two organisers removing each other cannot leave the tournament without one.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    staff = StaffRole.objects.filter(tournament=tournament, pk=staff_id).first()
    if staff is None:
        raise ServiceError(_("This role no longer exists."))
    if (
        staff.role == StaffRole.Role.ORGANISER
        and tournament.staff.filter(role=StaffRole.Role.ORGANISER).count() == 1
    ):
        raise ServiceError(_("The tournament keeps at least one organiser."))
    _not_own_roles(user, tournament, staff.user)
    record(tournament, user, "staff.revoke", username=staff.user.get_username(), role=staff.role)
    staff.delete()
    return staff
