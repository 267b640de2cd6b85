"""One way for a game to reach the sheet, from the desk and from a table's phone (issue 26):
plan → lock → plan again if the sheet changed → write.

The plan (reading the sheet and scoring it through ``scoring``) runs before the write lock is
taken: on SQLite the lock is the whole database's, and with hundreds of phones a plan under it
made every other table's game wait (issue 16). Once locked, the sheet's row says whether
anything was written since the plan read it; only then is the game planned again, on the sheet
as it is now. A refusal is final where the sheet did not change: it is planned once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction

from ..errors import ServiceError
from ..prepared import Prepared
from .models import Scoresheet
from .services import Entered, EntryPlan, apply_entry
from .store import locked_sheet

# The sheet's row locked, and what tells whether it changed since a plan read it (a renewed
# code raises no version, a discarded draw neither).
_LOCKED_STATE = Prepared(
    lambda pk: (
        Scoresheet.objects.select_for_update(of=("self",))
        .filter(pk=pk)
        .order_by()
        .values_list("version", "status", "match__discarded_at", "code")
    ),
    int,
)


@dataclass(frozen=True)
class Outcome:
    """How a game went, told to the caller inside the write's transaction: the sheet it was
    planned on and its version before the write, what was written, or why it was refused."""

    sheet: Scoresheet
    previous: int
    entered: Entered | None
    refusal: ServiceError | PermissionDenied | None


def _planned(plan: Callable[[Scoresheet], EntryPlan], sheet: Scoresheet):
    try:
        return plan(sheet), None
    except (ServiceError, PermissionDenied) as refusal:
        return None, refusal


def enter_game(
    plan: Callable[[Scoresheet], EntryPlan],
    sheet: Scoresheet,
    relock: Callable[[Scoresheet], Scoresheet] = locked_sheet,
    then: Callable[[Outcome], None] | None = None,
) -> Entered:
    """Game ``plan(sheet)`` written to ``sheet`` (read with its match, tournament and table,
    unlocked): planned on the sheet as read, and written if the sheet is at that same state once
    locked; otherwise ``relock`` reads it afresh (locked; the table's phone refuses a code
    renewed or a sheet signed meanwhile there) and it is planned again. ``then`` runs in the
    write's transaction with the outcome, a refusal too (the phone keeps its answer there); the
    tournament's results version is raised by the write's record. A refusal
    is raised once the transaction is committed."""
    planned, refusal = _planned(plan, sheet)
    with transaction.atomic():
        if _LOCKED_STATE.first(sheet.pk) != (sheet.version, sheet.status, None, sheet.code):
            sheet = relock(sheet)  # written, signed or voided, its code renewed or its draw discarded
            planned, refusal = _planned(plan, sheet)
        previous = sheet.version
        entered = None if planned is None else apply_entry(planned)
        if then is not None:
            then(Outcome(sheet, previous, entered, refusal))
    if entered is None:
        raise refusal
    return entered
