"""The table code: the phone's only credential (issue 16).

The code opens one sheet, with the permissions of ``TABLE_PERMISSIONS`` and no account, until the
sheet is signed, the match is drawn again or the referee renews the code. Every request of a
table's phone starts here: ``open_code`` looks the code up and tells what the phone's page needs
to know about the sheet besides (``Opened``) in the same query."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from ..participants.models import Substitution
from ..prepared import Prepared
from ..results.load import SheetFacts
from ..results.models import CODE_LENGTH, Scoresheet, Signature
from .models import ApprovalCall, PhoneReceipt

OFFLINE = timedelta(minutes=3)  # a table's phone silent this long is shown as offline
SEEN_EVERY = timedelta(seconds=60)  # how often the phone's last contact is written
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


class TableActor:
    """Whoever holds the table code: the players at that table, with no account."""

    is_authenticated = False
    is_active = True
    is_superuser = False
    pk = None

    def __init__(self, sheet: Scoresheet) -> None:
        self.sheet_scope = sheet

    def get_username(self) -> str:
        # The history's name for the table's phone, as the players and the referee say it.
        return f"Tisch {self.sheet_scope.table.number} (Handy)"


class CodeRefused(Exception):
    """The code opens nothing (``status`` 404) or no longer (410); ``message`` says why."""

    def __init__(self, status: int, message: str, sheet: Scoresheet | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.sheet = sheet  # a signed sheet, shown with its totals as the players signed them


@dataclass(frozen=True)
class Opened:
    """The sheet a code opens, and what the same query told about it: whether it has calls
    (none: the poll reads no call states), how many players signed it (the poll's etag), and,
    for a write, whether its table has substitutes and signatures (none: the answer reads no such
    rows): ``facts`` (results.load.load_sheet reads none of what it says is absent); and the
    answer kept under the write's key (``receipt``: sent before)."""

    sheet: Scoresheet
    facts: SheetFacts
    receipt: dict | None = None


def normalized(code: str) -> str:
    """The code as typed or scanned: case, spaces and dashes do not matter."""
    return re.sub(r"[^a-z0-9]", "", (code or "").lower())[:40]


def formatted(code: str) -> str:
    """The code as printed: two groups of five, e.g. ``k7m2p-x9qrt``."""
    return f"{code[:5]}-{code[5:]}"


FACTS = ("any_calls", "signed")
WRITE_FACTS = (*FACTS, "any_substitutes", "receipt")


def _by_code(lock: bool = False, write: bool = False):
    def build(code: str, key: str = ""):
        found = Scoresheet.objects.select_related("match__tournament", "table").filter(code=code)
        signatures = (
            Signature.objects.filter(scoresheet=OuterRef("pk")).order_by().values("scoresheet")
        ).annotate(n=Count("pk"))
        found = found.annotate(
            # The poll reads the calls' states only where the sheet has calls, and tells a
            # signature given at another phone by the count (a signature raises no version).
            any_calls=Exists(ApprovalCall.objects.filter(scoresheet=OuterRef("pk"))),
            signed=Coalesce(Subquery(signatures.values("n")[:1], output_field=IntegerField()), 0),
        )
        if lock:
            found = found.select_for_update(of=("self",))
        if write:
            # What a write needs to know besides: the answer it got if it was sent before
            # (its receipt), and which rows its answer need not read: none there. (Under a lock
            # PostgreSQL reads these as they were before it waited: a receipt stored meanwhile
            # is caught by its unique key, and nothing that decides a write is taken from them.)
            found = found.annotate(
                receipt=Subquery(
                    PhoneReceipt.objects.filter(scoresheet=OuterRef("pk"), key=key).values("answer")[:1]
                ),
                any_substitutes=Exists(
                    Substitution.objects.filter(participant__seats__table_id=OuterRef("table_id"))
                ),
            )
        return found.order_by()  # no ORDER BY (the sheets' ordering joins the tables)

    return build


# Every request of a table's phone starts here: compiled once (tournament.prepared).
_BY_CODE = Prepared(_by_code(), str)
_FOR_WRITE_BY_CODE = Prepared(_by_code(write=True), str, str)
_LOCKED_BY_CODE = Prepared(_by_code(lock=True, write=True), str, str)


def _renewed(code: str) -> Scoresheet | None:
    """The sheet whose code this was until the referee renewed it (of a draw still in use)."""
    if len(code) != CODE_LENGTH:
        return None
    return (
        Scoresheet.objects.filter(previous_code=code, match__discarded_at__isnull=True)
        .select_related("match", "table")
        .order_by()
        .first()
    )


def _opened(sheet: Scoresheet, write: bool) -> Opened:
    """The lookup's annotations taken off the sheet into ``Opened``: the sheet object stays a
    plain sheet (nothing downstream reads facts from it)."""
    facts = {}
    for name in WRITE_FACTS if write else FACTS:
        facts[name] = getattr(sheet, name)
        delattr(sheet, name)
    if not write:
        return Opened(sheet, SheetFacts(facts["any_calls"], facts["signed"]))
    told = SheetFacts(facts["any_calls"], facts["signed"], facts["any_substitutes"])
    return Opened(sheet, told, facts["receipt"])


def open_code(code: str, lock: bool = False, key: str | None = None) -> Opened:
    """The sheet the code opens, or ``CodeRefused`` saying why not. ``lock``: locked for the
    rest of the transaction, as ``results.store.locked_sheet`` locks it (its row only). With the
    ``key`` of a write: with that write's ``receipt`` (its answer, or None)."""
    code = normalized(code)
    if lock:
        sheet = _LOCKED_BY_CODE.first(code, key or "")
    elif key is not None:
        sheet = _FOR_WRITE_BY_CODE.first(code, key)
    else:
        sheet = _BY_CODE.first(code)
    if sheet is None:
        renewed = _renewed(code)
        if renewed is not None:
            raise CodeRefused(
                410,
                _(
                    "The referee renewed the code of table %(table)s in match %(match)s: this one no "
                    "longer works. Ask the referee for the new code."
                )
                % {"table": renewed.table.number, "match": renewed.match.number},
            )
        raise CodeRefused(
            404,
            _(
                "This table code is unknown: it may be mistyped or renewed by the referee. "
                "Scan the code on your table card or ask the referee."
            ),
        )
    refuse_closed(sheet)
    return _opened(sheet, lock or key is not None)


def refuse_closed(sheet: Scoresheet) -> None:
    """``CodeRefused`` where the sheet takes nothing from its code any more: its match drawn
    again, or the sheet signed or void."""
    values = {"table": sheet.table.number, "match": sheet.match.number}
    if sheet.match.is_discarded:
        raise CodeRefused(
            410,
            _(
                "Match %(match)s was drawn again: this code of table %(table)s no longer works. "
                "Scan the code on your new table card."
            )
            % values,
        )
    if sheet.status == Scoresheet.Status.SIGNED:
        raise CodeRefused(
            410,
            _(
                "The scoresheet of table %(table)s in match %(match)s is signed and locked: "
                "it takes no more entries. Only the supervisor can correct it (5.3.4)."
            )
            % values,
            sheet,
        )
    if sheet.status == Scoresheet.Status.VOID:
        raise CodeRefused(
            410,
            _("The scoresheet of table %(table)s in match %(match)s was declared void (5.3.6).") % values,
        )


def seen(sheet: Scoresheet) -> None:
    """The table's phone was heard from now (written at most every few seconds)."""
    now = timezone.now()
    if sheet.phone_seen is None or now - sheet.phone_seen >= SEEN_EVERY:
        Scoresheet.objects.filter(pk=sheet.pk).update(phone_seen=now)
        sheet.phone_seen = now


def etag_of(version: int, calls: list, scorekeeper: int, signed: int) -> str:
    """What tells the phone whether its sheet changed: the version, the calls' answers, the
    scorekeeper and the signatures (a signature raises no version: the other phones at the
    table learn of it by the count; a change that withdraws them raises the version)."""
    text = json.dumps([version, calls, scorekeeper, signed])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# The phone's poll reads the sheet's calls' states where it has calls: compiled once.
_CALL_STATES = Prepared(
    lambda sheet: (
        ApprovalCall.objects.filter(scoresheet_id=sheet)
        .order_by("-created", "-id")
        .values_list("pk", "status")[:20]
    ),
    int,
)


def current_etag(opened: Opened) -> str:
    """The etag of the sheet as ``open_code`` found it (the phone's poll: 204 when it is the
    phone's)."""
    sheet = opened.sheet
    calls = _CALL_STATES(sheet.pk) if opened.facts.calls else []
    return etag_of(sheet.version, [list(c) for c in calls], sheet.table.scorekeeper, opened.facts.signed)
