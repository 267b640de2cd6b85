"""Writing a checked plan of the exchange format into the database, all or nothing."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from scoring import score_sheet

from ..draw.models import Match, Seat, Table
from ..participants.models import Participant, Substitution
from ..results.models import Approval, Correction, GameEntry, Scoresheet, Signature
from ..results.services import seat_totals, stored_entry
from ..standings.models import LotDraw
from ..tournaments.models import StaffRole, Tournament
from .reader import Plan


@transaction.atomic
def import_plan(plan: Plan, user=None) -> Tournament:
    """Write a checked plan: one transaction, bulk writes."""
    overrides = plan.profile.overrides()
    tournament = Tournament.objects.create(
        name=plan.name,
        slug=plan.slug,
        date=plan.date,
        venue=plan.venue,
        organiser=plan.organiser,
        profile=plan.profile.name,
        rule_overrides=overrides,
        status=plan.status,
        prize_places=plan.prize_places,
    )
    if getattr(user, "pk", None):
        StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    people = {
        p.number: p
        for p in Participant.objects.bulk_create(
            Participant(tournament=tournament, **person) for person in plan.participants
        )
    }
    Substitution.objects.bulk_create(
        Substitution(
            participant=people[s["number"]],
            name=s["name"],
            club=s["club"],
            from_match=s["from_match"],
            from_game=s["from_game"],
        )
        for s in plan.substitutions
    )
    now = timezone.now()
    drawn = {t.match for t in plan.tables}
    matches = {
        m.number: m
        for m in Match.objects.bulk_create(
            Match(
                tournament=tournament,
                number=n,
                seed=plan.matches.get(n, ""),
                drawn_at=now if n in drawn else None,
            )
            for n in range(1, plan.profile.matches + 1)
        )
    }
    tables = Table.objects.bulk_create(
        Table(match=matches[t.match], number=t.number, scorekeeper=t.scorekeeper) for t in plan.tables
    )
    sheets = Scoresheet.objects.bulk_create(
        Scoresheet(table=table, match=table.match, status=t.status, version=1)
        for table, t in zip(tables, plan.tables, strict=True)
    )
    seats, entries, approvals = [], [], []
    for table, sheet, t in zip(tables, sheets, plan.tables, strict=True):
        result = score_sheet(t.entries, plan.profile)
        table_seats = [
            Seat(table=table, match=table.match, position=position, participant=people[number])
            for position, number in enumerate(t.seats, start=1)
        ]
        seats += seat_totals(result, table_seats)
        entries += [stored_entry(sheet, row.scored) for row in result.rows]
        approvals += [
            Approval(scoresheet=sheet, number=n, contract=c, approved_by_name=who)
            for n, (c, who) in t.approvals.items()
        ]
        if t.status == Scoresheet.Status.OPEN and result.complete:
            sheet.status = Scoresheet.Status.COMPLETE
    for sheet, t in zip(sheets, plan.tables, strict=True):
        if t.signing:
            sheet.digest = _text(t.signing.get("digest"), 64)
            sheet.void_reason = _text(t.signing.get("void_reason"), 2000)
            if t.signing.get("locked_at"):
                sheet.locked_at = datetime.datetime.fromisoformat(t.signing["locked_at"])
    Scoresheet.objects.bulk_update(sheets, ["status", "digest", "void_reason", "locked_at"], batch_size=500)
    _restore_signing(sheets, plan.tables)
    Seat.objects.bulk_create(seats, batch_size=2000)
    GameEntry.objects.bulk_create(entries, batch_size=2000)
    Approval.objects.bulk_create(approvals, batch_size=2000)
    for lot in plan.lots:
        if isinstance(lot.get("seed"), str) and isinstance(lot.get("groups"), list):
            LotDraw.objects.create(
                tournament=tournament,
                match=lot.get("match"),
                seed=lot["seed"],
                prize_places_only=bool(lot.get("prize_places_only")),
                groups=lot["groups"],
            )
    tournament.results_changed()
    return tournament


def _text(value, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _restore_signing(sheets, tables) -> None:
    """Signatures and corrections as they were, with their times: the digest covers them."""
    for sheet, t in zip(sheets, tables, strict=True):
        for item in t.signing.get("signatures", []):
            image = _text(item.get("image"), 500_000)
            signature = Signature.objects.create(
                scoresheet=sheet,
                position=item["position"],
                name=_text(item.get("name"), 200),
                method=item["method"],
                image=image if image.startswith("data:image/png;base64,") else "",
            )
            Signature.objects.filter(pk=signature.pk).update(
                signed_at=datetime.datetime.fromisoformat(item["signed_at"])
            )
        for item in t.signing.get("corrections", []):
            before, after = item.get("before"), item.get("after")
            correction = Correction.objects.create(
                scoresheet=sheet,
                number=item["game"],
                before=before if isinstance(before, dict) else {},
                after=after if isinstance(after, dict) else None,
                reason=_text(item.get("reason"), 2000),
                initials=_text(item.get("initials"), 10),
                digest_before=_text(item.get("digest_before"), 64),
                digest_after=_text(item.get("digest_after"), 64),
            )
            Correction.objects.filter(pk=correction.pk).update(
                created=datetime.datetime.fromisoformat(item["at"])
            )
