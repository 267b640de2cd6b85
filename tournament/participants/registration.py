"""Reading a registration list (CSV or XLSX) and checking every row before anything is saved."""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from dataclasses import dataclass, field
from itertools import islice

from django.utils.translation import gettext as _
from openpyxl import load_workbook

from ..tournaments.models import EARLIEST_DATE, Tournament
from .models import MAX_START_NUMBER, Participant

COLUMNS = {
    "number": {"startnummer", "start number", "startnr", "startnr.", "nr", "nr.", "number", "nummer"},
    "name": {"name", "spieler", "teilnehmer", "participant"},
    "first_name": {"vorname", "first name", "first_name"},
    "last_name": {"nachname", "familienname", "last name", "last_name", "surname"},
    "club": {"verein", "club", "klub"},
    "birth_date": {"geburtsdatum", "geb.", "geboren", "birth date", "birth_date", "date of birth"},
    "team": {"mannschaft", "team"},  # issue 17: the team's name, created when new
}
MAX_ROWS = 5000
MAX_TEXT = 200  # a name or club, as stored


class RegistrationFileError(ValueError):
    """The file as a whole cannot be read."""


@dataclass
class RegistrationRow:
    row: int  # as the spreadsheet numbers it: the header is row 1
    number: int | None
    name: str
    club: str
    birth_date: datetime.date | None
    errors: list[str] = field(default_factory=list)
    team: str = ""  # issue 17

    @property
    def accepted(self) -> bool:
        return not self.errors

    def copy(self) -> RegistrationRow:
        return RegistrationRow(
            self.row, self.number, self.name, self.club, self.birth_date, list(self.errors), self.team
        )

    def as_dict(self) -> dict:
        return {
            "row": self.row,
            "number": self.number,
            "name": self.name,
            "club": self.club,
            "birth_date": self.birth_date.isoformat() if self.birth_date else None,
            "errors": self.errors,
            "team": self.team,
        }

    @classmethod
    def from_dict(cls, data: dict) -> RegistrationRow:
        birth = data.get("birth_date")
        return cls(
            row=data["row"],
            number=data["number"],
            name=data["name"],
            club=data["club"],
            birth_date=datetime.date.fromisoformat(birth) if birth else None,
            errors=list(data.get("errors", [])),
            team=data.get("team", ""),
        )


def _decoded(content: bytes) -> str:
    """The text of an uploaded list: UTF-16 when it starts with its byte order mark (Excel's
    "Unicode text"), else UTF-8, else Windows' cp1252 (Excel's "CSV" in Germany)."""
    encodings = ("utf-16",) if content[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig", "cp1252")
    for encoding in encodings:
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise RegistrationFileError(_("The file is not readable text."))


def _csv_problem(error: csv.Error) -> str:
    text = str(error)
    if "field larger than field limit" in text:
        return _("a field is longer than %(limit)s characters") % {"limit": csv.field_size_limit()}
    if "unexpected end of data" in text or "EOF" in text:
        return _("a double quote is opened but never closed")
    return _("it is not a well-formed CSV line (check the double quotes)")


def _read_csv(content: bytes) -> list[list[object]]:
    text = _decoded(content)
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=";,\t")
        reader = csv.reader(io.StringIO(text), dialect, strict=True)
    except csv.Error:
        delimiter = ";" if sample.count(";") > sample.count(",") else ","
        reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    rows: list[list[object]] = []
    while len(rows) < MAX_ROWS + 2:  # more than that is refused anyway
        starts = reader.line_num + 1  # the line the row begins on, however many it runs over
        try:
            rows.append(next(reader))
        except StopIteration:
            break
        except csv.Error as error:  # a field longer than csv allows, an open quote
            raise RegistrationFileError(
                _("Row %(row)s cannot be read: %(error)s.") % {"row": starts, "error": _csv_problem(error)}
            ) from None
    return rows


MAX_SHEET_BYTES = 20 * 1024 * 1024  # far beyond 5000 rows of a registration list, unpacked


def _read_xlsx(content: bytes) -> list[list[object]]:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = max(
                (i.file_size for i in archive.infolist() if i.filename.startswith("xl/worksheets/")),
                default=0,
            )
    except zipfile.BadZipFile:
        raise RegistrationFileError(_("The file is not a readable Excel workbook (.xlsx).")) from None
    if unpacked > MAX_SHEET_BYTES:  # refused before reading: a million rows, or a zip bomb
        raise RegistrationFileError(_("The file has more than %(max)s rows.") % {"max": MAX_ROWS})
    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds for a broken file
        raise RegistrationFileError(_("The file is not a readable Excel workbook (.xlsx).")) from None
    try:
        sheet = book.worksheets[0]
        # Only as many rows as can be accepted: a sheet of a million rows is refused at once.
        return [list(row) for row in islice(sheet.iter_rows(values_only=True), MAX_ROWS + 2)]
    except Exception:  # a broken sheet inside a readable archive
        raise RegistrationFileError(_("The file is not a readable Excel workbook (.xlsx).")) from None
    finally:
        book.close()


