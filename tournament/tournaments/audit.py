"""Writing the log: every service records what it did with ``record``."""

from __future__ import annotations

from ..prepared import insert
from .models import ACTIONS, LogEntry, Tournament


def record(
    tournament: Tournament, user, action: str, *, scoresheet=None, game: int | None = None, **data
) -> LogEntry:
    """One log entry: ``action`` must be one of ``ACTIONS`` (each has its label)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown log action {action!r}: add it with its label to ACTIONS")
    return insert(  # as LogEntry.objects.create, its INSERT compiled once: every game writes one
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
