"""Writing a checked plan of the exchange format into the database, all or nothing."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from scoring import score_sheet

from ..draw.models import Match, Seat, Table
from ..participants.models import Participant, Substitution
from ..results.models import CORRECTED, Approval, Scoresheet, Signature
from ..results.store import store_scored, with_approval
from ..standings.models import LotDraw
from ..tournaments.audit import record
from ..tournaments.models import LogEntry, StaffRole, Tournament
from ..tournaments.permissions import can_create_tournament
from .reader import Plan


@transaction.atomic
def import_plan(user, plan: Plan) -> Tournament:
    """Write a checked plan as a new tournament: one transaction, bulk writes. The importing
    user must be allowed to create tournaments and becomes its organiser."""
    if not can_create_tournament(user):
        raise PermissionDenied("add_tournament")
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
        Scoresheet(
            table=table,
            match=table.match,
            status=t.status,
            digest=_text(t.signing.get("digest"), 64),
            void_reason=_text(t.signing.get("void_reason"), 2000),
            locked_at=datetime.datetime.fromisoformat(t.signing["locked_at"])
            if t.signing.get("locked_at")
            else None,
        )
        for table, t in zip(tables, plan.tables, strict=True)
    )
    Seat.objects.bulk_create(
        (
            Seat(table=table, match=table.match, position=position, participant=people[number])
            for table, t in zip(tables, plan.tables, strict=True)
            for position, number in enumerate(t.seats, start=1)
        ),
        batch_size=2000,
    )
    Approval.objects.bulk_create(
        (
            Approval(scoresheet=sheet, number=n, contract=c, approved_by_name=who)
            for sheet, t in zip(sheets, plan.tables, strict=True)
            for n, (c, who) in t.approvals.items()
        ),
        batch_size=2000,
    )
    scored = []
    for sheet, t in zip(sheets, plan.tables, strict=True):
        approvals = {n: c for n, (c, _who) in t.approvals.items()}
        entries = [with_approval(entry, approvals, plan.profile) for entry in t.entries]
        scored.append((sheet, score_sheet(entries, plan.profile)))
    store_scored(tournament, scored)
    _restore_signing(tournament, sheets, plan.tables)
    for lot in plan.lots:
        if isinstance(lot.get("seed"), str) and isinstance(lot.get("groups"), list):
            LotDraw.objects.create(
                tournament=tournament,
                match=lot.get("match"),
                seed=lot["seed"],
                prize_places_only=bool(lot.get("prize_places_only")),
                groups=lot["groups"],
            )
    record(tournament, user, "tournament.import", name=tournament.name, games=plan.games)
    return tournament


def _text(value, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _restore_signing(tournament: Tournament, sheets, tables) -> None:
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
            LogEntry.objects.create(
                tournament=tournament,
                scoresheet=sheet,
                game=item["game"],
                action=CORRECTED,
                created=datetime.datetime.fromisoformat(item["at"]),
                data={
                    "match": t.match,
                    "table": t.number,
                    "before": before if isinstance(before, dict) else {},
                    "after": after if isinstance(after, dict) else None,
                    "reason": _text(item.get("reason"), 2000),
                    "initials": _text(item.get("initials"), 10),
                    "digest_before": _text(item.get("digest_before"), 64),
                    "digest_after": _text(item.get("digest_after"), 64),
                },
            )
