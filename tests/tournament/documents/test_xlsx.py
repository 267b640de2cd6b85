"""The XLSX writer (openpyxl's write-only mode): what it writes reads back with openpyxl, cell for
cell and type for type."""

import datetime
import io
import xml.etree.ElementTree as ET
from decimal import Decimal
from zipfile import ZipFile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from openpyxl.utils.escape import unescape

from tournament.documents.xlsx import MAX_TEXT, sheet_titles, workbook_bytes


def read(content: bytes):
    return load_workbook(io.BytesIO(content))


def test_values_keep_their_types():
    rows = [
        [1, -40, True, 2.5, Decimal("1.25"), "Sauspiel", None, "", datetime.date(2026, 11, 21)],
        [0, 10**12, False, -0.0, Decimal("-3"), "x", "y", "z", datetime.date(1900, 3, 1)],
        [float("nan"), float("inf"), Decimal("sNaN"), Decimal("1E+2"), 1e-7],
    ]
    book = read(workbook_bytes([("Werte", ["a", "b", "c", "d", "e", "f", "g", "h", "i"], rows)]))
    sheet = book["Werte"]
    values = list(sheet.iter_rows(min_row=2, values_only=True))
    # a date is a real date, shown the German way
    assert values[0] == (1, -40, True, 2.5, 1.25, "Sauspiel", None, None, datetime.datetime(2026, 11, 21))
    assert values[1] == (0, 10**12, False, 0, -3, "x", "y", "z", datetime.datetime(1900, 3, 1))
    assert sheet["I2"].is_date and sheet["I2"].number_format == "DD.MM.YYYY"
    assert values[2][:5] == ("nan", "inf", "sNaN", 100, 1e-7)  # what is no number stays text
    assert sheet["A2"].data_type == "n" and sheet["C2"].data_type == "b" and sheet["F2"].data_type == "s"


def test_user_text_stays_text():
    texts = [
        '=HYPERLINK("http://example.org","klick")',
        "=1+1",
        "+49 89 123",
        "@SUM(A1)",
        "Maier & Söhne <GmbH>",
        "  Leerzeichen vorn und hinten  ",
        "Anführungszeichen \"doppelt\" und 'einfach'",
        "Zeile 1\nZeile 2",
        "Windows\r\nZeilenende",
        "Ünïcödé ß € 🂡",
        "#N/A",
        "#DIV/0!",
        "=",
    ]
    sheet = read(workbook_bytes([("Namen", ["Name"], [[t] for t in texts])]))["Namen"]
    cells = [row[0] for row in sheet.iter_rows(min_row=2)]
    # A carriage return is written as Excel's "_x000D_" (XML would read a bare one as a line
    # feed); Excel and LibreOffice read it back as one, openpyxl leaves it to unescape.
    assert [unescape(c.value) for c in cells] == texts
    assert all(c.data_type == "s" for c in cells)  # never a formula, never an error


def test_control_characters_are_dropped_and_long_text_is_cut():
    rows = [["Hans\x01Maier\x1f"], ["x" * (MAX_TEXT + 10)], ["\x01\x02"]]
    sheet = read(workbook_bytes([("T", ["Name"], rows)]))["T"]
    assert sheet["A2"].value == "HansMaier"
    assert len(sheet["A3"].value) == MAX_TEXT
    assert sheet["A4"].value is None


def test_header_is_bold_and_stays_in_view_and_columns_are_wide_enough():
    sheet = read(workbook_bytes([("T", ["Nr.", "Name"], [[1, "Bartholomäus Obermaier-Huber"]])]))["T"]
    assert sheet["A1"].font.b and not sheet["A2"].font.b
    assert sheet.freeze_panes == "A2"
    assert sheet.column_dimensions["B"].width >= len("Bartholomäus Obermaier-Huber")


def test_many_columns_and_rows_longer_than_the_header():
    header = [f"h{n}" for n in range(30)]
    rows = [list(range(30))] * 150 + [list(range(35))]  # the long row comes after the sample
    sheet = read(workbook_bytes([("Breit", header, rows)]))["Breit"]
    assert sheet["AD1"].value == "h29"
    assert sheet["AD2"].value == 29
    assert sheet["AI152"].value == 34
    assert sheet.max_row == 152


def test_rows_can_be_a_generator_and_a_sheet_can_be_empty():
    book = read(workbook_bytes([("Leer", [], []), ("Viele", ["n"], ([n] for n in range(5000)))]))
    assert book.sheetnames == ["Leer", "Viele"]
    assert [r[0] for r in book["Viele"].iter_rows(min_row=2, values_only=True)] == list(range(5000))


