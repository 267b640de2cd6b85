"""Writing a tournament as one document of the exchange format: the backup (5.3.5).

Besides what shared/EXCHANGE.md names, this writer adds what makes the document a whole backup
(readers ignore fields they do not know; this project's reader restores them): the staff by
username, the retention date, the log, every approval with who gave it and when (also one
recorded before its game), signing (what was signed, the signatures, corrections, digest, the
scan of a paper original), the draws a redraw discarded, and the seals (issue 27: the public key
of the server that wrote the document and the tournament's chain of seals, README "The digest of
a signed scoresheet"). Importing the document into an
empty database and exporting it again gives the same document, with one more log line: the
import itself."""

from __future__ import annotations

import base64
import json
import re
from pathlib import PurePath
from typing import Any

from ..draw.models import Match, Seat
from ..participants.models import Participant, Substitution
from ..prizes.exchange import prizes_object
from ..results.document import games_of, signature_record
from ..results.models import Approval, Correction, GameEntry, Scoresheet, Seal, Signature
from ..sealkey import public_key
from ..standings.models import LotDraw
from ..teams.exchange import written_teams
from ..tournaments.models import LogEntry, Tournament
from .reader import FORMAT


def _time(value) -> str | None:
    return value.isoformat() if value else None


def _compact(data: dict) -> dict:
    """Without the keys whose value is None."""
    return {key: value for key, value in data.items() if value is not None}


def _approval_object(approval: Approval) -> dict:
    return _compact(
        {
            "game": approval.number,
            "contract": approval.contract,
            "by": approval.approved_by_name,
            "username": approval.approved_by.get_username() if approval.approved_by else None,
            "at": _time(approval.created),
            "hand": approval.hand,
            "hand_check": approval.hand_check,
        }
    )


def _signature_object(signature: Signature) -> dict:
    return _compact(
        {
            **signature_record(signature),
            "image": signature.image or None,
            "recorded_by": signature.recorded_by.get_username() if signature.recorded_by else None,
        }
    )


def _correction_object(correction: Correction) -> dict:
    return {
        **correction.as_record(),
        "by": correction.user_name,
        "digest_before": correction.digest_before,
        "digest_after": correction.digest_after,
    }


def _scan_object(sheet: Scoresheet) -> dict | None:
    """The photo or scan of the signed paper original, inside the document (base64)."""
    if not sheet.paper_scan:
        return None
    try:
        with sheet.paper_scan.open("rb") as scan:
            content = scan.read()
    except OSError:
        return {"suffix": PurePath(sheet.paper_scan.name).suffix, "missing": True}
    return {"suffix": PurePath(sheet.paper_scan.name).suffix, "base64": base64.b64encode(content).decode()}


class _Sheets:
    """Everything the tables of a tournament hold, read in a few flat queries."""

    def __init__(self, tournament: Tournament) -> None:
        self.rules = tournament.rules
        in_tournament = {"scoresheet__match__tournament": tournament}
        self.approvals: dict[int, list[Approval]] = {}
        for approval in (
            Approval.objects.filter(**in_tournament).select_related("approved_by").order_by("number")
        ):
            self.approvals.setdefault(approval.scoresheet_id, []).append(approval)
        self.entries: dict[int, list[GameEntry]] = {}
        for entry in GameEntry.objects.filter(**in_tournament).order_by("scoresheet_id", "number"):
            self.entries.setdefault(entry.scoresheet_id, []).append(entry)
        self.signatures: dict[int, list[Signature]] = {}
        for signature in (
            Signature.objects.filter(**in_tournament).select_related("recorded_by").order_by("position")
        ):
            self.signatures.setdefault(signature.scoresheet_id, []).append(signature)
        self.corrections: dict[int, list[Correction]] = {}
        for correction in Correction.objects.filter(**in_tournament):
            self.corrections.setdefault(correction.scoresheet_id, []).append(correction)
        self.seats: dict[int, list[int]] = {}
        for table_id, number in (
            Seat.objects.filter(match__tournament=tournament)
            .order_by("table_id", "position")
            .values_list("table_id", "participant__number")
        ):
            self.seats.setdefault(table_id, []).append(number)
        self.by_match: dict[int, list[Scoresheet]] = {}
        sheets = (
            Scoresheet.objects.filter(match__tournament=tournament)
            .select_related("table", "match")
            .order_by("table__number")
        )
        for sheet in sheets:
            self.by_match.setdefault(sheet.match_id, []).append(sheet)
            for entry in self.entries.get(sheet.pk, []):
                entry.scoresheet = sheet  # its points: four, or five at a table of five

    def tables(self, match: Match) -> list[dict]:
        return [self.table(sheet) for sheet in self.by_match.get(match.pk, [])]

    def table(self, sheet: Scoresheet) -> dict:
        approvals = self.approvals.get(sheet.pk, [])
        table: dict[str, Any] = {
            "number": sheet.table.number,
            "seats": self.seats.get(sheet.table_id, []),
            "games": games_of(
                self.entries.get(sheet.pk, []), {a.number: a for a in approvals}, self.rules, sheet.size
            ),
        }
        if sheet.status in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID):
            table["status"] = sheet.status
        if sheet.table.scorekeeper != 1:
            table["scorekeeper"] = sheet.table.scorekeeper
        if approvals:
            table["approvals"] = [_approval_object(a) for a in approvals]
        if sheet.signed_as:
            table["signed_as"] = sheet.signed_as
        if sheet.digest:
            table["digest"] = sheet.digest
            table["digest_version"] = sheet.digest_version
        if sheet.locked_at:
            table["locked_at"] = sheet.locked_at.isoformat()
        if sheet.void_reason:
            table["void_reason"] = sheet.void_reason
        if signatures := self.signatures.get(sheet.pk):
            table["signatures"] = [_signature_object(s) for s in signatures]
        if corrections := self.corrections.get(sheet.pk):
            table["corrections"] = [_correction_object(c) for c in corrections]
        if scan := _scan_object(sheet):
            table["scan"] = scan
        return table


