"""Bulk registration from CSV and XLSX: every refused row with its reason, nothing half-saved."""

import datetime
import html
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tournament.errors import ServiceError
from tournament.models import Participant
from tournament.participants import registration
from tournament.participants.services import import_participants

pytestmark = pytest.mark.django_db

GOOD_CSV = (
    "Startnummer;Name;Verein;Geburtsdatum\n"
    "1;Huber, Sepp;SK Moosach;02.04.1961\n"
    "2;Maier, Resi;Schafkopffreunde Dachau;1970-05-17\n"
    ";Bauer, Toni;;\n"
)


def rows_of(tournament, text, filename="liste.csv"):
    content = text.encode("utf-8") if isinstance(text, str) else text
    rows = registration.parse(registration.read_table(filename, content))
    return registration.check(tournament, [r.copy() for r in rows])


def errors(tournament, text):
    return {r.row: r.errors for r in rows_of(tournament, text) if r.errors}


def test_a_good_list_is_accepted_and_imported(tournament, organiser):
    rows = rows_of(tournament, GOOD_CSV)
    assert all(r.accepted for r in rows)
    created = import_participants(organiser, tournament, rows)
    assert [(p.number, p.name) for p in created] == [
        (1, "Huber, Sepp"),
        (2, "Maier, Resi"),
        (3, "Bauer, Toni"),
    ]
    assert Participant.objects.get(number=1).birth_date == datetime.date(1961, 4, 2)


def test_missing_name(tournament):
    assert errors(tournament, "Nr,Name\n1,\n2,Huber\n") == {2: ["der Name fehlt"]}


def test_duplicate_start_number_in_the_file_and_in_the_tournament(tournament):
    Participant.objects.create(tournament=tournament, number=5, name="Schon Da")
    found = errors(tournament, "Nr;Name\n5;Huber\n6;Maier\n6;Bauer\n")
    assert found[2] == ["Startnummer 5 hat schon Schon Da"]
    assert found[4] == ["Startnummer 6 steht auch in Zeile 3"]
    assert 3 not in found


def test_same_name_and_birth_date_twice(tournament):
    Participant.objects.create(
        tournament=tournament, number=1, name="Huber, Sepp", birth_date=datetime.date(1961, 4, 2)
    )
    found = errors(
        tournament,
        "Name;Geburtsdatum\nhuber, sepp;02.04.1961\n"
        "Maier, Resi;17.05.1970\nMaier, Resi;17.05.1970\n"
        "Maier, Resi;18.05.1970\n",
    )
    assert found[2] == ["Huber, Sepp mit diesem Geburtsdatum ist schon angemeldet (Nr. 1)"]
    assert found[4] == ["derselbe Name mit demselben Geburtsdatum steht auch in Zeile 3"]
    assert set(found) == {2, 4}


def test_younger_than_the_minimum_age_on_the_tournament_day(tournament):
    # The tournament is on 2026-11-21; the official minimum age is 16 (5.2.12).
    found = errors(tournament, "Name;Geburtsdatum\nJung;22.11.2010\nGerade;21.11.2010\n")
    assert found == {2: ["am Turniertag jünger als 16 (5.2.12)"]}


def test_unreadable_date(tournament):
    found = errors(tournament, "Name;Geburtsdatum\nHuber;im Frühjahr\nMaier;31.02.1970\nBauer;1.4.61\n")
    assert found[2] == ["das Geburtsdatum „im Frühjahr“ ist nicht lesbar (z. B. 02.04.1961)"]
    assert found[3] == ["das Geburtsdatum „31.02.1970“ ist nicht lesbar (z. B. 02.04.1961)"]
    assert 4 in found


def test_file_without_a_name_column_is_refused():
    with pytest.raises(registration.RegistrationFileError):
        registration.parse(registration.read_table("x.csv", b"Spalte1;Spalte2\na;b\n"))


def test_other_file_types_are_refused():
    with pytest.raises(registration.RegistrationFileError):
        registration.read_table("liste.pdf", b"%PDF")
    with pytest.raises(registration.RegistrationFileError):
        registration.read_table("liste.xlsx", b"not a zip")


def test_xlsx_with_date_cells_and_first_and_last_names(tournament):
    book = Workbook()
    sheet = book.active
    sheet.append(["Startnummer", "Nachname", "Vorname", "Verein", "Geburtsdatum"])
    sheet.append([12, "Huber", "Sepp", "SK Moosach", datetime.datetime(1961, 4, 2)])
    sheet.append([13.0, "Maier", "Resi", None, None])
    buffer = io.BytesIO()
    book.save(buffer)
    rows = rows_of(tournament, buffer.getvalue(), "liste.xlsx")
    assert [(r.number, r.name, r.birth_date) for r in rows] == [
        (12, "Huber, Sepp", datetime.date(1961, 4, 2)),
        (13, "Maier, Resi", None),
    ]


def test_windows_csv_with_commas(tournament):
    content = "Nr,Name,Verein\n1,Müller,FC Weißbier\n".encode("cp1252")
    (row,) = rows_of(tournament, content)
    assert (row.name, row.club) == ("Müller", "FC Weißbier")


def test_refused_rows_block_the_whole_import(tournament, organiser):
    rows = registration.parse(registration.read_table("l.csv", b"Nr;Name\n1;Huber\n2;\n"))
    with pytest.raises(ServiceError) as error:
        import_participants(organiser, tournament, rows)
    assert "Zeile 3: der Name fehlt" in [str(d) for d in error.value.details]
    assert not Participant.objects.exists()


