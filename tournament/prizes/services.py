"""The prize list of a tournament as it stands (issue 17), and the organiser's declaration of it:
what is stored, the money of the day, the field, and after the draw the standings with their
lots. The reckoning itself is ``reckoning``."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.draw import table_sizes

from ..errors import ServiceError
from ..participants.models import Participant
from ..standings import standings
from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import Perm, require
from ..tournaments.prize_places import PrizePlaces
from .models import PrizeDeclaration, PrizeLine
from .reckoning import (
    CASH,
    HUNDRED,
    ZERO,
    FieldSize,
    Line,
    Money,
    PrizeList,
    awards,
    check_lines,
    check_numbers,
    euros,
    line_places,
    place_prizes,
)

# Reading what is declared and the numbers of the day


def field_size(tournament: Tournament, rows: Sequence | None) -> FieldSize:
    match = tournament.matches.filter(number=1, drawn_at__isnull=False).first()
    if rows is not None and match is not None:
        return FieldSize(len(rows), match.tables.count(), True)
    playing = tournament.participants.filter(status=Participant.Status.ACTIVE).count()
    sizes = table_sizes(playing, tournament.rules.tables_of_five)  # tables of four and five
    return FieldSize(playing, sum(sizes) if sizes else playing // 4, False)


def money_of(tournament: Tournament, declaration: PrizeDeclaration, started: bool) -> Money:
    participants = tournament.participants
    paid = participants.filter(fee_paid=True).count()
    paying, estimated = paid, False
    if not started:
        # Before the start the fees are still being taken at the door: the estimate counts
        # every participant playing today, so that marking the first fee does not make the
        # prizes drop to one player's (the walk of issue 28); from the draw on, who paid.
        playing = participants.filter(status=Participant.Status.ACTIVE).count()
        if playing > paid:
            paying, estimated = playing, True
    return Money(
        entry_fee=declaration.entry_fee or ZERO,
        paying=paying,
        estimated=estimated,
        marked=paid,
        charity_per_entry=declaration.charity_per_entry or ZERO,
        charity_name=declaration.charity_name,
        payout_percent=declaration.payout_percent if declaration.payout_percent is not None else HUNDRED,
    )


def declared_lines(declaration: PrizeDeclaration | None) -> list[Line]:
    if declaration is None or declaration.pk is None:
        return []
    return [Line.of(line, index) for index, line in enumerate(declaration.lines.all(), start=1)]


def prize_list(
    tournament: Tournament,
    declaration: PrizeDeclaration | None = None,
    lines: Sequence[Line] | None = None,
) -> PrizeList:
    """The prize list for the tournament as it stands: the declaration stored (or the one given,
    not saved yet: the form's preview), the money, the prize of each place, and once matches
    are drawn who gets what from the standings with their lots."""
    stored = PrizeDeclaration.objects.filter(tournament=tournament).first()
    if declaration is None:
        declaration = stored or PrizeDeclaration(tournament=tournament)
        lines = declared_lines(stored)
    lines = list(lines or [])
    started = tournament.matches.filter(drawn_at__isnull=False).exists()
    rows = standings.compute(tournament).rows if started else None
    size = field_size(tournament, rows)
    money = money_of(tournament, declaration, started)
    problems = check_lines(lines) + check_numbers(lines, size)
    places, money_problems = place_prizes(lines, money, size)
    problems += money_problems
    if started and not money.paying and money.entry_fee and any(line.kind in CASH for line in lines):
        problems.append(
            _(
                "Nobody is marked as having paid the entry fee: the money taken is 0 €. "
                "Mark the fees on the check-in page (Einlass)."
            )
        )
    result = PrizeList(
        tournament,
        declared=stored is not None,
        money=money,
        field=size,
        lines=lines,
        places=places,
        problems=problems,
        ranked=started,
        unsigned=tournament.unsigned_sheets if started else 0,
    )
    if started and not problems:
        result.awards = awards(rows or [], places)
    return result


def declared_places(tournament: Tournament) -> PrizePlaces | None:
    """The places the stored declaration gives in today's field (issue 28, item 5), or None
    without a declaration or one without lines. Places beyond the field are left out."""
    lines = declared_lines(PrizeDeclaration.objects.filter(tournament=tournament).first())
    if not lines:
        return None
    started = tournament.matches.filter(drawn_at__isnull=False).exists()
    size = field_size(tournament, standings.compute(tournament).rows if started else None)
    ceiling = size.participants or None
    runs = []
    for line in lines:
        places = line_places(line, size)
        if ceiling is not None:
            places = range(places.start, min(places.stop, ceiling + 1))
        if len(places):
            runs.append(places)
    if not runs:
        return None
    runs.sort(key=lambda run: run.start)
    count = 0  # the places from 1 on without a gap
    for run in runs:
        if run.start > count + 1:
            break
        count = max(count, run.stop - 1)
    return PrizePlaces(count, tuple(runs), declared=True)


# Writing the declaration


@transaction.atomic
def declare(user, tournament: Tournament, values: dict, lines: Sequence[Line]) -> PrizeDeclaration:
    """Store the declaration with its lines, replacing the lines declared before. Lines the
    numbers contradict can be stored (the field changes until the draw): the page says what."""
    require(user, tournament, Perm.EDIT_TOURNAMENT)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    problems = check_lines(lines)
    if values["charity_per_entry"] > values["entry_fee"]:
        problems.insert(
            0,
            _("The charity's part of each fee (%(charity)s €) is more than the entry fee (%(fee)s €).")
            % {"charity": euros(values["charity_per_entry"]), "fee": euros(values["entry_fee"])},
        )
    if problems:
        raise ServiceError(_("The prize list was not saved."), details=problems)
    declaration, created = PrizeDeclaration.objects.select_for_update().get_or_create(
        tournament=tournament, defaults=values
    )
    before = snapshot(declaration) if not created else None
    if not created:
        for name, value in values.items():
            setattr(declaration, name, value)
        declaration.save()
    declaration.lines.all().delete()
    PrizeLine.objects.bulk_create(
        PrizeLine(declaration=declaration, **line.fields(order)) for order, line in enumerate(lines, start=1)
    )
    record(tournament, user, "prizes.declare", before=before, after=snapshot(declaration))
    return declaration


def snapshot(declaration: PrizeDeclaration) -> dict:
    """The declaration as the log and the exchange document keep it."""
    return {
        "entry_fee": str(declaration.entry_fee),
        "charity_per_entry": str(declaration.charity_per_entry),
        "charity_name": declaration.charity_name,
        "payout_percent": str(declaration.payout_percent),
        "lines": [
            {
                key: (str(value) if isinstance(value, Decimal) else value)
                for key, value in Line.of(line, index).fields(index).items()
                if key != "order" and value not in (None, "")
            }
            for index, line in enumerate(declaration.lines.all(), start=1)
        ],
    }
