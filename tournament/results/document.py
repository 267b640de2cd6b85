"""A scoresheet as a document: its games as the exchange format writes them, what was signed,
and the SHA-256 digest that seals it (5.3.2, 5.3.5).

This is the one place of the canonical form. Signing computes the digest with it, ``verify``
recomputes it, the exchange writer writes the games with it, the importer checks a document's
digests with it, and README.md ("The digest of a signed scoresheet") describes it so that anyone
can recompute a digest from an exported document with nothing but ``json`` and ``hashlib``:

    canonical = {
        "tournament": table["signed_as"]["tournament"],  # {"name", "date"} as signed
        "match": match number, "table": table["number"],
        "seats": table["signed_as"]["seats"],  # [{"seat", "number", "name"}] as signed
        "games": table["games"],  # exactly as written in the document
        "signatures": [{position, name, method, signed_at} of each signature],
        "corrections": [{game, before, after, reason, initials, at} of each correction],
    }
    digest = sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False).encode("utf-8")).hexdigest()

Sheets signed before this form (``digest_version`` 1) keep their digest and are checked with the
form they were signed with (``legacy_canonical``)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from scoring import Contract
from scoring.approvals import approval_covers
from scoring.profiles import RuleProfile

from ..i18n import stored_text
from ..tournaments.models import StaffRole
from .models import Approval, GameEntry, Scoresheet
from .store import to_engine

DIGEST_VERSION = 2
SIGNATURE_KEYS = ("position", "name", "method", "signed_at")
CORRECTION_KEYS = ("game", "before", "after", "reason", "initials", "at")


def covering_approval(
    approvals: dict[int, Approval], entry: GameEntry, rules: RuleProfile, seats: int = 4
) -> Approval | None:
    """The approval that counts for this entry at a table of ``seats``, as the scoresheet
    service applies it."""
    approval = approvals.get(entry.number)
    if approval is None:
        return None
    engine = to_engine(entry, {}, rules, seats)
    covered = approval_covers(Contract(approval.contract), engine, rules, seats=seats)
    return approval if covered else None


def game_object(entry: GameEntry, approval: Approval | None) -> dict:
    """A game as the exchange format writes it: the full description, its points, struck if so."""
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


def games_of(
    entries: list[GameEntry], approvals: dict[int, Approval], rules: RuleProfile, seats: int = 4
) -> list[dict]:
    """The games of a sheet in game order, as the document writes them (``points`` with five
    numbers at a table of five, the sitting-out dealer's 0 included)."""
    return [
        game_object(e, covering_approval(approvals, e, rules, seats))
        for e in sorted(entries, key=lambda e: e.number)
    ]


def signed_as(sheet: Scoresheet) -> dict:
    """What the players saw when they signed: the tournament and who played each seat. Kept
    with the sheet, so that renaming a participant or the tournament later changes nothing
    signed."""
    match = sheet.match
    tournament = match.tournament
    games = tournament.rules.games_for(sheet.size)
    seats = sheet.table.seats.select_related("participant").prefetch_related("participant__substitutions")
    return {
        "tournament": {"name": tournament.name, "date": tournament.date.isoformat()},
        "seats": [
            {
                "seat": seat.position,
                "number": seat.participant.number,
                "name": seat.participant.player_name(match.number, games),
            }
            for seat in sorted(seats, key=lambda seat: seat.position)
        ],
    }


def canonical(match: int, table: dict) -> dict:
    """The canonical form of one table of an exchange document (see the module's docstring)."""
    header = table["signed_as"]
    return {
        "tournament": header["tournament"],
        "match": match,
        "table": table["number"],
        "seats": header["seats"],
        "games": table.get("games", []),
        "signatures": [{k: s.get(k) for k in SIGNATURE_KEYS} for s in table.get("signatures", [])],
        "corrections": [{k: c.get(k) for k in CORRECTION_KEYS} for c in table.get("corrections", [])],
    }


def digest_of(content: dict) -> str:
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def signature_record(signature) -> dict:
    return {
        "position": signature.position,
        "name": signature.name,
        "method": signature.method,
        "signed_at": signature.signed_at.isoformat(),
    }


def table_object(sheet: Scoresheet, rules: RuleProfile) -> dict:
    """The parts of a sheet's table object that its digest covers, read from the database
    (prefetched entries, approvals, signatures and corrections are used when present)."""
    approvals = {a.number: a for a in sheet.approvals.all()}
    return {
        "number": sheet.table.number,
        "signed_as": sheet.signed_as,
        "games": games_of(list(sheet.entries.all()), approvals, rules, sheet.size),
        "signatures": [signature_record(s) for s in sorted(sheet.signatures.all(), key=lambda s: s.position)],
        "corrections": [c.as_record() for c in sheet.corrections],
    }


def legacy_canonical(sheet: Scoresheet) -> dict:
    """The form sheets signed before digest version 2 were sealed with: entries as stored
    records, the names as the players saw them."""
    header = sheet.signed_as
    return {
        "tournament": [header["tournament"]["name"], header["tournament"]["date"]],
        "match": sheet.match.number,
        "table": sheet.table.number,
        "seats": [{"position": s["seat"], "number": s["number"], "name": s["name"]} for s in header["seats"]],
        "entries": [e.as_record() for e in sorted(sheet.entries.all(), key=lambda e: e.number)],
        "signatures": [signature_record(s) for s in sorted(sheet.signatures.all(), key=lambda s: s.position)],
        "corrections": [c.as_record() for c in sheet.corrections],
    }


def sheet_digest(sheet: Scoresheet, rules: RuleProfile | None = None) -> str:
    """The digest of the sheet as it is stored now, in the form it was signed with."""
    if sheet.digest_version == 1:
        return digest_of(legacy_canonical(sheet))
    rules = rules or sheet.match.tournament.rules
    return digest_of(canonical(sheet.match.number, table_object(sheet, rules)))
