"""Exports with one contract (STYLE 7): ``render(tournament) -> (filename, mimetype, bytes)``,
registered by name, used by the pages and the commands alike."""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _

from ..draw.models import Seat
from ..results.models import GameEntry, Scoresheet
from ..results.text import describe_entry
from ..standings import standings
from ..tournaments.models import Tournament
from .xlsx import XLSX_MIME, workbook_bytes


def _standings_sheet(tournament: Tournament, match: int | None):
    result = standings.compute(tournament, match)
    header = [
        _("Rank"),
        _("No."),
        _("Name"),
        _("Club"),
        *(str(m.label) for m in standings.METRICS),
        _("decided by lot"),
        _("Substitutes"),
    ]
    rows = (
        [
            row.rank,
            row.number,
            row.name,
            row.club,
            *(row.values[m.key] for m in standings.METRICS),
            _("yes") if row.by_lot else "",
            ", ".join(f"{s.name} ({s.from_match}/{s.from_game})" for s in row.substitutes),
        ]
        for row in result.rows
    )
    title = _("Overall") if match is None else _("Match %(n)s") % {"n": match}
    return title, header, rows


# What describes a game (for describe_entry), and what a row of the workbook reads besides.
DESCRIBED = (
    "kind",
    "contract",
    "suit",
    "declarer",
    "partner",
    "result",
    "schneider",
    "schwarz",
    "declarer_points",
    "invalid_announcement",
    "liable",
)
ENTRY_FIELDS = (
    "scoresheet_id",
    "scoresheet__match__number",
    "scoresheet__table__number",
    "scoresheet__table_id",
    "number",
    *DESCRIBED,
    "written",
    "struck",
    "downgraded",
    "points_1",
    "points_2",
    "points_3",
    "points_4",
)


def _entries(tournament: Tournament) -> list[dict]:
    """Every entry as plain values, in sheet order: no model instances for 48,000 rows."""
    return list(
        GameEntry.objects.filter(scoresheet__match__tournament=tournament)
        .order_by("scoresheet__match__number", "scoresheet__table__number", "number")
        .values(*ENTRY_FIELDS)
    )


def _describer():
    """describe_entry, remembered: the same few hundred descriptions recur thousands of times."""
    known: dict[tuple, str] = {}

    def describe(values: dict) -> str:
        key = (*(values[f] for f in DESCRIBED), tuple(values["written"] or ()))
        if key not in known:
            known[key] = describe_entry(
                GameEntry(**{f: values[f] for f in DESCRIBED}, written=values["written"])
            )
        return known[key]

    return describe


class TournamentWorkbook:
    """Standings overall and per match with the tie-break columns (values, not formulas), every
    entry as a row, and one worksheet per scoresheet."""

    name = "xlsx"

    def render(self, tournament: Tournament) -> tuple[str, str, bytes]:
        seats: dict[int, list[tuple[int, str]]] = {}
        for table_id, number, name in (
            Seat.objects.filter(match__tournament=tournament)
            .order_by("table_id", "position")
            .values_list("table_id", "participant__number", "participant__name")
        ):
            seats.setdefault(table_id, []).append((number, name))
        entries = _entries(tournament)
        void = dict(  # 5.3.6: their games count for nothing, and the workbook says so
            Scoresheet.objects.filter(
                match__tournament=tournament, status=Scoresheet.Status.VOID
            ).values_list("id", "void_reason")
        )
        describe = _describer()
        sheets = [_standings_sheet(tournament, None)]
        sheets += [
            _standings_sheet(tournament, m.number) for m in tournament.matches.filter(drawn_at__isnull=False)
        ]
        game_header = [
            _("Match"),
            _("Table"),
            _("Game"),
            _("Game played"),
            _("Note"),
            *(_("Seat %(n)s") % {"n": n} for n in range(1, 5)),
        ]
        struck, downgraded = _("struck (5.2.17)"), _("plain Solo/Wenz in game 1 (5.2.15)")
        voided = _("scoresheet void (5.3.6)")

        def note(e: dict) -> str:
            if e["scoresheet_id"] in void:
                return voided
            return struck if e["struck"] else downgraded if e["downgraded"] else ""

        sheets.append(
            (
                _("Games"),
                game_header,
                (
                    [
                        e["scoresheet__match__number"],
                        e["scoresheet__table__number"],
                        e["number"],
                        describe(e),
                        note(e),
                        e["points_1"],
                        e["points_2"],
                        e["points_3"],
                        e["points_4"],
                    ]
                    for e in entries
                ),
            )
        )
        by_sheet: dict[int, list[dict]] = {}
        for entry in entries:
            by_sheet.setdefault(entry["scoresheet_id"], []).append(entry)
        for sheet_entries in by_sheet.values():
            first = sheet_entries[0]
            players = seats.get(first["scoresheet__table_id"], [])
            header = [
                _("Game"),
                _("Game played"),
                *(
                    f"{position}: {name} ({number})"
                    for position, (number, name) in enumerate(players, start=1)
                ),
            ]
            totals = [0, 0, 0, 0]
            rows = []
            for e in sheet_entries:
                points = (e["points_1"], e["points_2"], e["points_3"], e["points_4"])
                totals = [t + p for t, p in zip(totals, points, strict=True)]
                rows.append([e["number"], describe(e), *points])
            rows.append(["", _("Match total"), *totals])
            if first["scoresheet_id"] in void:
                rows.append(["", f"{voided}: {void[first['scoresheet_id']]}"])
            title = f"D{first['scoresheet__match__number']} T{first['scoresheet__table__number']}"
            sheets.append((title, header, rows))
        stamp = datetime.date.today().isoformat()
        return f"{tournament.slug}-{stamp}.xlsx", XLSX_MIME, workbook_bytes(sheets)


EXPORTERS = {exporter.name: exporter for exporter in (TournamentWorkbook(),)}
