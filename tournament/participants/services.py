"""Registering, changing, withdrawing and substituting participants."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..draw.models import Seat
from ..errors import ServiceError
from ..results.models import Scoresheet
from ..results.services import require_game, withdraw_signatures
from ..results.store import locked_sheet
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from . import registration
from . import teams as team_service
from .models import Participant, Substitution
from .registration import age_on

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
    tournament.results_changed()
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
    tournament.results_changed()
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
def substitute(
    user,
    participant: Participant,
    name: str,
    from_match: int,
    from_game: int = 1,
    club: str = "",
    birth_date=None,
) -> Substitution:
    """5.2.11: the substitute takes over start number, seat and points from that game on.
    Substitutes follow one another in time, and none reaches into a signed or void sheet: the
    players signed it with the names it had (5.3.2)."""
    tournament = participant.tournament
    require(user, tournament, Perm.EDIT_PARTICIPANTS)
    _lock(tournament)
    rules = tournament.rules
    if not name.strip():
        raise ServiceError(_("The substitute's name is missing."))
    if not 1 <= from_match <= rules.matches:
        raise ServiceError(
            _("Match %(match)s does not exist: the tournament has %(count)s matches.")
            % {"match": from_match, "count": rules.matches}
        )
    # At a table of five a match has 40 games (tables of five, README readings).
    seat = (
        Seat.objects.filter(
            participant=participant, match__number=from_match, match__discarded_at__isnull=True
        )
        .select_related("table")
        .first()
    )
    require_game(rules, from_game, seat.table.size if seat is not None else 4)
    latest = participant.substitutions.order_by("-from_match", "-from_game").first()
    if latest and (from_match, from_game) <= (latest.from_match, latest.from_game):
        raise ServiceError(
            _(
                "Start number %(number)s already has a substitute from match %(match)s, game %(game)s "
                "(%(name)s): a further substitute can only take over after that."
            )
            % {
                "number": participant.number,
                "match": latest.from_match,
                "game": latest.from_game,
                "name": latest.name,
            }
        )
    closed = (
        Scoresheet.objects.filter(
            table__seats__participant=participant,
            match__number__gte=from_match,
            match__discarded_at__isnull=True,
        )
        .filter(status__in=(Scoresheet.Status.SIGNED, Scoresheet.Status.VOID))
        .select_related("match", "table")
        .order_by("match__number")
        .first()
    )
    if closed:
        raise ServiceError(
            _(
                "Match %(match)s, table %(table)s is %(state)s with the names it had: a substitute can "
                "take over only in a match whose sheet is still open (5.3.2)."
            )
            % {
                "match": closed.match.number,
                "table": closed.table.number,
                "state": closed.get_status_display(),
            }
        )
    if birth_date and age_on(birth_date, tournament.date) < rules.min_age:
        raise ServiceError(
            _("%(name)s is younger than %(age)s on the tournament day (5.2.12).")
            % {"name": name.strip(), "age": rules.min_age}
        )
    replaced = participant.player_name(from_match, from_game)  # before the substitute counts
    try:
        with transaction.atomic():
            substitution = Substitution.objects.create(
                participant=participant,
                name=name.strip(),
                club=club.strip(),
                birth_date=birth_date,
                from_match=from_match,
                from_game=from_game,
                created_by=user if getattr(user, "pk", None) else None,
            )
    except IntegrityError:
        raise ServiceError(
            _("Start number %(number)s already has a substitute from match %(match)s, game %(game)s.")
            % {"number": participant.number, "match": from_match, "game": from_game}
        ) from None
    # A sheet partly signed with the names it had is signed again with the substitute's (5.3.2).
    for sheet in Scoresheet.objects.filter(
        table__seats__participant=participant,
        match__number__gte=from_match,
        match__discarded_at__isnull=True,
        status=Scoresheet.Status.COMPLETE,
    ).order_by():
        withdraw_signatures(user, locked_sheet(sheet))
    tournament.results_changed()
    record(
        tournament,
        user,
        "participant.substitute",
        number=participant.number,
        replaced=replaced,
        substitute=name,
        from_match=from_match,
        from_game=from_game,
    )
    return substitution


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
    tournament.results_changed()
    record(tournament, user, "participant.import", imported=len(created), refused=len(refused))
    return created