def read_table(filename: str, content: bytes) -> list[list[object]]:
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        return _read_xlsx(content)
    if lower.endswith((".csv", ".txt")):
        return _read_csv(content)
    raise RegistrationFileError(_("Please upload a .csv or .xlsx file."))


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _date(value: object) -> datetime.date | None:
    if value is None or _text(value) == "":
        return None
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    text = _text(value)
    for pattern in ("%d.%m.%Y", "%Y-%m-%d", "%d/%m/%Y"):
        try:
            parsed = datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
        if re.search(r"\d{4}", text):
            return parsed
    raise ValueError(text)


def _header(row: list[object]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(row):
        label = _text(cell).lower()
        for key, names in COLUMNS.items():
            if label in names and key not in found:
                found[key] = index
    return found


def parse(table: list[list[object]]) -> list[RegistrationRow]:
    """Rows of the first sheet; the first row names the columns."""
    if not table:
        raise RegistrationFileError(_("The file is empty."))
    columns = _header(table[0])
    if "name" not in columns and "last_name" not in columns:
        raise RegistrationFileError(
            _("The first row must name the columns: Startnummer, Name, Verein, Geburtsdatum.")
        )
    if len(table) - 1 > MAX_ROWS:
        raise RegistrationFileError(_("The file has more than %(max)s rows.") % {"max": MAX_ROWS})

    def cell(values: list[object], key: str) -> object:
        index = columns.get(key)
        return values[index] if index is not None and index < len(values) else None

    rows = []
    for offset, values in enumerate(table[1:], start=2):
        if all(_text(v) == "" for v in values):
            continue
        errors = []
        name = _text(cell(values, "name"))
        if not name and ("last_name" in columns):
            last, first = _text(cell(values, "last_name")), _text(cell(values, "first_name"))
            name = f"{last}, {first}" if last and first else last or first
        if not name:
            errors.append(_("the name is missing"))
        number = None
        raw_number = _text(cell(values, "number"))
        if raw_number:
            if raw_number.isascii() and raw_number.isdigit() and 1 <= int(raw_number) <= MAX_START_NUMBER:
                number = int(raw_number)
            else:
                errors.append(_("“%(value)s” is not a start number") % {"value": raw_number[:20]})
        club = _text(cell(values, "club"))
        team = _text(cell(values, "team"))
        for what, value in ((_("the name"), name), (_("the club"), club), (_("the team"), team)):
            if "\x00" in value:
                errors.append(_("%(what)s holds a NUL character") % {"what": what})
            elif "\n" in value or "\r" in value:
                errors.append(
                    _("%(what)s runs over a line break (is a double quote left open?)") % {"what": what}
                )
            elif len(value) > MAX_TEXT:
                errors.append(
                    _("%(what)s is longer than %(limit)s characters") % {"what": what, "limit": MAX_TEXT}
                )
        birth = None
        try:
            birth = _date(cell(values, "birth_date"))
        except ValueError as error:
            errors.append(
                _("the date of birth “%(value)s” cannot be read (e.g. 02.04.1961)")
                % {"value": error.args[0][:40]}
            )
        if birth is not None and not EARLIEST_DATE <= birth <= datetime.date.today():
            errors.append(
                _("the date of birth %(value)s cannot be right") % {"value": birth.strftime("%d.%m.%Y")}
            )
            birth = None
        clean = not errors
        rows.append(
            RegistrationRow(
                offset,
                number,
                name if clean else name[:MAX_TEXT].replace("\x00", ""),
                club if clean else club[:MAX_TEXT].replace("\x00", ""),
                birth,
                errors,
                team if clean else team[:MAX_TEXT].replace("\x00", ""),
            )
        )
    return rows


def age_on(birth: datetime.date, day: datetime.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def check(
    tournament: Tournament, rows: list[RegistrationRow], exclude: int | None = None
) -> list[RegistrationRow]:
    """Add every reason a row would be refused, against the file and the tournament (but for
    the participant ``exclude``, the one being changed)."""
    existing = list(Participant.objects.filter(tournament=tournament).exclude(pk=exclude))
    taken = {p.number: p for p in existing}
    people = {(p.name.casefold(), p.birth_date): p for p in existing if p.birth_date}
    min_age = tournament.rules.min_age
    seen_numbers: dict[int, int] = {}
    seen_people: dict[tuple[str, datetime.date], int] = {}
    for row in rows:
        if row.number is not None:
            if row.number in taken:
                row.errors.append(
                    _("start number %(number)s is already %(name)s's")
                    % {"number": row.number, "name": taken[row.number].name}
                )
            elif row.number in seen_numbers:
                row.errors.append(
                    _("start number %(number)s is also in row %(other)s")
                    % {"number": row.number, "other": seen_numbers[row.number]}
                )
            else:
                seen_numbers[row.number] = row.row
        if row.birth_date is not None:
            if row.birth_date > tournament.date:
                row.errors.append(_("the date of birth is after the tournament"))
            elif age_on(row.birth_date, tournament.date) < min_age:
                row.errors.append(_("younger than %(age)s on the tournament day (5.2.12)") % {"age": min_age})
            if row.name:
                person = (row.name.casefold(), row.birth_date)
                if person in people:
                    row.errors.append(
                        _("%(name)s with this date of birth is already registered (no. %(number)s)")
                        % {"name": people[person].name, "number": people[person].number}
                    )
                elif person in seen_people:
                    row.errors.append(
                        _("the same name and date of birth are also in row %(other)s")
                        % {"other": seen_people[person]}
                    )
                else:
                    seen_people[person] = row.row
    return rows
