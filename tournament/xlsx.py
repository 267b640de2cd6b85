"""Writing XLSX with openpyxl so that user text never turns into a formula."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.writer.excel import ExcelWriter


def _cell(sheet, value, bold: bool = False):
    """A plain value where that is safe; a text cell for what openpyxl would otherwise take as
    a formula (a participant named "=HYPERLINK(...)" stays text). Control characters, which a
    workbook cannot hold, are dropped."""
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    if isinstance(value, str) and value.startswith("=") or bold:
        cell = WriteOnlyCell(sheet, value=value)
        if isinstance(value, str):
            cell.data_type = "s"
        if bold:
            cell.font = Font(bold=True)
        return cell
    return value


def workbook_bytes(sheets: Iterable[tuple[str, Sequence[str], Iterable[Sequence]]]) -> bytes:
    """``sheets``: (title, header, rows). Write-only mode keeps memory flat for long lists."""
    book = Workbook(write_only=True)
    for title, header, rows in sheets:
        sheet = book.create_sheet(title=title[:31])
        sheet.append([_cell(sheet, h, bold=True) for h in header])
        for row in rows:
            sheet.append([_cell(sheet, value) for value in row])
    buffer = io.BytesIO()
    # Light compression: most of the time of a large export went into deflating it.
    with ZipFile(buffer, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=1) as archive:
        ExcelWriter(book, archive).save()
    return buffer.getvalue()


XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
