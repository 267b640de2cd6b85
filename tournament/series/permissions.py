"""Who manages the register and the series. A series spans tournaments, so no role in one
tournament can grant it: the administrators of the organisation that owns the register and the
series manage them (issue 29), and the site administrator everywhere. A person of one
organisation's register is nobody's business in another."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from ..tournaments.models import Tournament
from ..tournaments.organisations import Organisation
from ..tournaments.permissions import Perm, administrator_of, has_perm


def _administers(user, organisation: Organisation | None) -> bool:
    found = administrator_of(user)
    return (found.filter(pk=organisation.pk) if organisation is not None else found).exists()


def can_manage_series(user, organisation: Organisation | None = None) -> bool:
    """Create and change the organisation's series (of any organisation of his, without one)."""
    return _administers(user, organisation)


def can_manage_register(user, organisation: Organisation | None = None) -> bool:
    """See the organisation's register, add a tournament's participants to it."""
    return _administers(user, organisation)


def can_attach(user, tournament: Tournament) -> bool:
    """A tournament joins or leaves a series by its organiser or by a series manager."""
    return can_manage_series(user, tournament.organisation) or has_perm(
        user, tournament, Perm.EDIT_TOURNAMENT
    )


def require_series_manager(user, organisation: Organisation) -> None:
    if not can_manage_series(user, organisation):
        raise PermissionDenied("series")


def require_register_manager(user, organisation: Organisation) -> None:
    if not can_manage_register(user, organisation):
        raise PermissionDenied("register")
