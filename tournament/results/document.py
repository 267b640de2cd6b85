"""A scoresheet as a document: its games as the exchange format writes them, what was signed,
and the SHA-256 digest that seals it (5.3.2, 5.3.5).

This is the one place of the canonical form. Signing computes the digest with it, ``verify``
recomputes it, the exchange writer writes the games with it, the importer checks a document's
digests with it, and README.md ("The digest of a signed scoresheet") describes it so that anyone
can recompute a digest from an exported document with nothing but ``json``, ``base64`` and
``hashlib``:

    canonical = {
        "tournament": table["signed_as"]["tournament"],  # {"name", "date"} as signed
        "match": match number, "table": table["number"],
        "seats": table["signed_as"]["seats"],  # [{"seat", "number", "name"}] as signed
        "games": table["games"],  # exactly as written in the document
        "signatures": [{position, name, method, signed_at, image} of each signature],
        "corrections": [{game, before, after, reason, initials, at} of each correction],
        "scan": SHA-256 of the paper original's bytes, or "",
    }
    digest = sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False).encode("utf-8")).hexdigest()

where a signature's ``image`` is the SHA-256 of the drawn PNG's bytes (the base64 after the
data URL's comma, decoded), or "" without one. That is digest version 3 (issue 27: the images
are covered). Sheets signed before it keep their digest and are checked with the form they were
signed with: version 2 (the same without ``image`` and ``scan``) and version 1
(``legacy_canonical``). The seal that signs a digest is results/seals.py."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from typing import Any

from scoring import Contract
from scoring.approvals import approval_covers
from scoring.profiles import RuleProfile

from ..i18n import stored_text
from ..tournaments.models import StaffRole
from .models import Approval, GameEntry, Scoresheet
from .store import to_engine

DIGEST_VERSION = 3
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


def sha256_of(data: bytes | None) -> str:
    return hashlib.sha256(data).hexdigest() if data else ""


def decoded(text) -> bytes | None:
    """The bytes of base64 text (after a data URL's comma); None when there are none."""
    if not isinstance(text, str) or not text:
        return None
    try:
        return base64.b64decode(text.split(",", 1)[-1], validate=True)
    except (binascii.Error, ValueError):
        return None


def image_hash(image) -> str:
    """The SHA-256 of a drawn signature's PNG bytes, "" without one (or one that is no base64)."""
    data = decoded(image)
    return sha256_of(data) if data is not None else ("" if not image else "unreadable")


def canonical(match: int, table: dict, version: int = DIGEST_VERSION, scan: str | None = None) -> dict:
    """The canonical form of one table of an exchange document (see the module's docstring) in
    digest ``version`` 2 or 3; ``scan`` is the paper original's hash when the caller knows it
    (the table object holds the scan as base64 otherwise)."""
    header = table["signed_as"]
    content = {
        "tournament": header["tournament"],
        "match": match,
        "table": table["number"],
        "seats": header["seats"],
        "games": table.get("games", []),
        "signatures": [{k: s.get(k) for k in SIGNATURE_KEYS} for s in table.get("signatures", [])],
        "corrections": [{k: c.get(k) for k in CORRECTION_KEYS} for c in table.get("corrections", [])],
    }
    if version >= 3:
        for record, signature in zip(content["signatures"], table.get("signatures", []), strict=True):
            record["image"] = image_hash(signature.get("image"))
        if scan is None:
            found = table.get("scan")
            scan = image_hash(found.get("base64")) if isinstance(found, dict) else ""
        content["scan"] = scan
    return content


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
        "signatures": [
            {**signature_record(s), "image": s.image}
            for s in sorted(sheet.signatures.all(), key=lambda s: s.position)
        ],
        "corrections": [c.as_record() for c in sheet.corrections],
    }


_SCANS: dict[tuple[str, int, int], str] = {}


def scan_hash(sheet: Scoresheet) -> str:
    """The SHA-256 of the paper original's file, "" without one, "missing" when it is gone.
    Remembered by name, size and time of the file: the board checks every sheet on every look."""
    if not sheet.paper_scan:
        return ""
    try:
        path = sheet.paper_scan.path
        status = os.stat(path)
        known = (path, status.st_size, status.st_mtime_ns)
        if known not in _SCANS:
            with open(path, "rb") as scan:
                _SCANS[known] = hashlib.sha256(scan.read()).hexdigest()
        return _SCANS[known]
    except (OSError, NotImplementedError):
        return "missing"


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
    version = sheet.digest_version
    scan = scan_hash(sheet) if version >= 3 else None
    return digest_of(canonical(sheet.match.number, table_object(sheet, rules), version, scan))
