"""What results answers for the layers below it (tournament/apps.py fills their slots): the
scoresheets of the draw's tables (tournament/draw/sheets.py), and whether a tournament has
results (tournament/tournaments/services.py)."""

from __future__ import annotations

from .models import Approval, GameEntry, Scoresheet


def has_results(tournament) -> bool:
    """Whether any game or approval was ever recorded (a discarded draw's too)."""
    return (
        GameEntry.objects.filter(scoresheet__match__tournament=tournament).exists()
        or Approval.objects.filter(scoresheet__match__tournament=tournament).exists()
    )


def results_count(match) -> int:
    """Games entered and approvals given on this match's scoresheets."""
    return (
        GameEntry.objects.filter(scoresheet__match=match).count()
        + Approval.objects.filter(scoresheet__match=match).count()
    )


def entries(match) -> list[tuple[int, dict]]:
    """The games on the match's sheets, table by table, as the history keeps them."""
    games = GameEntry.objects.filter(scoresheet__match=match).select_related("scoresheet__table")
    return [
        (entry.scoresheet.table.number, entry.as_record())
        for entry in games.order_by("scoresheet__table__number", "number")
    ]


def open_sheets(match, tables) -> None:
    Scoresheet.objects.bulk_create([Scoresheet(table=table, match=match) for table in tables])


def move_sheets(match, archived) -> None:
    Scoresheet.objects.filter(match=match).update(match=archived)


def lock_sheets(matches) -> None:
    sheets = Scoresheet.objects.select_for_update(of=("self",)).filter(match__in=matches)
    list(sheets.values_list("pk", flat=True))


def closed_sheets(matches) -> list[tuple[int, int]]:
    """5.3.5: signed and void sheets are documents; no draw replaces them."""
    return list(
        Scoresheet.objects.filter(
            match__in=matches, status__in=[Scoresheet.Status.SIGNED, Scoresheet.Status.VOID]
        )
        .order_by("match__number", "table__number")
        .values_list("match__number", "table__number")
    )
