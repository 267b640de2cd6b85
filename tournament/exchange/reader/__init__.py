"""Reading the exchange format ``schafkopf-tournament/1`` (shared/EXCHANGE.md).

``read_document`` checks everything without writing to the database (structure, types, the
limits of every stored field, the profile, participants, seats, every game through the rules
engine, and every signed sheet against its digest) and returns a plan, or raises
``DocumentError`` with everything that is wrong, each message naming match, table and game.
``importer.import_plan`` then writes the plan in one transaction: a refused document leaves
nothing. Hostile input gets a message, never an exception: the same limits hold on SQLite and
PostgreSQL (lengths, NUL characters, whole numbers within their columns, dates, nesting).

One module per section of the document: ``head`` (the tournament and its rules), ``people``
(participants, substitutions, staff), ``matches`` (draws, tables, approvals) with ``games``
(the fields of a game), ``signing`` (what was signed, signatures, corrections, the scan),
``lots``, ``log``; ``document`` reads them in order, ``base`` holds the limits and the problem
collector they share, ``plan`` what the importer writes."""

from .base import (
    DIGEST,
    EARLIEST,
    FORMAT,
    IMAGE_PREFIX,
    LATEST,
    MAX_DEPTH,
    MAX_DOCUMENT_BYTES,
    MAX_IMAGE,
    MAX_INTEGER,
    MAX_SMALL,
    DocumentError,
    _place,
)
from .document import read_document
from .games import SEAT_FIELDS
from .plan import DrawPlan, Plan, TablePlan

__all__ = [
    "DIGEST",
    "EARLIEST",
    "FORMAT",
    "IMAGE_PREFIX",
    "LATEST",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_IMAGE",
    "MAX_INTEGER",
    "MAX_SMALL",
    "SEAT_FIELDS",
    "DocumentError",
    "DrawPlan",
    "Plan",
    "TablePlan",
    "_place",
    "read_document",
]
