"""Writing XLSX workbooks with openpyxl's write-only mode.

The file format is openpyxl's to keep right for every Excel version, not ours: this module only
prepares the values. Rows stream through one worksheet at a time (openpyxl keeps each written
worksheet in a temporary file until the workbook is saved), so a generator of rows keeps memory
flat for long lists.

What openpyxl would otherwise get wrong for user text, and what is done about it here:

* a text beginning with "=" would become a formula, and "#N/A" and the other error codes an
  error: such texts are written as text cells (data type "s"), which a spreadsheet never
  evaluates, so a participant named ``=HYPERLINK(...)`` stays text; "+", "-" and "@" at the
  start are plain text already;
* "_x000D_" in a text is an escaped character to Excel and LibreOffice: its "_" is escaped as
  "_x005F_", as Excel does;
* a carriage return would be read back as a line feed (XML reads a bare one so): it is written
  as "_x000D_", Excel's own escape for it;
* characters XML 1.0 cannot hold (and lone surrogates, which UTF-8 cannot) are dropped, texts are
  cut to Excel's 32,767 characters, numbers beyond a double's range are written as text.

Dates are real date cells (DD.MM.YYYY); a moment (datetime) is written as text to the second.
"""

from __future__ import annotations

import datetime
import io
import math
import re
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from itertools import chain, islice

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

MAX_ROWS = 1_048_576  # Excel's limits
MAX_COLUMNS = 16_384
MAX_TEXT = 32_767
MAX_TITLE = 31

# Characters XML 1.0 cannot hold (and lone surrogates, which UTF-8 cannot): dropped.
ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Characters a worksheet title may not contain.
TITLE_ILLEGAL = re.compile(r"[\[\]:*?/\\\t\n\r]")
TITLE_ENDS = " '"  # a title may not begin or end with an apostrophe; spaces there are lost
# An "_" that Excel would read as the start of an escaped character, "_x000D_" say, also where
# the "_" ending it comes from the carriage return written as "_x000D_".
EXCEL_ESCAPE = re.compile(r"_(?=x[0-9A-Fa-f]{4}[_\r])")
# Numbers beyond a double's range would be read as infinity: written as text.
MAX_NUMBER = Decimal("1e308")
MAX_INT = 10**308
DATE_FORMAT = "DD.MM.YYYY"
BOLD = Font(bold=True)
WIDTH_SAMPLE = 100  # rows looked at for the column widths


class Titles:
    """Titles Excel accepts: at most 31 characters, none of []:*?/\\, not empty, no apostrophe
    at either end, unique regardless of case (a repeated title gets " (2)", " (3)" ...)."""

    def __init__(self):
        self.taken: set[str] = {"history"}  # reserved by Excel

    def __call__(self, title) -> str:
        title = TITLE_ILLEGAL.sub(" ", ILLEGAL.sub("", "" if title is None else str(title)))
        title = title.strip(TITLE_ENDS)[:MAX_TITLE].strip(TITLE_ENDS) or "Sheet"
        candidate, count = title, 1
        while candidate.casefold() in self.taken:
            count += 1
            suffix = f" ({count})"
            candidate = title[: MAX_TITLE - len(suffix)].rstrip(TITLE_ENDS) + suffix
        self.taken.add(candidate.casefold())
        return candidate


def sheet_titles(titles: Iterable) -> list[str]:
    return list(map(Titles(), titles))


class _Guarded(str):
    """A text openpyxl would take for a formula or an error code: written as a text cell."""


def clean_text(value: str) -> str | None:
    """The text as it is handed to openpyxl, or None when nothing is left to show."""
    clean = EXCEL_ESCAPE.sub("_x005F_", ILLEGAL.sub("", value)).replace("\r", "_x000D_")[:MAX_TEXT]
    if not clean:
        return None
    if clean.startswith("=") and len(clean) > 1 or clean in ERROR_CODES:
        return _Guarded(clean)
    return clean


