"""Who manages the register and the series. A series spans tournaments, so no role in one
tournament can grant it: as for creating tournaments (``can_create_tournament``), Django's model
permissions decide, given by the site administrator in the admin."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, has_perm


def _granted(user, codename: str) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and getattr(user, "is_active", False)
        and (user.is_superuser or user.has_perm(f"tournament.{codename}"))
    )


def can_manage_series(user) -> bool:
    """Create and change series, attach any tournament: superuser or ``tournament.add_series``."""
    return _granted(user, "add_series")


def can_manage_register(user) -> bool:
    """See the register, add a tournament's participants to it: superuser or
    ``tournament.add_person``."""
    return _granted(user, "add_person")


def can_attach(user, tournament: Tournament) -> bool:
    """A tournament joins or leaves a series by its organiser or by a series manager."""
    return can_manage_series(user) or has_perm(user, tournament, Perm.EDIT_TOURNAMENT)


def require_series_manager(user) -> None:
    if not can_manage_series(user):
        raise PermissionDenied("add_series")


def require_register_manager(user) -> None:
    if not can_manage_register(user):
        raise PermissionDenied("add_person")
