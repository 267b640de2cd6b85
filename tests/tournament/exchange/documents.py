"""What the exchange tests share: every place in a document, a signed table's digest
recomputed from the document alone, as README.md describes it, and what a round trip must keep
of a tournament."""

import base64
import hashlib
import json

from hypothesis import strategies as st

from tournament.models import Scoresheet
from tournament.standings import standings


def table_of(tournament):
    return [(row.rank, row.number, *row.key) for row in standings.compute(tournament).rows]


def contents(tournament):
    """Every scoresheet as match, table, size, seats, status, entries and approvals: what a
    round trip must keep."""
    sheets = {}
    for sheet in Scoresheet.objects.filter(match__tournament=tournament).select_related("table", "match"):
        seats = [s.participant.number for s in sheet.table.seats.order_by("position")]
        entries = [e.as_record() for e in sheet.entries.order_by("number")]
        approvals = sorted(sheet.approvals.values_list("number", "contract"))
        key = (sheet.match.number, sheet.table.number)
        sheets[key] = (sheet.table.size, seats, sheet.status, entries, approvals)
    return sheets


def paths(value, prefix=()):
    """Every place in a document: the keys and indexes leading to it."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from paths(inner, (*prefix, index))


def damage(document: dict, data, values) -> None:
    """Replace one place of ``document``, drawn by Hypothesis (``data``), with a drawn value."""
    path = data.draw(st.sampled_from([p for p in paths(document) if p]))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(values)


def sha256(data: str | None) -> str:
    """Of base64 text (after a data URL's comma): the SHA-256 of its bytes, "" without any."""
    return hashlib.sha256(base64.b64decode(data.split(",")[-1])).hexdigest() if data else ""


def recompute(match: int, table: dict) -> str:
    """The digest exactly as README.md describes it: json, base64 and hashlib, nothing else
    (digest version 3; version 2 without the images and the scan)."""
    content = {
        "tournament": table["signed_as"]["tournament"],
        "match": match,
        "table": table["number"],
        "seats": table["signed_as"]["seats"],
        "games": table["games"],
        "signatures": [
            {k: s[k] for k in ("position", "name", "method", "signed_at")}
            for s in table.get("signatures", [])
        ],
        "corrections": [
            {k: c[k] for k in ("game", "before", "after", "reason", "initials", "at")}
            for c in table.get("corrections", [])
        ],
    }
    if table["digest_version"] == 3:
        for record, signature in zip(content["signatures"], table.get("signatures", []), strict=True):
            record["image"] = sha256(signature.get("image"))
        content["scan"] = sha256(table.get("scan", {}).get("base64"))
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