class _Values:
    """Turns values into what openpyxl's write-only worksheet takes: plain values where they
    need no style (openpyxl reuses one cell for them), a cell of their own where they do. Texts
    recur (descriptions of games, names), so each text is cleaned once."""

    def __init__(self):
        self.texts: dict[str, str | None] = {}
        self.sheet = None  # the worksheet cells are made for

    def text_cell(self, value: str, font: Font | None = None):
        cell = WriteOnlyCell(self.sheet, value)
        cell.data_type = "s"  # never a formula or an error
        if font is not None:
            cell.font = font
        return cell

    def text(self, value: str):
        try:
            clean = self.texts[value]
        except KeyError:
            clean = self.texts[value] = clean_text(value)
        return self.text_cell(clean) if type(clean) is _Guarded else clean

    def value(self, value):
        kind = type(value)
        if kind is int:
            return value if -MAX_INT < value < MAX_INT else self.text(str(value))
        if kind is str:
            return self.text(value)
        if value is None or kind is bool:
            return value
        if kind is float:
            if not math.isfinite(value):
                return self.text(str(value))
            if float(f"{value:.16g}") == value:
                return value
            # openpyxl writes 16 digits, a double may need 17: its shortest exact form instead
            cell = WriteOnlyCell(self.sheet, repr(value))
            cell.data_type = "n"
            return cell
        if kind is Decimal:
            return value if value.is_finite() and abs(value) < MAX_NUMBER else self.text(str(value))
        if isinstance(value, int):  # an IntegerChoices member, say
            return self.value(int(value))
        if isinstance(value, datetime.datetime):  # a moment: as written, to the second
            return self.text(value.isoformat(sep=" ", timespec="seconds"))
        if isinstance(value, datetime.date):  # a real date, shown as 02.04.1961
            cell = WriteOnlyCell(self.sheet)
            cell.number_format = DATE_FORMAT
            cell.value = value
            return cell
        return self.text(str(value))  # lazy translations and anything else: as text

    def header(self, value):
        clean = clean_text("" if value is None else str(value))
        return None if clean is None else self.text_cell(clean, BOLD)


def _widths(header: Sequence, rows: list[Sequence]) -> list[float]:
    """Column widths from the header and the first rows, within reason."""
    widths = [len(str(h)) + 2 if h is not None else 0 for h in header]
    for row in rows:
        for index, value in enumerate(row):
            length = len(str(value)) if value is not None else 0
            if index >= len(widths):
                widths.append(length)
            elif length > widths[index]:
                widths[index] = length
    return [min(max(width + 1, 6), 60) for width in widths]


def _write_sheet(book: Workbook, values: _Values, title: str, header: Sequence, rows: Iterable[Sequence]):
    sheet = book.create_sheet(title)
    values.sheet = sheet
    rows = iter(rows)
    sample = list(islice(rows, WIDTH_SAMPLE))
    widths = _widths(header, sample)
    if len(widths) > MAX_COLUMNS:
        raise ValueError(f"worksheet {title!r} has more than {MAX_COLUMNS} columns")
    # Widths and the frozen header go before the first row: openpyxl writes them first.
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    if header:
        sheet.freeze_panes = "A2"
        sheet.append([values.header(value) for value in header])
    value = values.value
    limit = MAX_ROWS - 1 if header else MAX_ROWS
    for number, row in enumerate(chain(sample, rows), start=1):
        if number > limit:
            raise ValueError(f"worksheet {title!r} has more than {MAX_ROWS:,} rows")
        if len(row) > MAX_COLUMNS:
            raise ValueError(f"worksheet {title!r}: a row has more than {MAX_COLUMNS} columns")
        sheet.append([value(v) for v in row])
    sheet.close()  # its temporary file is complete


def workbook_bytes(
    worksheets: Iterable[tuple[str, Sequence, Iterable[Sequence]]],
    progress: Callable[[int, int], object] | None = None,
) -> bytes:
    """``worksheets``: (title, header, rows) each; the header row is bold and stays in view.
    Rows are consumed as they are written. ``progress(done, total)`` is called after each
    worksheet is written (``total`` worksheets); saving the archive follows the last call."""
    worksheets = list(worksheets)
    if not worksheets:
        raise ValueError("a workbook needs at least one worksheet")
    book = Workbook(write_only=True)
    titles, values = Titles(), _Values()
    for done, (title, header, rows) in enumerate(worksheets, start=1):
        _write_sheet(book, values, titles(title), header, rows)
        if progress is not None:
            progress(done, len(worksheets))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
