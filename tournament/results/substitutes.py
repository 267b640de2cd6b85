"""A substitute for a start number (5.2.11): he takes over seat and points from a game on, and
a sheet partly signed with the names it had is signed again with his (5.3.2)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..draw.models import Seat
from ..errors import ServiceError
from ..participants.models import Participant, Substitution
from ..participants.registration import age_on
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from .models import Scoresheet
from .services import require_game
from .store import locked_sheet
from .writing import withdraw_signatures


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
    Tournament.objects.select_for_update().get(pk=tournament.pk)
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
