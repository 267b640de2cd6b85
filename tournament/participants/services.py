"""Registering, changing and withdrawing participants; their teams (tournament/participants/teams.py).
A substitute takes over seats and sheets: tournament/results/substitutes.py."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from . import registration
from . import teams as team_service
from .models import Participant

PARTICIPANT_FIELDS = ("number", "name", "club", "birth_date", "status")


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def next_number(tournament: Tournament) -> int:
    return (tournament.participants.aggregate(m=Max("number"))["m"] or 0) + 1


def _check_person(tournament: Tournament, participant: Participant) -> None:
    """The checks of a registration list, for one participant (5.2.12 and duplicates)."""
    (row,) = registration.check(
        tournament,
        [
            registration.RegistrationRow(
                0,
                participant.number,
                participant.name,
                participant.club,
                participant.birth_date,
            )
        ],
        exclude=participant.pk,
    )
    if row.errors:
        sentences = [f"{error[:1].upper()}{error[1:]}." for error in row.errors]
        raise ServiceError(sentences[0], details=sentences[1:])


@transaction.atomic
def add_participant(user, tournament: Tournament, **fields) -> Participant:
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    values = {k: v for k, v in fields.items() if k in PARTICIPANT_FIELDS}
    if not values.get("number"):
        values["number"] = next_number(tournament)
    participant = Participant(tournament=tournament, **values)
    _check_person(tournament, participant)
    participant.save()
    record(tournament, user, "participant.add", number=participant.number, name=participant.name)
    if fields.get("team"):  # issue 17: checked and logged as any placing in a team
        team_service.assign(user, tournament, fields["team"], [participant])
    return participant


@transaction.atomic
def update_participant(user, participant: Participant, **fields) -> Participant:
    tournament = participant.tournament
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    _lock(tournament)
    participant = Participant.objects.select_for_update().get(pk=participant.pk)
    before = {k: str(getattr(participant, k)) for k in PARTICIPANT_FIELDS}
    for key, value in fields.items():
        if key in PARTICIPANT_FIELDS:
            setattr(participant, key, value)
    if before["number"] != str(participant.number) and participant.seats.exists():
        raise ServiceError(
            _("Start number %(number)s is already seated in a draw: it stays as it is.")
            % {"number": before["number"]}
        )
    _check_person(tournament, participant)
    participant.save()
    after = {k: str(getattr(participant, k)) for k in PARTICIPANT_FIELDS}
    record(tournament, user, "participant.update", number=participant.number, before=before, after=after)
    if "team" in fields:  # issue 17: checked and logged as any placing in a team
        team_service.assign(user, tournament, fields["team"], [participant])
    return participant


@transaction.atomic
def set_status(user, tournament: Tournament, participants, status: str) -> None:
    """Several participants at once to playing, reserve or withdrawn: all or none."""
    if status not in Participant.Status.values:
        raise ServiceError(_("Unknown status."))
    for participant in participants:
        if participant.tournament_id != tournament.pk:
            raise ServiceError(_("Unknown participant."))
        update_participant(user, participant, status=status)


@transaction.atomic
def import_participants(
    user, tournament: Tournament, rows: list[registration.RegistrationRow], only_accepted: bool = False
) -> list[Participant]:
    """All or nothing: the rows are checked again against the tournament as it is now; with
    refused rows nothing is saved unless the organiser asked for the accepted rows only.
    ``rows`` are as parsed, with the errors found in the file itself."""
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    tournament = _lock(tournament)
    rows = registration.check(tournament, [r.copy() for r in rows])
    refused = [r for r in rows if not r.accepted]
    if refused and not only_accepted:
        raise ServiceError(
            _("%(count)s rows would be refused: nothing was imported.") % {"count": len(refused)},
            details=[
                _("Row %(row)s: %(errors)s") % {"row": r.row, "errors": "; ".join(r.errors)} for r in refused
            ],
        )
    accepted = [r for r in rows if r.accepted]
    number = next_number(tournament)
    wanted = {r.number for r in accepted if r.number}
    created = []
    for row in accepted:
        if row.number is None:
            while number in wanted:
                number += 1
            row.number = number
            wanted.add(number)
        created.append(
            Participant(
                tournament=tournament,
                number=row.number,
                name=row.name,
                club=row.club,
                birth_date=row.birth_date,
            )
        )
    Participant.objects.bulk_create(created)
    teams: dict[str, list[Participant]] = {}  # issue 17: a "Mannschaft" column
    for row, participant in zip(accepted, created, strict=True):
        if row.team:
            teams.setdefault(row.team, []).append(participant)
    team_service.assign_imported(user, tournament, teams)
    record(tournament, user, "participant.import", imported=len(created), refused=len(refused))
    return created
