"""What the exchange tests share: every place in a document, and a signed table's digest
recomputed from the document alone, as README.md describes it."""

import hashlib
import json


def paths(value, prefix=()):
    """Every place in a document: the keys and indexes leading to it."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from paths(inner, (*prefix, index))


def recompute(match: int, table: dict) -> str:
    """The digest exactly as README.md describes it: json and hashlib, nothing else."""
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
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
