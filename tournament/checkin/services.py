"""Check-in at the door (issue 17). With the tournament's ``check_in`` on, the draw takes only
participants checked in on the day; a no-show is marked before the draw and not drawn."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.draw import table_sizes

from ..draw.services import allows_five, off_by, tables_text
from ..errors import ServiceError
from ..participants import services as participant_service
from ..participants.models import Participant
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require


def _locked(user, participant: Participant) -> Participant:
    require(user, participant.tournament, Perm.EDIT_PARTICIPANTS)
    return Participant.objects.select_for_update().select_related("tournament").get(pk=participant.pk)


@transaction.atomic
def check_in(user, participant: Participant, present: bool = True) -> Participant:
    """The participant is here (or, undone, not yet). A no-show who comes after all plays."""
    participant = _locked(user, participant)
    if present and participant.status == Participant.Status.WITHDRAWN:
        raise ServiceError(
            _("%(name)s (no. %(number)s) has withdrawn: set him to playing first.")
            % {"name": participant.name, "number": participant.number}
        )
    before = {"checked_in": participant.checked_in, "status": participant.status}
    participant.checked_in_at = timezone.now() if present else None
    if present and participant.status == Participant.Status.NO_SHOW:
        participant.status = Participant.Status.ACTIVE
    participant.save(update_fields=["checked_in_at", "status"])
    record(
        participant.tournament,
        user,
        "participant.check_in" if present else "participant.check_out",
        number=participant.number,
        name=participant.name,
        before=before,
    )
    return participant


@transaction.atomic
def mark_no_show(user, participant: Participant) -> Participant:
    """Registered but not come: not drawn (before the draw)."""
    participant = _locked(user, participant)
    before = {"checked_in": participant.checked_in, "status": participant.status}
    participant.checked_in_at = None
    participant.status = Participant.Status.NO_SHOW
    participant.save(update_fields=["checked_in_at", "status"])
    record(
        participant.tournament,
        user,
        "participant.no_show",
        number=participant.number,
        name=participant.name,
        before=before,
    )
    return participant


@transaction.atomic
def set_fee_paid(user, participant: Participant, paid: bool) -> Participant:
    participant = _locked(user, participant)
    if participant.fee_paid == paid:
        return participant
    participant.fee_paid = paid
    participant.save(update_fields=["fee_paid"])
    record(
        participant.tournament,
        user,
        "participant.fee",
        number=participant.number,
        name=participant.name,
        after={"fee_paid": paid},
    )
    return participant


@transaction.atomic
def register_at_door(user, tournament: Tournament, paid: bool = False, **fields) -> Participant:
    """A late arrival in one step: registered (the next free start number), checked in and,
    when he has paid, his entry fee marked; all or nothing."""
    participant = participant_service.add_participant(user, tournament, **fields)
    participant = check_in(user, participant)
    if paid:
        participant = set_fee_paid(user, participant, paid=True)
    return participant


@dataclass(frozen=True)
class DoorCounts:
    registered: int  # playing or marked as not come: everyone expected today
    checked_in: int
    missing: int  # expected, neither checked in nor marked as not come
    no_show: int
    paid: int
    fee: Decimal | None  # the entry fee, when the prize list declares one
    to_fill: int  # more players needed before the draw can seat them all
    over: int  # or players too many (reserve players)
    tables: str | None = None  # the tables of four and five the draw makes of those checked in

    @property
    def fees_total(self) -> Decimal | None:
        return None if self.fee is None else self.fee * self.paid


def door_counts(tournament: Tournament) -> DoorCounts:
    counts = tournament.participants.aggregate(
        playing=Count("pk", filter=Q(status=Participant.Status.ACTIVE)),
        checked_in=Count("pk", filter=Q(status=Participant.Status.ACTIVE, checked_in_at__isnull=False)),
        no_show=Count("pk", filter=Q(status=Participant.Status.NO_SHOW)),
        paid=Count("pk", filter=Q(fee_paid=True)),
    )
    declaration = getattr(tournament, "prize_declaration", None)
    fee = declaration.entry_fee if declaration is not None and declaration.entry_fee else None
    here = counts["checked_in"]
    seated = not here or table_sizes(here, allows_five(tournament)) is not None
    to_fill, over = (0, 0) if seated else off_by(here, tournament)
    return DoorCounts(
        registered=counts["playing"] + counts["no_show"],
        checked_in=here,
        missing=counts["playing"] - here,
        no_show=counts["no_show"],
        paid=counts["paid"],
        fee=fee,
        to_fill=to_fill,
        over=over,
        tables=tables_text(here, tournament) if here else None,
    )
