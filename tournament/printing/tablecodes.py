"""The table code on paper (issue 16): on each pre-filled scoresheet and on the table cards, the
QR code of the address the code opens, the code as typed and the address.

A pre-filled run prints up to 500 sheets, each with its own QR code, and is measured against a
plain table layout (``manage.py bench pdf``): so a sheet's QR code is the cheapest image there is
for WeasyPrint (``documents.qr.qr_png``). The table cards, a few dozen pages, carry a vector QR
code instead."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.safestring import SafeString

from ..documents.qr import qr_vector
from ..draw.models import Match, Seat
from ..results.models import Scoresheet
from ..results.sheet import SeatLine, seat_lines
from ..tablephone.codes import formatted
from ..tablephone.views import table_url


@dataclass(frozen=True)
class TableCode:
    """What the paper says of a table's code: the address it opens and the code as typed."""

    url: str
    shown: str  # two groups of five, as the players type it

    @property
    def scannable(self) -> bool:
        """A QR code only of a whole address: a bare path (no ``HALL_URL``, no request to take the
        host from) would open nothing on a phone."""
        return "://" in self.url


def code_works(sheet: Scoresheet) -> bool:
    """Whether the code still opens the sheet (as ``tablephone.codes.open_code`` says):
    not signed, not void, not of a discarded draw."""
    return (
        bool(sheet.code)
        and sheet.status not in (Scoresheet.Status.SIGNED, Scoresheet.Status.VOID)
        and not sheet.match.is_discarded
    )


def table_code(sheet: Scoresheet, request=None) -> TableCode | None:
    """The sheet's code as printed, or None where it no longer works."""
    if not code_works(sheet):
        return None
    return TableCode(url=table_url(sheet, request), shown=formatted(sheet.code))


@dataclass(frozen=True)
class TableCard:
    number: int
    seats: tuple[SeatLine, ...]  # seat 1 deals game 1 (2.2.2); five at a table of five
    size: int  # four, or five where the dealer sits out the game he deals
    scorekeeper: int  # 5.3.1
    code: TableCode | None
    qr: SafeString | None


def table_cards(match: Match, request=None) -> list[TableCard]:
    """One card a table of the match, in table order: who sits where and the table's code."""
    seats = Seat.objects.select_related("participant").prefetch_related("participant__substitutions")
    sheets = (
        Scoresheet.objects.filter(match=match)
        .select_related("table", "match__tournament")
        .prefetch_related(Prefetch("table__seats", queryset=seats))
        .order_by("table__number")
    )
    cards = []
    for sheet in sheets:
        code = table_code(sheet, request)
        cards.append(
            TableCard(
                number=sheet.table.number,
                seats=seat_lines(sheet, sheet.table.seats.all()),
                size=sheet.table.size,
                scorekeeper=sheet.table.scorekeeper,
                code=code,
                qr=qr_vector(code.url) if code and code.scannable else None,
            )
        )
    return cards
