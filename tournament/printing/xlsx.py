"""Writing XLSX workbooks: a streaming SpreadsheetML writer.

Why not openpyxl's write-only mode, which the project used first: the workbook of a
2,000-player tournament holds 818,000 cells on 1,505 worksheets, and openpyxl took 8 s for it
on our 2-core machine, 5.7 s of that in its per-cell writing (lxml elements for every cell);
XlsxWriter's constant-memory mode took 4.9 s for the same rows. The target is 5 s for the whole
export (issue 7). Writing the few XML parts ourselves takes about a second, streams every
worksheet straight into the archive (what is held is the compressed file and each distinct
text once, no temporary files) and keeps the workbook to what Excel and LibreOffice need.
openpyxl still reads workbooks: registration uploads, and the tests of everything written here.

User text is only ever written as an inline string, which a spreadsheet never evaluates: a
participant named ``=HYPERLINK(...)`` stays text. There are no formulas in what we write.
"""

from __future__ import annotations

import datetime
import io
import math
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import chain, islice
from xml.sax.saxutils import escape, quoteattr
from zipfile import ZIP_DEFLATED, ZipFile

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
# Excel and LibreOffice read "_x000D_" in a text as an escaped character: its "_" is escaped.
EXCEL_ESCAPE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")
# Numbers beyond a double's range would be read as infinity: written as text.
MAX_NUMBER = Decimal("1e308")
MAX_INT = 10**308

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
# A carriage return kept as itself (XML would read a bare one as a line feed).
CARRIAGE_RETURN = {"\r": "&#13;"}
BOLD = 1  # the index of the bold cell format in styles.xml
DATE = 2  # the index of the date format (DD.MM.YYYY) in styles.xml
EPOCH = datetime.date(1899, 12, 30)  # day 0 of a spreadsheet's date serial numbers
WIDTH_SAMPLE = 100  # rows looked at for the column widths


def column_letter(index: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def sheet_titles(titles: Iterable[str]) -> list[str]:
    """Titles Excel accepts: at most 31 characters, none of []:*?/\\, not empty, no apostrophe
    at either end, unique regardless of case (a repeated title gets " (2)", " (3)" ...)."""
    result: list[str] = []
    taken: set[str] = {"history"}  # reserved by Excel
    for title in titles:
        title = TITLE_ILLEGAL.sub(" ", ILLEGAL.sub("", "" if title is None else str(title)))
        title = title.strip(TITLE_ENDS)[:MAX_TITLE].strip(TITLE_ENDS) or "Sheet"
        candidate, count = title, 1
        while candidate.casefold() in taken:
            count += 1
            suffix = f" ({count})"
            candidate = title[: MAX_TITLE - len(suffix)].rstrip(TITLE_ENDS) + suffix
        taken.add(candidate.casefold())
        result.append(candidate)
    return result


class _Cells:
    """Turns values into cell XML. Texts recur (descriptions of games, names), so each text's
    XML is made once."""

    def __init__(self):
        self.texts: dict[str, str] = {}

    def text(self, value: str) -> str:
        known = self.texts.get(value)
        if known is None:
            clean = EXCEL_ESCAPE.sub("_x005F_", ILLEGAL.sub("", value))[:MAX_TEXT]
            space = ' xml:space="preserve"' if clean != clean.strip() else ""
            known = f' t="inlineStr"><is><t{space}>{escape(clean, CARRIAGE_RETURN)}</t></is></c>'
            if not clean:  # nothing left to show: an empty cell
                known = "/>"
            self.texts[value] = known
        return known

    def cell(self, value) -> str | None:
        """The part of ``<c r="A1"...`` after the reference, or None for an empty cell."""
        kind = type(value)
        if kind is int:
            return f"><v>{value}</v></c>" if -MAX_INT < value < MAX_INT else self.text(str(value))
        if kind is str:
            return self.text(value) if value else None
        if value is None:
            return None
        if kind is bool:
            return f' t="b"><v>{int(value)}</v></c>'
        if kind is float:
            return f"><v>{value!r}</v></c>" if math.isfinite(value) else self.text(str(value))
        if kind is Decimal:
            return (
                f"><v>{value}</v></c>"
                if value.is_finite() and abs(value) < MAX_NUMBER
                else self.text(str(value))
            )
        if isinstance(value, int):  # an IntegerChoices member, say
            return self.cell(int(value))
        if isinstance(value, datetime.datetime):  # a moment: as written, to the second
            return self.text(value.isoformat(sep=" ", timespec="seconds"))
        if isinstance(value, datetime.date):  # a real date, shown as 02.04.1961
            return f' s="{DATE}"><v>{(value - EPOCH).days}</v></c>'
        return self.text(str(value))  # lazy translations and anything else: as text


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


def _worksheet(part, title: str, header: Sequence, rows: Iterable[Sequence], cells: _Cells, first: bool):
    rows = iter(rows)
    sample = list(islice(rows, WIDTH_SAMPLE))
    widths = _widths(header, sample)
    if len(widths) > MAX_COLUMNS:
        raise ValueError(f"worksheet {title!r} has more than {MAX_COLUMNS} columns")
    columns = [column_letter(n) for n in range(1, len(widths) + 1)]
    selected = ' tabSelected="1"' if first else ""
    pane = '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' if header else ""
    cols = "".join(
        f'<col min="{n}" max="{n}" width="{width}" customWidth="1"/>'
        for n, width in enumerate(widths, start=1)
    )
    top = (
        f'{HEADER}<worksheet xmlns="{MAIN}"><sheetViews><sheetView workbookViewId="0"{selected}>'
        f"{pane}</sheetView></sheetViews>"
        f'<sheetFormatPr defaultRowHeight="15"/>{"<cols>" + cols + "</cols>" if cols else ""}<sheetData>'
    )
    part.write(top.encode())
    number = 0
    if header:
        number = 1
        header_cells = (
            f'<c r="{column}1" s="{BOLD}"{cells.text("" if value is None else str(value))}'
            for column, value in zip(columns, header, strict=False)
        )
        part.write(f'<row r="1">{"".join(header_cells)}</row>'.encode())
    chunk: list[str] = []
    cell = cells.cell
    for row in chain(sample, rows):
        number += 1
        if number > MAX_ROWS:
            raise ValueError(f"worksheet {title!r} has more than {MAX_ROWS:,} rows")
        if len(row) > len(columns):
            if len(row) > MAX_COLUMNS:
                raise ValueError(f"worksheet {title!r}: row {number} has more than {MAX_COLUMNS} columns")
            columns += [column_letter(n) for n in range(len(columns) + 1, len(row) + 1)]
        chunk.append(f'<row r="{number}">')
        for column, value in zip(columns, row, strict=False):
            xml = cell(value)
            if xml is not None:
                chunk.append(f'<c r="{column}{number}"{xml}')
        chunk.append("</row>")
        if len(chunk) > 8192:
            part.write("".join(chunk).encode())
            chunk.clear()
    chunk.append("</sheetData></worksheet>")
    part.write("".join(chunk).encode())


def _content_types(count: int) -> str:
    sheets = "".join(
        f'<Override PartName="/xl/worksheets/sheet{n}.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for n in range(1, count + 1)
    )
    return (
        f'{HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/styles.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
        '<Override PartName="/docProps/core.xml" '
        'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
        '<Override PartName="/docProps/app.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>'
        f"{sheets}</Types>"
    )


def _package_rels() -> str:
    return (
        f'{HEADER}<Relationships xmlns="{PACKAGE_REL}">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>'
        '<Relationship Id="rId2" '
        'Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" '
        'Target="docProps/core.xml"/>'
        f'<Relationship Id="rId3" Type="{REL}/extended-properties" Target="docProps/app.xml"/>'
        "</Relationships>"
    )


def _core(now: datetime.datetime) -> str:
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        f"{HEADER}<cp:coreProperties "
        'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        "<dc:creator>Schafkopf-Turnier</dc:creator>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified>'
        "</cp:coreProperties>"
    )


