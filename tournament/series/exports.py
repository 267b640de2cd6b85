"""The series' standings as documents: the context of the printed page (preview and PDF share
one template) and the Excel workbook (exports' contract: ``(filename, mimetype, bytes)``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..documents.xlsx import XLSX_MIME, workbook_bytes
from . import season as series_season
from . import standings as series_standings
from .models import Series


def awards(series: Series) -> list:
    """The declared awards with every winner named (the documents are the managers')."""
    if not series.awards:
        return []
    return series_season.awards(series, series_season.of_series(series), everything=True)


def context(series: Series) -> dict:
    return {"series": series, "standings": series_standings.compute(series), "awards": awards(series)}


def _award_rows(shown) -> list[list]:
    return [
        [
            str(item.given.award.label),
            item.given.rule,
            item.given.value,
            "; ".join(label for _winner, label in item.named) or _("nobody yet"),
        ]
        for item in shown
    ]


def _row(row) -> list:
    dropped = [f"{r.slug}: {r.points}" for r in row.cells if r is not None and not r.counted]
    note = ""
    if row.rank is None:
        note = _("not yet ranked")
    elif row.shared:
        note = _("shared rank")
    return [
        row.rank,
        row.number,
        row.name,
        row.club,
        row.attendances,
        row.counted,
        row.total,
        _("yes") if row.qualified else "",
        *(r.points if r is not None else None for r in row.cells),
        ", ".join(dropped),
        note,
    ]


def render_xlsx(series: Series) -> tuple[str, str, bytes]:
    found = series_standings.compute(series)
    tournaments = found.tournaments
    header = [
        *(label for _key, label in series_standings.COLUMNS),
        *(f"{t.date:%d.%m.%Y} {t.name}" for t in tournaments),
        _("Not counted"),
        _("Note"),
    ]
    rows = [_row(row) for row in found.rows]
    overview = [
        [t.date, t.name, t.slug, t.get_current_status_display(), t.participants.count()] for t in tournaments
    ]
    content = workbook_bytes(
        [
            (series.name, header, rows),
            (
                _("Tournaments"),
                [_("Date"), _("Name"), _("Short name"), _("Status"), _("Participants")],
                overview,
            ),
            (_("Rule"), [_("Rule")], [[line] for line in found.rule]),
            *(
                [(_("Awards"), [_("Award"), _("Rule"), _("Value"), _("Winners")], _award_rows(given))]
                if (given := awards(series))
                else []
            ),
        ]
    )
    return f"{series.slug}-wertung.xlsx", XLSX_MIME, content
