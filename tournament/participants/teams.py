"""Creating, renaming and deleting teams and placing participants in them (issue 17)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from .models import Participant, Team

MAX_NAME = 200


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _clean_name(tournament: Tournament, name: str, exclude: int | None = None) -> str:
    """A team's name: given, storable, and no other team's in the tournament (in any case)."""
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("The team's name is missing."))
    if "\x00" in name or len(name) > MAX_NAME:
        raise ServiceError(_("A team's name is at most %(limit)s characters.") % {"limit": MAX_NAME})
    taken = Team.objects.filter(tournament=tournament, name__iexact=name).exclude(pk=exclude).first()
    if taken is None:  # iexact folds ASCII only on SQLite: compare folded names as well
        folded = name.casefold()
        taken = next(
            (
                team
                for team in Team.objects.filter(tournament=tournament).exclude(pk=exclude)
                if team.name.casefold() == folded
            ),
            None,
        )
    if taken is not None:
        raise ServiceError(_("There is already a team “%(name)s”.") % {"name": taken.name})
    return name


def _own_team(tournament: Tournament, team: Team) -> Team:
    """The team, locked, if it is this tournament's."""
    found = Team.objects.select_for_update().filter(pk=team.pk, tournament=tournament).first()
    if found is None:
        raise ServiceError(_("The team “%(name)s” belongs to another tournament.") % {"name": team.name})
    return found


@transaction.atomic
def create_team(user, tournament: Tournament, name: str) -> Team:
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    team = Team.objects.create(tournament=tournament, name=_clean_name(tournament, name))
    record(tournament, user, "team.create", name=team.name)
    return team


@transaction.atomic
def rename_team(user, tournament: Tournament, team: Team, name: str) -> Team:
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    team = _own_team(tournament, team)
    before = team.name
    team.name = _clean_name(tournament, name, exclude=team.pk)
    team.save(update_fields=["name"])
    record(tournament, user, "team.rename", name=team.name, before=before, after=team.name)
    return team


@transaction.atomic
def delete_team(user, tournament: Tournament, team: Team) -> None:
    """The team goes; its members stay registered, in no team."""
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    team = _own_team(tournament, team)
    members = sorted(team.members.values_list("number", flat=True))
    name = team.name
    team.delete()
    record(tournament, user, "team.delete", name=name, members=members)


@transaction.atomic
def assign(user, tournament: Tournament, team: Team | None, participants: Iterable[Participant]) -> None:
    """Place participants in ``team`` (``None``: in no team), taking them out of any other team.
    Only a participant of this tournament goes into one of its teams."""
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    if team is not None:
        team = _own_team(tournament, team)
    participants = list(participants)
    foreign = [p for p in participants if p.tournament_id != tournament.pk]
    if foreign:
        raise ServiceError(
            _(
                "Start number %(number)s (%(name)s) is a participant of another tournament: only "
                "this tournament's participants can be in its teams."
            )
            % {"number": foreign[0].number, "name": foreign[0].name}
        )
    if not participants:
        raise ServiceError(_("Choose at least one participant."))
    locked = list(
        Participant.objects.select_for_update(of=("self",))  # the team may be none (an outer join)
        .filter(pk__in=[p.pk for p in participants], tournament=tournament)
        .select_related("team")
        .order_by("number")
    )
    changes = []
    for participant in locked:
        if participant.team_id == (team.pk if team else None):
            continue
        before = participant.team.name if participant.team else ""
        participant.team = team
        changes.append((participant, before))
    Participant.objects.bulk_update([p for p, _before in changes], ["team"])
    for participant, before in changes:
        record(
            tournament,
            user,
            "team.assign" if team else "team.remove",
            number=participant.number,
            name=team.name if team else before,
            before=before,
            after=team.name if team else "",
        )


def assign_imported(user, tournament: Tournament, teams: dict[str, list[Participant]]) -> None:
    """The teams of an imported registration list: each name is an existing team (in any case)
    or a new one. Called inside the import's transaction."""
    existing = {team.name.casefold(): team for team in Team.objects.filter(tournament=tournament)}
    for name, members in teams.items():
        team = existing.get(name.casefold())
        if team is None:
            team = create_team(user, tournament, name)
            existing[team.name.casefold()] = team
        assign(user, tournament, team, members)