APP = (
    f'{HEADER}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
    "<Application>Schafkopf-Turnier</Application></Properties>"
)

# Fonts: the default and bold; the two fills every workbook must have; format 1 is bold,
# format 2 a date.
STYLES = (
    f'{HEADER}<styleSheet xmlns="{MAIN}">'
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="DD.MM.YYYY"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)


def _workbook(titles: list[str]) -> str:
    sheets = "".join(
        f'<sheet name={quoteattr(title)} sheetId="{n}" r:id="rId{n}"/>'
        for n, title in enumerate(titles, start=1)
    )
    return (
        f'{HEADER}<workbook xmlns="{MAIN}" xmlns:r="{REL}">'
        f'<bookViews><workbookView activeTab="0"/></bookViews><sheets>{sheets}</sheets></workbook>'
    )


def _workbook_rels(count: int) -> str:
    sheets = "".join(
        f'<Relationship Id="rId{n}" Type="{REL}/worksheet" Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, count + 1)
    )
    return (
        f'{HEADER}<Relationships xmlns="{PACKAGE_REL}">{sheets}'
        f'<Relationship Id="rId{count + 1}" Type="{REL}/styles" Target="styles.xml"/></Relationships>'
    )


def workbook_bytes(sheets: Sequence[tuple[str, Sequence, Iterable[Sequence]]]) -> bytes:
    """``sheets``: (title, header, rows) each; the header row is bold and stays in view. Rows
    are consumed as they are written, so a generator keeps memory flat for long lists."""
    if not sheets:
        raise ValueError("a workbook needs at least one worksheet")
    titles = sheet_titles(title for title, _header, _rows in sheets)
    buffer = io.BytesIO()
    # Light compression: at the default level, deflating takes as long as writing the XML.
    with ZipFile(buffer, "w", ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", _content_types(len(titles)))
        archive.writestr("_rels/.rels", _package_rels())
        archive.writestr("docProps/core.xml", _core(datetime.datetime.now(datetime.UTC)))
        archive.writestr("docProps/app.xml", APP)
        archive.writestr("xl/workbook.xml", _workbook(titles))
        archive.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(len(titles)))
        archive.writestr("xl/styles.xml", STYLES)
        cells = _Cells()
        for n, (title, (_title, header, rows)) in enumerate(zip(titles, sheets, strict=True), start=1):
            with archive.open(f"xl/worksheets/sheet{n}.xml", "w") as part:
                _worksheet(part, title, header, rows, cells, first=n == 1)
    return buffer.getvalue()