def _match_object(match: Match, discarded: list[Match], sheets: _Sheets) -> dict:
    data: dict[str, Any] = {"number": match.number, "seed": match.seed}
    if match.draw != 1:
        data["draw"] = match.draw
    if match.drawn_at:
        data["drawn_at"] = match.drawn_at.isoformat()
    data["tables"] = sheets.tables(match)
    if discarded:  # drawn again over results: the earlier draws, whole (issue 13)
        data["discarded"] = [
            {
                "draw": old.draw,
                "seed": old.seed,
                "drawn_at": _time(old.drawn_at),
                "discarded_at": _time(old.discarded_at),
                "tables": sheets.tables(old),
            }
            for old in discarded
        ]
    return data


def _log_object(entry: LogEntry) -> dict:
    sheet = entry.scoresheet
    return _compact(
        {
            "at": entry.created.isoformat(),
            "action": entry.action,
            "by": entry.user_name,
            "match": sheet.match.number if sheet else None,
            "draw": sheet.match.draw if sheet else None,
            "table": sheet.table.number if sheet else None,
            "game": entry.game,
            "data": entry.data,
        }
    )


def export_document(tournament: Tournament) -> dict:
    """The whole tournament as one document (readers ignore the fields they do not know)."""
    rules = tournament.rules
    document: dict[str, Any] = {
        "format": FORMAT,
        "tournament": {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "venue": tournament.venue,
            "rules": rules.to_exchange(),
            "slug": tournament.slug,
            "organiser": tournament.organiser,
            "status": tournament.current_status,
            **({"status_automatic": True} if not tournament.status else {}),
            "prize_places": tournament.prize_places,
            "retention_until": tournament.retention_until.isoformat(),
            **({"check_in": True} if tournament.check_in else {}),
        },
        "participants": [
            _compact(
                {
                    "number": p.number,
                    "name": p.name,
                    "club": p.club or None,
                    "birth_date": p.birth_date.isoformat() if p.birth_date else None,
                    "status": p.status if p.status != Participant.Status.ACTIVE else None,
                    # Issue 17, added fields: the day at the door.
                    "checked_in_at": _time(p.checked_in_at),
                    "fee_paid": True if p.fee_paid else None,
                }
            )
            for p in tournament.participants.order_by("number")
        ],
        "substitutions": [
            {
                "number": s.participant.number,
                "name": s.name,
                "from_match": s.from_match,
                "from_game": s.from_game,
                **({"club": s.club} if s.club else {}),
                **({"birth_date": s.birth_date.isoformat()} if s.birth_date else {}),
            }
            for s in Substitution.objects.filter(participant__tournament=tournament)
            .select_related("participant")
            .order_by("from_match", "from_game", "id")
        ],
        "matches": [],
    }
    sheets = _Sheets(tournament)
    discarded: dict[int, list[Match]] = {}
    for old in Match.all_draws.filter(tournament=tournament, discarded_at__isnull=False).order_by("draw"):
        discarded.setdefault(old.number, []).append(old)
    for match in tournament.matches.order_by("number"):
        if sheets.by_match.get(match.pk) or discarded.get(match.number):
            document["matches"].append(_match_object(match, discarded.get(match.number, []), sheets))
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
    teams = written_teams(tournament)  # issue 17: an added field, only when there are teams
    if teams:
        document["teams"] = teams
    if (prizes := prizes_object(tournament)) is not None:  # issue 17
        document["prizes"] = prizes
    document["staff"] = [
        {"username": username, "role": role}
        for username, role in tournament.staff.order_by("role", "user__username").values_list(
            "user__username", "role"
        )
    ]
    # The log but the corrections, which their tables hold.
    log = (
        tournament.log.exclude(action=Correction.ACTION)
        .select_related("scoresheet__match", "scoresheet__table")
        .order_by("created", "id")
    )
    document["log"] = [_log_object(entry) for entry in log]
    document["seals"] = {
        "key": public_key(),  # this server's: the seals it made carry it as their "key"
        "chain": [
            {**link.link(), "key": link.key, "signature": link.signature}
            for link in Seal.objects.filter(tournament=tournament).order_by("sequence")
        ],
    }
    return document


# Lists written one element a line: a game, a participant, a seat list, a log line.
ONE_LINE_OBJECTS = (
    "games",
    "participants",
    "substitutions",
    "lots",
    "approvals",
    "log",
    "staff",
    "teams",
    "chain",
)
ONE_LINE_LISTS = ("seats", "points", "rufer", "solo", "tout", "sie", "members", "key")


def dumps(document: dict) -> str:
    """The document as JSON people can read: indented, one game, participant, seat list or log
    line per line."""
    compact: dict[str, str] = {}

    def mark(value):
        token = f"@@{len(compact)}@@"
        compact[token] = json.dumps(value, ensure_ascii=False)
        return token

    def walk(value, key=None):
        if isinstance(value, dict):
            if key in ONE_LINE_OBJECTS or key == "rules":
                return mark(value)
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            if key in ONE_LINE_LISTS:
                return mark(value)
            return [walk(v, key) for v in value]
        return value

    text = json.dumps(walk(document), ensure_ascii=False, indent=2)
    return re.sub(r'"@@\d+@@"', lambda found: compact[found.group(0)[1:-1]], text)
