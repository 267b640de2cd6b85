"""Exports with one contract (STYLE 7): ``render(tournament) -> (filename, mimetype, bytes)``,
registered by name, used by the pages and the commands alike."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from operator import attrgetter

from django.utils.translation import gettext as _

from ..documents.xlsx import XLSX_MIME, workbook_bytes
from ..prizes.worksheet import prize_worksheets
from ..results.load import load_sheets
from ..results.models import GameEntry, Scoresheet
from ..results.sheet import GameLine, SheetView
from ..results.store import DESCRIBING_FIELDS
from ..results.text import describe_entry
from ..standings import standings
from ..teams.exports import team_worksheets
from ..tournaments.models import Tournament


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
            ", ".join(
                _("%(name)s from match %(match)s, game %(game)s")
                % {"name": s.name, "match": s.from_match, "game": s.from_game}
                for s in row.substitutes
            ),
        ]
        for row in result.rows
    )
    title = _("Overall") if match is None else _("Match %(n)s") % {"n": match}
    return title, header, rows


def _describer():
    """describe_entry, remembered: the same few hundred descriptions recur thousands of times."""
    known: dict[tuple, str] = {}
    described = attrgetter(*(field for field in DESCRIBING_FIELDS if field != "written"))

    def describe(entry: GameEntry) -> str:
        key = (*described(entry), tuple(entry.written or ()))
        if key not in known:
            known[key] = describe_entry(entry)
        return known[key]

    return describe


class TournamentWorkbook:
    """Standings overall and per match with the tie-break columns (values, not formulas), every
    entry as a row, and one worksheet per scoresheet, all read from the one view of a sheet."""

    name = "xlsx"

    def render(
        self, tournament: Tournament, progress: Callable[[int, int], object] | None = None
    ) -> tuple[str, str, bytes]:
        """``progress(done, total)``, if given, is called as each of the ``total`` worksheets is
        written: a background job can show how far the workbook is."""
        rules = tournament.rules
        sheets = Scoresheet.objects.filter(
            match__tournament=tournament, match__discarded_at__isnull=True, entries__isnull=False
        ).distinct()
        ordered = sheets.order_by("match__number", "table__number")
        views = [read.view(rules) for read in load_sheets(ordered, signing=False)]
        describe = _describer()
        # A column a seat: a fifth where a table of five has games (the dealer's 0 in it).
        seats = max((view.size for view in views), default=4)
        worksheets = [_standings_sheet(tournament, None)]
        worksheets += [
            _standings_sheet(tournament, m.number) for m in tournament.matches.filter(drawn_at__isnull=False)
        ]
        worksheets += team_worksheets(tournament)  # issue 17: "Mannschaften", when there are teams
        worksheets += prize_worksheets(tournament)  # issue 17: "Preisliste", when declared
        game_header = [
            _("Match"),
            _("Table"),
            _("Game"),
            _("Game played"),
            _("Note"),
            *(_("Seat %(n)s") % {"n": n} for n in range(1, seats + 1)),
        ]
        struck, downgraded = _("struck (5.2.17)"), _("plain Solo/Wenz in game 1 (5.2.15)")
        voided, corrected = _("scoresheet void (5.3.6)"), _("corrected after signing (5.3.4)")

        def note(view: SheetView, game: GameLine) -> str:
            if view.void:  # 5.3.6: its games count for nothing, and the workbook says so
                return voided
            marks = [struck if game.struck else downgraded if game.downgraded else ""]
            if game.corrected:
                marks.append(corrected)
            return "; ".join(mark for mark in marks if mark)

        # Each game's text and note once: the Games sheet and its table's worksheet share them.
        lines = [
            [(game.number, describe(game.entry), note(view, game), *game.points) for game in view.entered]
            for view in views
        ]
        worksheets.append(
            (
                _("Games"),
                game_header,
                (
                    (view.sheet.match.number, view.sheet.table.number, *line)
                    for view, games in zip(views, lines, strict=True)
                    for line in games
                ),
            )
        )
        for view, games in zip(views, lines, strict=True):
            header = [
                _("Game"),
                _("Game played"),
                _("Note"),
                *(f"{seat.position}: {seat.name} ({seat.number})" for seat in view.seats),
            ]
            rows: list = list(games)
            rows.append(["", _("Match total"), "", *view.totals])
            if view.void:
                rows.append(["", f"{voided}: {view.sheet.void_reason}"])
            title = f"D{view.sheet.match.number} T{view.sheet.table.number}"
            worksheets.append((title, header, rows))
        stamp = datetime.date.today().isoformat()
        return f"{tournament.slug}-{stamp}.xlsx", XLSX_MIME, workbook_bytes(worksheets, progress)


EXPORTERS = {exporter.name: exporter for exporter in (TournamentWorkbook(),)}
