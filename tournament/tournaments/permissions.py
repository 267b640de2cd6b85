"""Named permissions per tournament (STYLE 5). A user's roles in a tournament give him a set of
permissions there and nowhere else; services check them, views check them again for the page."""

from __future__ import annotations

from enum import StrEnum

from django.core.exceptions import PermissionDenied
from django.db.models import CharField, Value
from django.utils.translation import gettext as _

from ..errors import ServiceError
from .models import StaffRole, Tournament
from .organisations import Organisation, OrganisationMember, sole_organisation


class Perm(StrEnum):
    VIEW_STAFF_PAGES = "view_staff_pages"
    EDIT_TOURNAMENT = "edit_tournament"
    MANAGE_STAFF = "manage_staff"
    EDIT_PARTICIPANTS = "edit_participants"
    DRAW = "draw"
    DISCARD_RESULTS = "discard_results"  # confirm a redraw of a match with results
    ENTER_RESULTS = "enter_results"
    APPROVE = "approve"  # 5.2.14, 5.2.16
    SANCTION = "sanction"  # 3.4.17: only the supervisor
    DRAW_LOTS = "draw_lots"  # 5.4.2
    CORRECT = "correct"  # 5.3.4, 5.3.6: signed sheets, void sheets
    VIEW_BIRTH_DATES = "view_birth_dates"  # personal data beyond the name: the organiser's


Role = StaffRole.Role

ROLE_PERMISSIONS: dict[str, frozenset[Perm]] = {
    Role.ORGANISER: frozenset(
        {
            Perm.VIEW_STAFF_PAGES,
            Perm.EDIT_TOURNAMENT,
            Perm.MANAGE_STAFF,
            Perm.EDIT_PARTICIPANTS,
            Perm.DRAW,
            Perm.DRAW_LOTS,
            Perm.VIEW_BIRTH_DATES,
        }
    ),
    Role.SUPERVISOR: frozenset(
        {
            Perm.VIEW_STAFF_PAGES,
            Perm.ENTER_RESULTS,
            Perm.APPROVE,
            Perm.SANCTION,
            Perm.DISCARD_RESULTS,
            Perm.CORRECT,
        }
    ),
    Role.REFEREE: frozenset({Perm.VIEW_STAFF_PAGES, Perm.ENTER_RESULTS}),
}


class CommandLineUser:
    """Whoever runs a management command on the server: trusted like the site administrator."""

    is_authenticated = True
    is_active = True
    is_superuser = True
    pk = None

    def get_username(self) -> str:
        return "manage.py"


COMMAND_LINE = CommandLineUser()


# What a table's phone may do with its code (issue 16), on its own sheet only (``within_scope``):
# enter and change games and sign. No approvals, no sanctions (3.4.17), no corrections.
TABLE_PERMISSIONS = frozenset({Perm.ENTER_RESULTS})


def permissions(user, tournament: Tournament) -> frozenset[Perm]:
    scope = getattr(user, "sheet_scope", None)
    if scope is not None:  # a table's phone: no account, the code's one sheet
        return TABLE_PERMISSIONS if scope.match.tournament_id == tournament.pk else frozenset()
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    if user.is_superuser:
        return frozenset(Perm)
    # His roles here, and an organiser's rights in every tournament of an organisation he is an
    # administrator of (issue 29): one query.
    roles = (
        StaffRole.objects.filter(tournament=tournament, user=user)
        .order_by()
        .values_list("role", flat=True)
        .union(
            OrganisationMember.objects.filter(
                organisation_id=tournament.organisation_id, user=user, is_admin=True
            )
            .order_by()
            .values_list(Value(Role.ORGANISER.value, output_field=CharField()), flat=True)
        )
    )
    granted: set[Perm] = set()
    for role in roles:
        granted |= ROLE_PERMISSIONS[role]
    return frozenset(granted)


def has_perm(user, tournament: Tournament, perm: Perm) -> bool:
    return perm in permissions(user, tournament)


def require(user, tournament: Tournament, perm: Perm) -> None:
    if not has_perm(user, tournament, perm):
        raise PermissionDenied(perm)


def within_scope(user, sheet) -> None:
    """A table's phone writes its own sheet and no other (issue 16); staff are not limited."""
    scope = getattr(user, "sheet_scope", None)
    if scope is not None and scope.pk != sheet.pk:
        raise PermissionDenied("sheet_scope")


def _signed_in(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_active", False))


def member_of(user):
    """The organisations whose tournaments the user may create (issue 29): his own; all for
    the site administrator (and the command line)."""
    if not _signed_in(user):
        return Organisation.objects.none()
    if user.is_superuser:
        return Organisation.objects.all()
    return Organisation.objects.filter(members__user=user).distinct()


def administrator_of(user):
    """The organisations whose register, series, members and tournaments the user manages."""
    if not _signed_in(user):
        return Organisation.objects.none()
    if user.is_superuser:
        return Organisation.objects.all()
    return Organisation.objects.filter(members__user=user, members__is_admin=True).distinct()


def is_administrator(user, organisation: Organisation) -> bool:
    return administrator_of(user).filter(pk=organisation.pk).exists()


def can_create_tournament(user, organisation: Organisation | None = None) -> bool:
    """A member of the organisation (of any, without one) or the site administrator, also on a
    fresh site without an organisation yet: his first tournament makes it (``organisation_for``)."""
    if organisation is None and _signed_in(user) and user.is_superuser:
        return True
    found = member_of(user)
    return (found.filter(pk=organisation.pk) if organisation is not None else found).exists()


def organisation_for(user, organisation: Organisation | None = None, admin: bool = False) -> Organisation:
    """The organisation something new of the user's belongs to: the one named, if he may create
    there (as its member, or ``admin``: its administrator); else the only one he may. A site
    without any makes its first for the site administrator (``sole_organisation``)."""
    allowed = administrator_of(user) if admin else member_of(user)
    if organisation is not None:
        if not allowed.filter(pk=organisation.pk).exists():
            raise PermissionDenied("organisation")
        return organisation
    found = list(allowed.order_by("pk")[:2])
    if len(found) == 1:
        return found[0]
    if found:
        raise ServiceError(_("You belong to several organisations: choose the one this is for."))
    if getattr(user, "is_superuser", False):
        return sole_organisation()
    raise PermissionDenied("organisation")
