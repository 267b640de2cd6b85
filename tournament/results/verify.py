"""Checking that what is stored is what was entered and signed (5.3.2, 5.3.5).

Every sheet: each entry's stored points and marks are what the rules engine gives for it, and
each seat's stored points and tie-break counts (which the standings add up) are the sum of the
entries. Every signed sheet besides: its players are those who signed, and its content gives the
digest it was sealed with. Nothing here writes; a difference is reported, by match and table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..tournaments.models import Tournament
from .document import sheet_digest
from .load import LoadedSheet, load_sheets
from .models import Scoresheet
from .store import TALLY_FIELDS, scored_fields


@dataclass(frozen=True)
class Finding:
    match: int
    draw: int
    table: int
    text: str


def check(read: LoadedSheet) -> list[str]:
    """What differs on one sheet (as ``load_sheets`` read it, signatures included); an empty
    list when everything holds."""
    sheet = read.sheet
    rules = sheet.match.tournament.rules
    seats = read.seats
    view = read.view(rules)
    found = []
    for game in view.entered:
        stored = {key: getattr(game.entry, key) for key in scored_fields(game.row.scored)}
        if stored != scored_fields(game.row.scored):
            found.append(
                _("Game %(game)s: the stored points %(stored)s are not what the game gives, %(computed)s.")
                % {
                    "game": game.number,
                    "stored": "/".join(str(p) for p in game.entry.points),
                    "computed": "/".join(str(p) for p in game.points),
                }
            )
    for seat in seats:
        position = seat.position - 1
        expected = [view.totals[position], *(getattr(view.score.tallies[position], f) for f in TALLY_FIELDS)]
        stored = [seat.points, *(getattr(seat, f) for f in TALLY_FIELDS)]
        if stored != expected:
            found.append(
                _("Seat %(seat)s: the standings count %(stored)s, the games give %(computed)s.")
                % {"seat": seat.position, "stored": stored[0], "computed": expected[0]}
                if stored[0] != expected[0]
                else _("Seat %(seat)s: the tie-break counts stored differ from the games.")
                % {"seat": seat.position}
            )
    if sheet.digest:
        if sheet.signed_as and [s["number"] for s in sheet.signed_as["seats"]] != [
            seat.participant.number for seat in sorted(seats, key=lambda seat: seat.position)
        ]:
            found.append(_("The players on the seats are not those who signed."))
        if sheet_digest(sheet, rules) != sheet.digest:
            found.append(_("The content differs from what was signed: it does not give the digest."))
    return found


def findings(sheets: Iterable[Scoresheet]) -> list[Finding]:
    result = []
    for read in load_sheets(sheets):
        sheet = read.sheet
        for text in check(read):
            result.append(Finding(sheet.match.number, sheet.match.draw, sheet.table.number, text))
    return result


def verify_tournament(tournament: Tournament) -> tuple[int, int, list[Finding]]:
    """(sheets checked, signed sheets among them, findings) of every draw of the tournament."""
    sheets = list(
        Scoresheet.objects.filter(match__tournament=tournament).order_by(
            "match__number", "match__draw", "table__number"
        )
    )
    signed = sum(1 for sheet in sheets if sheet.digest)
    return len(sheets), signed, findings(sheets)