def test_only_accepted_rows_when_chosen(tournament, organiser):
    rows = registration.parse(registration.read_table("l.csv", b"Nr;Name\n1;Huber\n2;\n3;Bauer\n"))
    created = import_participants(organiser, tournament, rows, only_accepted=True)
    assert sorted(p.number for p in created) == [1, 3]


def test_upload_preview_then_import_through_the_pages(tournament, organiser, client):
    client.force_login(organiser)
    url = reverse("organiser:import", args=[tournament.slug])
    upload = SimpleUploadedFile(
        "liste.csv", b"Nr;Name;Geburtsdatum\n1;Huber;01.01.1960\n2;;\n3;Jung;01.01.2015\n"
    )
    response = client.post(url, {"file": upload}, follow=True)
    text = response.content.decode()
    assert "1 Zeile angenommen, 2 abgelehnt" in text
    assert "am Turniertag jünger als 16 (5.2.12)" in text
    assert not Participant.objects.exists()  # a preview saves nothing
    response = client.post(url, {"action": "import_all"}, follow=True)
    assert not Participant.objects.exists()  # refused rows block "import all"
    response = client.post(url, {"action": "import_accepted"}, follow=True)
    assert list(Participant.objects.values_list("number", "name")) == [(1, "Huber")]


def test_xlsx_export_keeps_formula_like_names_as_text(tournament, organiser, client):
    Participant.objects.create(
        tournament=tournament,
        number=1,
        name='=HYPERLINK("http://x","y")',
        club="@SUM(A1)",
        birth_date=datetime.date(1961, 4, 2),
    )
    client.force_login(organiser)
    response = client.get(reverse("organiser:export_participants", args=[tournament.slug]))
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=False))
    name_cell = rows[1][1]
    assert name_cell.value == '=HYPERLINK("http://x","y")'
    assert name_cell.data_type == "s"
    birth = rows[1][3]  # a real date an organiser can sort and compute with
    assert (
        birth.is_date and birth.value == datetime.datetime(1961, 4, 2) and birth.number_format == "DD.MM.YYYY"
    )


def million_rows() -> bytes:
    """An .xlsx of a million rows, written directly (openpyxl would take minutes)."""
    row = '<row><c t="inlineStr"><is><t>Huber, Sepp</t></is></c></row>'
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
        'spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>Name</t></is></c></row>'
        + row * 1_000_000
        + "</sheetData></worksheet>"
    )
    buffer = io.BytesIO()
    book = Workbook()
    book.save(buffer)  # a valid workbook whose only sheet is replaced
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = sheet.encode() if item.filename == "xl/worksheets/sheet1.xml" else source.read(item)
            target.writestr(item.filename, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("nul.csv", b"Name;Verein\nHuber\x00Sepp;SK\n", "der Name enthält ein NUL-Zeichen"),
        (
            "gross.csv",
            b"Startnummer;Name\n2147483648;Huber, Sepp\n",
            "„2147483648“ ist keine Startnummer",
        ),
        (
            "lang.csv",
            b"Name;Verein\n" + b"x" * 200_000 + b";SK\n",
            "Zeile 2 kann nicht gelesen werden: ein Feld ist länger als 131072 Zeichen.",
        ),
        (
            "offen.csv",
            b'Name;Verein\n"Huber, Sepp;SK\nMaier, Resi;SK\n',
            "Zeile 2 kann nicht gelesen werden: ein doppeltes Anführungszeichen wird geöffnet, "
            "aber nie geschlossen.",
        ),
        (
            "umbruch.csv",
            b'Name;Verein\n"Huber,\nSepp";SK\n',
            "der Name läuft über einen Zeilenumbruch (ist ein doppeltes Anführungszeichen offen geblieben?)",
        ),
        (
            "lang-feld.csv",
            b"Name;Verein\n" + b"x" * 300 + b";SK\n",
            "der Name ist länger als 200 Zeichen",
        ),
        (
            "alt.csv",
            b"Name;Geburtsdatum\nHuber, Sepp;01.01.1066\n",
            "das Geburtsdatum 01.01.1066 kann nicht stimmen",
        ),
    ],
)
def test_hostile_lists_get_a_message_and_nothing_is_saved(
    tournament, organiser, client, filename, content, message
):
    client.force_login(organiser)
    url = reverse("organiser:import", args=[tournament.slug])
    response = client.post(url, {"file": SimpleUploadedFile(filename, content)}, follow=True)
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert message in " ".join(text.split()), text[text.find("<main>") : text.find("</main>")]
    assert not tournament.participants.exists()


def test_excel_unicode_text_is_read(tournament):
    content = "Startnummer\tName\tVerein\tGeburtsdatum\r\n1\tGrünwald, Sepp\tSK Au\t02.04.1961\r\n"
    (row,) = registration.parse(registration.read_table("liste.txt", content.encode("utf-16")))
    assert (row.number, row.name, row.club, row.birth_date) == (
        1,
        "Grünwald, Sepp",
        "SK Au",
        datetime.date(1961, 4, 2),
    )


def test_a_million_rows_are_refused_at_once(tournament, organiser, client):
    content = million_rows()
    assert len(content) < 5 * 1024 * 1024  # under the upload limit
    client.force_login(organiser)
    url = reverse("organiser:import", args=[tournament.slug])
    response = client.post(url, {"file": SimpleUploadedFile("viele.xlsx", content)}, follow=True)
    assert "mehr als 5000 Zeilen" in response.content.decode()
