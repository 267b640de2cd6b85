"""Writing XLSX with openpyxl so that user text never turns into a formula."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font


def _cell(sheet, value, bold: bool = False):
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # a name like "=HYPERLINK(...)" stays text
    if bold:
        cell.font = Font(bold=True)
    return cell


def workbook_bytes(sheets: Iterable[tuple[str, Sequence[str], Iterable[Sequence]]]) -> bytes:
    """``sheets``: (title, header, rows). Write-only mode keeps memory flat for long lists."""
    book = Workbook(write_only=True)
    for title, header, rows in sheets:
        sheet = book.create_sheet(title=title[:31])
        sheet.append([_cell(sheet, h, bold=True) for h in header])
        for row in rows:
            sheet.append([_cell(sheet, value) for value in row])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
