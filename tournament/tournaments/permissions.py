"""Named permissions per tournament (STYLE 5). A user's roles in a tournament give him a set of
permissions there and nowhere else; services check them, views check them again for the page."""

from __future__ import annotations

from enum import StrEnum

from django.core.exceptions import PermissionDenied

from .models import StaffRole, Tournament


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
    roles = StaffRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
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


def can_create_tournament(user) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and (user.is_superuser or user.has_perm("tournament.add_tournament"))
    )
