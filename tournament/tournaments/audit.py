"""Writing the log: every service records what it did with ``record``, and the record raises
the tournament's results version where the action changes the standings (``ACTIONS``): the one
place the caches of the standings are told."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db.models import F

from ..prepared import Update, insert
from .models import ACTIONS, LogEntry, Tournament


def record(
    tournament: Tournament, user, action: str, *, scoresheet=None, game: int | None = None, **data
) -> LogEntry:
    """One log entry: ``action`` must be one of ``ACTIONS``, which declares its label and
    whether it changes the standings; one that does raises the results version, in the
    caller's transaction (every write runs in one)."""
    declared = ACTIONS.get(action)
    if declared is None:
        raise ValueError(
            f"unknown log action {action!r}: declare it in ACTIONS with its label and "
            "whether it changes the standings"
        )
    entry = insert(  # as LogEntry.objects.create, its INSERT compiled once: every game writes one
        LogEntry(
            tournament=tournament,
            scoresheet=scoresheet,
            game=game,
            action=action,
            user=user if getattr(user, "pk", None) else None,
            user_name=user.get_username() if hasattr(user, "get_username") else "",
            data=data,
        )
    )
    if declared.standings:
        pending = getattr(_LAST, "pending", None)
        if pending is None:
            raise_results_version(tournament)
        else:
            pending.add(tournament.pk)
    return entry


_LAST = threading.local()


@contextmanager
def version_raised_last() -> Iterator[None]:
    """Inside a write's transaction: the records of the block raise the results version once, as
    the block's last statement (on its way out without an error; an error rolls the
    transaction back anyway). On PostgreSQL the tournament's row, shared by every table, is then
    locked from that UPDATE to the commit only: raised at the record, the entries of all other
    tables waited for the rest of the entry (the table-entry bench's p95 went from 113 ms to
    1.6 s). Nested blocks raise at the outermost's end."""
    if getattr(_LAST, "pending", None) is not None:
        yield
        return
    pending: set[int] = set()
    _LAST.pending = pending
    try:
        yield
    finally:
        _LAST.pending = None
    for pk in sorted(pending):
        _RAISE_VERSION(pk)


def raise_results_version(tournament: Tournament) -> None:
    """Tell every cache of the tournament's standings that they changed: one UPDATE of its row,
    which PostgreSQL then holds until the commit (a write records last, so that entries at
    other tables wait for it the shortest time). ``record`` calls it; nothing else in the app
    does. (The bench and tests that write rows around the services call it for them.)"""
    _RAISE_VERSION(tournament.pk)


# Every game entered raises it: one statement, compiled once (tournament.prepared).
_RAISE_VERSION = Update(
    lambda pk: Tournament.objects.filter(pk=pk), int, fixed={"results_version": F("results_version") + 1}
)


def record_sheet(user, sheet, action: str, *, game: int | None = None, **data) -> LogEntry:
    """One log entry of a scoresheet as a whole, naming its match and table (``record``)."""
    return record(
        sheet.match.tournament,
        user,
        action,
        scoresheet=sheet,
        game=game,
        match=sheet.match.number,
        table=sheet.table.number,
        **data,
    )
