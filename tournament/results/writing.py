"""The one way a write of a sheet's games is stored, with everything it changed (issue 26).

Every write that changes what a sheet scores (a game entered, changed or deleted, a sanction,
an approval given or withdrawn, a correction) hands ``rewrite`` the sheet scored before it and
after it, both in memory. ``rewrite`` stores the after through the one writer
(``store.store_scored``), finds every game whose points, strike or downgrade changed
(``scoring.effects``), records the write and one history line per OTHER changed game naming its
cause ("Spiel 6 gestrichen (5.2.16: …), weil Spiel 2 genehmigt wurde."), withdraws the
signatures where the sheet's content changed (5.3.2), and answers with all of it: the desk's
message, the phone's answer and the history follow from that one result.

``carry_out`` is the flow of a game from the desk and from a table's phone: plan → lock → plan
again if the sheet changed → write. The plan (reading the sheet and scoring it through
``scoring``) runs before the write lock is taken: on SQLite the lock is the whole database's,
and with hundreds of phones a plan under it made every other table's game wait (issue 16). Once
locked, the sheet's row says whether anything was written since the plan read it; only then is
the game planned again, on the sheet as it is now. A refusal is final where the sheet did not
change: it is planned once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.effects import Change, changes
from scoring.scoresheet import Sheet

from ..draw.models import Seat
from ..errors import ServiceError
from ..prepared import Prepared
from ..tournaments.audit import record, record_sheet, version_raised_last
from .effects import as_record, change_text
from .models import GameEntry, Scoresheet, Signature
from .store import locked_sheet, store_scored


@dataclass(frozen=True)
class Written:
    """What a write changed: the game written (None: no one game), the kind of write, the
    sheet's entries as stored by game number, the written game's own change where it was
    scored before and after, every OTHER game's change (before → after, with the rule), the
    names whose signatures it withdrew, and the other games' changes in words."""

    sheet: Scoresheet
    game: int | None
    cause: str
    stored: dict[int, GameEntry] = field(default_factory=dict)
    own: Change | None = None
    changes: tuple[Change, ...] = ()
    withdrawn: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


def rewrite(
    user,
    sheet: Scoresheet,
    before: Sheet,
    after: Sheet,
    *,
    cause: str,
    game: int | None,
    action: str | None = None,
    data: dict | Callable[[GameEntry | None], dict] | None = None,
    game_before: dict | None = None,
    withdraw: bool = True,
    signed: bool | None = None,
    stored_entries: list[GameEntry] | None = None,
    seats: list[Seat] | None = None,
) -> Written:
    """Store ``after`` for ``sheet`` (locked in the caller's transaction), which the engine
    scored as ``before`` until now. ``action`` and ``data``: the write's own history line
    (none where the caller records its own, a correction with its reason; ``data`` called with
    the game as stored where it needs it); ``game_before``: the game's record before a change
    (an entry changed into what it was changes nothing the players signed); ``withdraw`` off:
    signatures stay (a correction of a signed sheet, 5.3.4); ``signed``, ``stored_entries``,
    ``seats``: what the caller has just read (see ``withdraw_signatures`` and
    ``store_scored``)."""
    status = sheet.status  # before the write: store_scored sets the new one
    stored = store_scored([(sheet, after)], stored_entries, seats)[sheet.pk]
    found = changes(before, after)
    own = next((change for change in found if change.number == game), None)
    others = tuple(change for change in found if change.number != game)
    saved = stored.get(game) if game is not None else None
    content_changed = game_before is None or saved is None or saved.as_record() != game_before
    # 5.3.2, decided from the write's own result: a signature confirms the sheet as it was.
    withdrawn = (
        withdraw_signatures(user, sheet, status, signed) if withdraw and (content_changed or others) else []
    )
    tournament = sheet.match.tournament
    if action is not None:
        values = data(saved) if callable(data) else data or {}
        record(tournament, user, action, scoresheet=sheet, game=game, **values)
    for change in others:
        record(
            tournament,
            user,
            "entry.rescored",
            scoresheet=sheet,
            game=change.number,
            **as_record(change, cause, game),
        )
    texts = [change_text(change, cause, game) for change in others]
    return Written(sheet, game, cause, stored, own, others, withdrawn, texts)


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


W = TypeVar("W", covariant=True)


class Plan(Protocol[W]):
    """A write planned on a sheet as read, not yet carried out (``services.EntryPlan``, whose
    ``write`` goes through ``rewrite``)."""

    def write(self) -> W: ...


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

R = TypeVar("R")


@dataclass(frozen=True)
class Outcome(Generic[R]):
    """How a write went, told to the caller inside the write's transaction: the sheet it was
    planned on and its version before the write, what was written (``plan.write()``'s answer),
    or why it was refused."""

    sheet: Scoresheet
    previous: int
    entered: R | None
    refusal: ServiceError | PermissionDenied | None


def _planned(plan: Callable[[Scoresheet], Plan[R]], sheet: Scoresheet):
    try:
        return plan(sheet), None
    except (ServiceError, PermissionDenied) as refusal:
        return None, refusal


def carry_out(
    plan: Callable[[Scoresheet], Plan[R]],
    sheet: Scoresheet,
    relock: Callable[[Scoresheet], Scoresheet] = locked_sheet,
    then: Callable[[Outcome[R]], None] | None = None,
) -> R:
    """Carry out ``plan(sheet)`` on ``sheet`` (read with its match, tournament and table,
    unlocked): planned on the sheet as read, outside the lock, and written (``.write()``) if
    the sheet is at that same state once locked; otherwise ``relock`` reads it afresh (locked;
    the table's phone refuses a code renewed or a sheet signed meanwhile there) and it is
    planned again. ``then`` runs in the write's transaction with the outcome, a refusal too
    (the phone keeps its answer there). A refusal is raised once the transaction is committed;
    otherwise the answer is the write's (``services.Entered``, which holds the ``Written``)."""
    planned, refusal = _planned(plan, sheet)
    with transaction.atomic(), version_raised_last():
        if _LOCKED_STATE.first(sheet.pk) != (sheet.version, sheet.status, None, sheet.code):
            sheet = relock(sheet)  # written, signed or voided, its code renewed or its draw discarded
            planned, refusal = _planned(plan, sheet)
        previous = sheet.version
        written = None if planned is None else planned.write()
        if then is not None:
            then(Outcome(sheet, previous, written, refusal))
    if planned is None:
        assert refusal is not None
        raise refusal
    return written  # type: ignore[return-value]  # planned: written
