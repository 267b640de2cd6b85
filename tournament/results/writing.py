"""The one way through every write to a scoresheet (issue 26): the sheet scored before the
write, the write stored (``store.store_scored``), the sheet scored after it, and from the two
``scoring.effects``' changes: the game written and every other game whose points, strike or
downgrade changed because of it (an approval or a Solo can strike or restore a later Solo,
5.2.16). From that same result the signatures given are withdrawn where the sheet changed
(5.3.2), the cause is recorded in the history with one line ``entry.rescored`` per other game
changed, naming its cause, and the caller is answered with all of it (``Written``).

``carry_out`` is the flow of a game from the desk and from a table's phone: plan → lock → plan
again if the sheet changed → write.

The plan (reading the sheet and scoring it through ``scoring``) runs before the write lock is
taken: on SQLite the lock is the whole database's, and with hundreds of phones a plan under it
made every other table's game wait (issue 16). Once locked, the sheet's row says whether
anything was written since the plan read it; only then is the game planned again, on the sheet
as it is now. A refusal is final where the sheet did not change: it is planned once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.effects import Change, changes
from scoring.scoresheet import Sheet

from ..draw.models import Seat
from ..errors import ServiceError
from ..prepared import Prepared
from ..tournaments.audit import record, record_sheet
from .effects import Cause, as_record, change_text
from .models import Approval, GameEntry, Scoresheet, Signature
from .sheet import Known
from .store import locked_sheet, seats_of, store_scored


@dataclass(frozen=True)
class Written:
    """Everything a write changed: the entry written (None where it deleted one or wrote
    none), the sheet as the write left it (``Known``: locked, at its new version, its rows
    and score), the names of those whose signatures it withdrew (5.3.2), its ``cause`` and
    ``game``, the written game's own change (``own``, before → after; None where its score
    did not change) and every other game it changed (``changes``)."""

    saved: GameEntry | None
    sheet: Known
    withdrawn: list[str]
    cause: Cause
    game: int | None
    own: Change | None
    changes: tuple[Change, ...]

    @property
    def texts(self) -> list[str]:
        """The other games changed, as the desk, the phone and the history say them."""
        return [change_text(change, self.cause, self.game) for change in self.changes]


def withdraw_signatures(
    user, sheet: Scoresheet, status: str | None = None, signed: bool | None = None
) -> list[str]:
    """5.3.2: a player's signature confirms the sheet as he signed it. A game entered, changed or
    deleted, an approval given or withdrawn, or a substitute taking a seat, before the last
    signature locks the sheet withdraws the signatures given so far: the history names them,
    and they sign again. Call with the sheet locked; ``status``: the sheet's before the change
    (a signed sheet keeps its signatures: only the supervisor corrects it, 5.3.4). Only a complete
    sheet is signed, and a change that leaves it incomplete withdraws them at once; where the
    caller read the sheet as having none (``signed`` False: the table phone's lookup), an open
    sheet has none."""
    status = status or sheet.status
    if status == Scoresheet.Status.SIGNED:
        return []
    if status != Scoresheet.Status.COMPLETE and signed is False:
        return []
    given = list(
        Signature.objects.filter(scoresheet=sheet).order_by("position").values_list("position", "name")
    )
    if not given:
        return []
    Signature.objects.filter(scoresheet=sheet).delete()
    names = [name for _position, name in given]
    record_sheet(
        user,
        sheet,
        "sheet.signatures_withdrawn",
        seats=[position for position, _name in given],
        names=names,
    )
    return names


def withdrawn_text(names: list[str]) -> str:
    """What the table and the desk are told when a change withdrew signatures."""
    return _("The sheet changed after %(names)s signed: the signatures are withdrawn, please sign again.") % {
        "names": ", ".join(names)
    }


def rewrite(
    user,
    sheet: Scoresheet,
    cause: Cause,
    game: int | None,
    before: Sheet,
    after: Sheet,
    *,
    entries: list[GameEntry],
    approvals: list[Approval],
    seats: list[Seat] | None = None,
    edited: bool = False,
    withdraw: bool = True,
    signed: bool | None = None,
    record_cause: Callable[[GameEntry | None], object] | None = None,
) -> Written:
    """Store ``after`` (the sheet scored with the write) on ``sheet``, locked in this
    transaction, where ``before`` is the same sheet scored without it, and answer with what
    changed. ``entries``: the sheet's entries as read in this transaction (before the write);
    ``approvals``: its approvals after it; ``seats``: its table's seats with their players,
    where the caller has them. ``edited``: the write changed what the scores do not show (a
    game described otherwise for the same points, an approval's mark): the sheet changed all
    the same. The signatures are withdrawn where anything changed (5.3.2), unless
    ``withdraw`` is off (a correction of a signed sheet, 5.3.4); ``signed`` as for
    ``withdraw_signatures``. ``record_cause`` records the write itself in the history, given
    the entry written; each other game changed gets its own line ``entry.rescored``."""
    status = sheet.status
    if seats is None:
        seats = seats_of(sheet.table_id)
    written = store_scored([(sheet, after)], entries, seats)[sheet.pk]
    saved = written.get(game) if game is not None else None
    found = changes(before, after)
    own = next((change for change in found if change.number == game), None)
    others = tuple(change for change in found if change.number != game)
    withdrawn = withdraw_signatures(user, sheet, status, signed) if withdraw and (found or edited) else []
    if record_cause is not None:
        record_cause(saved)
    tournament = sheet.match.tournament
    for change in others:
        record(
            tournament,
            user,
            "entry.rescored",
            scoresheet=sheet,
            game=change.number,
            **as_record(change, cause, game),
        )
    stored = sorted(written.values(), key=lambda entry: entry.number)
    known = Known(sheet, stored, approvals, after, seats)
    return Written(saved, known, withdrawn, cause, game, own, others)


class Plan(Protocol):
    """A write planned on a sheet as read, not yet carried out (``services.EntryPlan``)."""

    def write(self) -> Written: ...


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
    """How a write went, told to the caller inside the write's transaction: the sheet it was
    planned on and its version before the write, what was written, or why it was refused."""

    sheet: Scoresheet
    previous: int
    entered: Written | None
    refusal: ServiceError | PermissionDenied | None

    @property
    def written(self) -> Written | None:
        return self.entered


def _planned(plan: Callable[[Scoresheet], Plan], sheet: Scoresheet):
    try:
        return plan(sheet), None
    except (ServiceError, PermissionDenied) as refusal:
        return None, refusal


def carry_out(
    plan: Callable[[Scoresheet], Plan],
    sheet: Scoresheet,
    relock: Callable[[Scoresheet], Scoresheet] = locked_sheet,
    then: Callable[[Outcome], None] | None = None,
) -> Written:
    """The write ``plan(sheet)`` carried out on ``sheet`` (read with its match, tournament and
    table, unlocked): planned on the sheet as read, outside the lock, and written
    (``plan.write()``, through ``rewrite``) if the sheet is at that same state once locked;
    otherwise ``relock`` reads it afresh (locked; the table's phone refuses a code renewed or a
    sheet signed meanwhile there) and it is planned again. ``then`` runs in the write's
    transaction with the outcome, a refusal too (the phone keeps its answer there). A refusal
    is raised once the transaction is committed; otherwise the answer is the ``Written``."""
    planned, refusal = _planned(plan, sheet)
    with transaction.atomic():
        if _LOCKED_STATE.first(sheet.pk) != (sheet.version, sheet.status, None, sheet.code):
            sheet = relock(sheet)  # written, signed or voided, its code renewed or its draw discarded
            planned, refusal = _planned(plan, sheet)
        previous = sheet.version
        written = None if planned is None else planned.write()
        if then is not None:
            then(Outcome(sheet, previous, written, refusal))
    if written is None:
        assert refusal is not None
        raise refusal
    return written
