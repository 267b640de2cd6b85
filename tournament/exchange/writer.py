"""Writing a tournament as one document of the exchange format: the backup (5.3.5)."""

from __future__ import annotations

import json
import re
from typing import Any

from scoring import Contract
from scoring.approvals import approval_covers

from ..draw.models import Seat
from ..i18n import stored_text
from ..participants.models import Participant, Substitution
from ..results.models import Approval, Correction, GameEntry, Scoresheet, Signature
from ..results.store import to_engine
from ..standings.models import LotDraw
from ..tournaments.models import StaffRole, Tournament
from .reader import FORMAT


def _signing_objects(sheet: Scoresheet, signatures, corrections) -> dict:
    data: dict[str, Any] = {}
    if sheet.status == Scoresheet.Status.SIGNED:
        data["status"] = "signed"
    if sheet.digest:
        data["digest"] = sheet.digest
    if sheet.locked_at:
        data["locked_at"] = sheet.locked_at.isoformat()
    if sheet.void_reason:
        data["void_reason"] = sheet.void_reason
    if signatures:
        data["signatures"] = [
            {**s.as_record(), **({"image": s.image} if s.image else {})} for s in signatures
        ]
    if corrections:
        data["corrections"] = [
            {**c.as_record(), "digest_before": c.digest_before, "digest_after": c.digest_after}
            for c in corrections
        ]
    return data


def _game_object(entry: GameEntry, approval: Approval | None) -> dict:
    """A game as the format writes it: the full description, its points, struck if so."""
    data: dict[str, Any] = {"game": entry.number}
    if entry.kind == GameEntry.Kind.SANCTION:
        sanction = {"contract": entry.contract, "declarer": entry.declarer}
        if entry.partner:
            sanction["partner"] = entry.partner
        sanction["liable"] = entry.liable
        data["sanction"] = sanction
    elif entry.kind == GameEntry.Kind.TRANSCRIBED:
        if entry.declarer:
            data["declarer"] = entry.declarer
    else:
        data["contract"] = entry.contract
        if entry.suit:
            data["suit"] = entry.suit
        data["declarer"] = entry.declarer
        if entry.partner:
            data["partner"] = entry.partner
        if entry.invalid_announcement:
            data["invalid_announcement"] = True
        elif entry.declarer_points is not None:
            data["declarer_points"] = entry.declarer_points
        elif entry.result:
            data["result"] = entry.result
            if entry.schneider:
                data["schneider"] = True
        if entry.schwarz:
            data["schwarz"] = True
    if approval is not None:
        data["approved_by"] = approval.approved_by_name or stored_text(StaffRole.Role.SUPERVISOR.label)
    data["points"] = list(entry.written) if entry.kind == GameEntry.Kind.TRANSCRIBED else list(entry.points)
    if entry.struck:
        data["struck"] = True
    return data


def export_document(tournament: Tournament) -> dict:
    """The whole tournament as one document (readers ignore the fields they do not know)."""
    rules = tournament.rules
    participants = list(tournament.participants.order_by("number"))
    document: dict[str, Any] = {
        "format": FORMAT,
        "tournament": {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "venue": tournament.venue,
            "rules": rules.to_exchange(),
            "slug": tournament.slug,
            "organiser": tournament.organiser,
            "status": tournament.status,
            "prize_places": tournament.prize_places,
        },
        "participants": [
            {
                k: v
                for k, v in {
                    "number": p.number,
                    "name": p.name,
                    "club": p.club or None,
                    "birth_date": p.birth_date.isoformat() if p.birth_date else None,
                    "status": p.status if p.status != Participant.Status.ACTIVE else None,
                }.items()
                if v is not None
            }
            for p in participants
        ],
        "substitutions": [
            {
                "number": s.participant.number,
                "name": s.name,
                "from_match": s.from_match,
                "from_game": s.from_game,
                **({"club": s.club} if s.club else {}),
            }
            for s in Substitution.objects.filter(participant__tournament=tournament)
            .select_related("participant")
            .order_by("from_match", "from_game", "id")
        ],
        "matches": [],
    }
    approvals: dict[int, dict[int, Approval]] = {}
    for approval in Approval.objects.filter(scoresheet__match__tournament=tournament):
        approvals.setdefault(approval.scoresheet_id, {})[approval.number] = approval
    entries: dict[int, list[GameEntry]] = {}
    for entry in GameEntry.objects.filter(scoresheet__match__tournament=tournament).order_by(
        "scoresheet_id", "number"
    ):
        entries.setdefault(entry.scoresheet_id, []).append(entry)
    signatures: dict[int, list[Signature]] = {}
    for signature in Signature.objects.filter(scoresheet__match__tournament=tournament).order_by("position"):
        signatures.setdefault(signature.scoresheet_id, []).append(signature)
    corrections: dict[int, list[Correction]] = {}
    for correction in Correction.objects.filter(scoresheet__match__tournament=tournament):
        corrections.setdefault(correction.scoresheet_id, []).append(correction)
    seats: dict[int, list[int]] = {}
    for table_id, number in (
        Seat.objects.filter(match__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "participant__number")
    ):
        seats.setdefault(table_id, []).append(number)
    sheets = (
        Scoresheet.objects.filter(match__tournament=tournament)
        .select_related("table", "match")
        .order_by("match__number", "table__number")
    )
    by_match: dict[int, list] = {}
    for sheet in sheets:
        table = {
            "number": sheet.table.number,
            "seats": seats.get(sheet.table_id, []),
            "games": [
                _game_object(e, _matching(approvals.get(sheet.pk, {}), e, rules))
                for e in entries.get(sheet.pk, [])
            ],
        }
        if sheet.status == Scoresheet.Status.VOID:
            table["status"] = "void"
        table.update(_signing_objects(sheet, signatures.get(sheet.pk, []), corrections.get(sheet.pk, [])))
        if sheet.table.scorekeeper != 1:
            table["scorekeeper"] = sheet.table.scorekeeper
        by_match.setdefault(sheet.match.number, []).append(table)
    for match in tournament.matches.order_by("number"):
        if match.number in by_match:
            document["matches"].append(
                {"number": match.number, "seed": match.seed, "tables": by_match[match.number]}
            )
    lots = LotDraw.objects.filter(tournament=tournament).order_by("created", "id")
    if lots:
        document["lots"] = [
            {
                "match": lot.match,
                "seed": lot.seed,
                "groups": lot.groups,
                "prize_places_only": lot.prize_places_only,
            }
            for lot in lots
        ]
    return document


def _matching(approvals: dict[int, Approval], entry: GameEntry, rules) -> Approval | None:
    """The approval that counts for this entry (the one the scoresheet service applies)."""
    approval = approvals.get(entry.number)
    if approval is None:
        return None
    covered = approval_covers(Contract(approval.contract), to_engine(entry, {}, rules), rules)
    return approval if covered else None


def dumps(document: dict) -> str:
    """The document as JSON people can read: indented, one game, participant or seat list per
    line."""
    compact: dict[str, str] = {}

    def mark(value):
        token = f"@@{len(compact)}@@"
        compact[token] = json.dumps(value, ensure_ascii=False)
        return token

    def walk(value, key=None):
        if isinstance(value, dict):
            if key in ("games", "participants", "substitutions", "lots") or key == "rules":
                return mark(value)
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            if key in ("seats", "points", "rufer", "solo", "tout", "sie", "members", "key"):
                return mark(value)
            return [walk(v, key) for v in value]
        return value

    text = json.dumps(walk(document), ensure_ascii=False, indent=2)
    return re.sub(r'"@@\d+@@"', lambda found: compact[found.group(0)[1:-1]], text)