def test_sheet_titles_are_made_valid_and_unique():
    titles = sheet_titles(
        ["Gesamt", "gesamt", "a/b:c*d?[e]", "'zitiert'", "", "x" * 40, "x" * 40, "Gesamt"]
        + ["' 'abc", "x" * 30 + "'y", "Tab\tNeu\nZeile", "History", None]
    )
    assert titles == [
        "Gesamt",
        "gesamt (2)",
        "a b c d  e",
        "zitiert",
        "Sheet",
        "x" * 31,
        "x" * 27 + " (2)",
        "Gesamt (3)",
        "abc",  # no apostrophe at either end, however it got there
        "x" * 30,
        "Tab Neu Zeile",
        "History (2)",  # a name Excel reserves
        "Sheet (2)",
    ]
    book = read(workbook_bytes([(t, ["a"], [[1]]) for t in ["Spiele", "Spiele", "D1 T1"]]))
    assert book.sheetnames == ["Spiele", "Spiele (2)", "D1 T1"]


def test_every_part_is_well_formed_xml_and_declared():
    content = workbook_bytes([("A", ["x"], [["<&>"]]), ("B", ["y"], [[2]])])
    with ZipFile(io.BytesIO(content)) as archive:
        names = archive.namelist()
        assert "[Content_Types].xml" in names
        for name in names:
            ET.fromstring(archive.read(name))
        types = archive.read("[Content_Types].xml").decode()
    assert "/xl/worksheets/sheet1.xml" in types and "/xl/worksheets/sheet2.xml" in types


def test_what_excel_would_read_otherwise_is_kept_as_written():
    """ "_x000D_" in a text is an escaped character to Excel and LibreOffice: its "_" is escaped
    in turn. A number beyond a double's range would be infinity: it is written as text."""
    content = workbook_bytes([("T", ["a", None, "c"], [["Maier_x000D_", 10**400, Decimal("1E+400")]])])
    with ZipFile(io.BytesIO(content)) as archive:
        sheet_xml = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "Maier_x005F_x000D_" in sheet_xml
    sheet = read(content)["T"]
    assert unescape(sheet["A2"].value) == "Maier_x000D_"
    assert sheet["B2"].value == str(10**400) and sheet["C2"].value == "1E+400"
    assert sheet["B1"].value is None  # no header for that column


def test_no_sheets_is_refused():
    with pytest.raises(ValueError):
        workbook_bytes([])


def test_escapes_read_back_whatever_surrounds_them():
    texts = ["_x000D_", "_xABCD\r", "_\r", "\rx0041_", "_x005F_x000D_", "a_x00_b", "_X00fF_"]
    sheet = read(workbook_bytes([("T", ["a"], [[t] for t in texts])]))["T"]
    assert [unescape(row[0]) for row in sheet.iter_rows(min_row=2, values_only=True)] == texts


def test_a_double_keeps_all_its_digits():
    """openpyxl writes 16 significant digits; 0.1 + 0.2 needs 17."""
    sheet = read(workbook_bytes([("T", ["x"], [[0.1 + 0.2], [1 / 3], [2.5]])]))["T"]
    assert [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)] == [0.1 + 0.2, 1 / 3, 2.5]
    assert sheet["A2"].data_type == "n"


def test_a_date_is_a_date_and_a_moment_is_text():
    moment = datetime.datetime(2026, 11, 21, 14, 5, 30, 123)
    sheet = read(workbook_bytes([("T", ["Tag", "Zeit"], [[datetime.date(2026, 11, 21), moment]])]))["T"]
    assert isinstance(sheet["A2"].value, datetime.datetime) and sheet["A2"].is_date
    assert sheet["A2"].value == datetime.datetime(2026, 11, 21)
    assert sheet["B2"].value == "2026-11-21 14:05:30" and sheet["B2"].data_type == "s"


def test_progress_is_told_after_each_worksheet():
    calls = []
    content = workbook_bytes(
        [("A", ["x"], [[1]]), ("B", ["y"], [[2]]), ("C", [], [])], progress=lambda *a: calls.append(a)
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert read(content).sheetnames == ["A", "B", "C"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.one_of(
                st.none(),
                st.booleans(),
                st.integers(min_value=-(2**53), max_value=2**53),
                st.floats(allow_nan=False, allow_infinity=False, width=64),
                st.text(max_size=40),
            ),
            min_size=1,
            max_size=6,
        ),
        max_size=20,
    )
)
def test_whatever_is_written_reads_back(rows):
    sheet = read(workbook_bytes([("T", ["a", "b", "c", "d", "e", "f"], rows)]))["T"]
    read_back = list(sheet.iter_rows(min_row=2, max_row=len(rows) + 1, max_col=6, values_only=True))

    def expected(value):
        if isinstance(value, str):
            clean = "".join(c for c in value if c in "\t\n\r" or (c >= " " and c not in "\ufffe\uffff"))
            clean = "".join(c for c in clean if not "\ud800" <= c <= "\udfff")
            return clean or None
        return value

    for row, back in zip(rows, read_back, strict=True):
        back = [unescape(v) if isinstance(v, str) else v for v in back[: len(row)]]
        assert back == [expected(v) for v in row]
