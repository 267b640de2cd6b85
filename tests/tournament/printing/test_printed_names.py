"""Names on paper (issue 28, 16): a listed name never wraps before its comma ("Nußbaumer / ,
Hias"), and a certificate names a person as he is called ("Hias Nußbaumer")."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament.draw import services as draw_service
from tournament.models import Participant, Scoresheet
from tournament.names import comma_parts, spoken
from tournament.participants.services import update_participant
from tournament.printing import geometry
from tournament.printing import pdf as printing
from tournament.printing.pdf import name_fit
from tournament.standings import standings
from tournament.templatetags.tournament_extras import listed

pytestmark = pytest.mark.django_db

LISTED = [
    "Nußbaumer, Hias",
    "Obermüller, Wastl",
    "Hinterberger, Franz",
    "Großhuber-Weißenbacher, Franz Xaver",
    "Schwarzenberger, Resi",
]


def lines_of(content: bytes) -> list[str]:
    return [
        line.strip()
        for page in PdfReader(io.BytesIO(content)).pages
        for line in page.extract_text().splitlines()
    ]


@pytest.mark.parametrize("blank", [True, False])
def test_a_name_on_the_scoresheet_keeps_its_comma(played, blank):
    sheet = Scoresheet.objects.filter(match__tournament=played, match__number=1).first()
    for seat, name in zip(sheet.table.seats.order_by("position"), LISTED, strict=False):
        Participant.objects.filter(pk=seat.participant_id).update(name=name)
    lines = lines_of(printing.scoresheets_pdf([sheet], blank=blank, workers=1))
    assert not [line for line in lines if line.startswith(",")], lines


def test_a_name_at_a_table_of_five_keeps_its_comma(tournament, organiser, add_players):
    """The columns of a table of five are narrower: "Nußbaumer," takes a smaller size there."""
    add_players(tournament, 9)
    draw_service.draw_all(organiser, tournament, seed="fuenf")
    sheet = Scoresheet.objects.get(match__tournament=tournament, match__number=1, table__number=2)
    assert sheet.size == 5
    for seat, name in zip(sheet.table.seats.order_by("position"), LISTED, strict=True):
        Participant.objects.filter(pk=seat.participant_id).update(name=name)
    lines = lines_of(printing.scoresheets_pdf([sheet], blank=True, workers=1))
    assert not [line for line in lines if line.startswith(",")], lines
    assert {"Nußbaumer,", "Obermüller,", "Hinterberger,", "Weißenbacher,"} <= set(lines)


def test_a_word_too_long_for_its_column_keeps_its_last_letters_with_the_comma():
    """Broken where it must, a word too long even in the smallest size still takes its comma
    along: "Hinterobermoosbacher, Sepp" keeps "er," together."""
    assert str(listed("Nußbaumer, Hias")) == '<span class="nobreak">Nußbaumer,</span> Hias'
    assert (
        str(listed("Hinterobermoosbacher, Sepp", 2))
        == 'Hinterobermoosbach<span class="nobreak">er,</span> Sepp'
    )
    assert str(listed("Sepp <Huber>")) == "Sepp <Huber>"  # escaped by the template as any text
    assert str(listed("<b>Huber</b>, Sepp")) == '<span class="nobreak">&lt;b&gt;Huber&lt;/b&gt;,</span> Sepp'
    assert name_fit("Nußbaumer, Hias", geometry.FOUR) == ("long", 0)
    assert name_fit("Hinterobermoosbacherhuber, Sepp", geometry.FIVE) == ("longer", 2)


def test_the_seat_list_keeps_the_surname_with_its_comma(played, organiser, client):
    """The seat list breaks a name anywhere where its column is narrow, but not before its comma."""
    long_names = [f"{name} Maria Theresia Walburga" for name in LISTED]
    for participant, name in zip(played.participants.order_by("number"), long_names, strict=False):
        participant.name = name
        participant.save()
    client.force_login(organiser)
    html = client.get(reverse("organiser:seat_list_doc", args=[played.slug, "html"])).content.decode()
    assert '<span class="nobreak"><strong>Nußbaumer</strong>,</span> Hias Maria' in html
    assert '<span class="nobreak"><strong>Großhuber-Weißenbacher</strong>,</span> Franz' in html
    pdf = client.get(reverse("organiser:seat_list_doc", args=[played.slug, "pdf"])).content
    lines = lines_of(pdf)
    assert not [line for line in lines if line.startswith(",")], lines
    assert any(line.startswith("Nußbaumer,") for line in lines), lines


def test_the_table_list_and_cards_keep_the_surname_with_its_comma(played, organiser, client):
    seat = played.matches.get(number=1).tables.get(number=1).seats.get(position=1)
    Participant.objects.filter(pk=seat.participant_id).update(name="Großhuber-Weißenbacher, Franz")
    client.force_login(organiser)
    for name in ("organiser:table_list_doc", "referee:table_cards"):
        html = client.get(reverse(name, args=[played.slug, 1, "html"])).content.decode()
        assert 'Großhuber-<span class="nobreak">Weißenbacher,</span> Franz' in html, name


@pytest.mark.parametrize(
    ("name", "called"),
    [
        ("Nußbaumer, Hias", "Hias Nußbaumer"),
        ("  Huber ,Sepp ", "Sepp Huber"),
        ("Großhuber-Weißenbacher, Franz Xaver", "Franz Xaver Großhuber-Weißenbacher"),
        ("Hias Nußbaumer", "Hias Nußbaumer"),  # written as he is called already
        ("Nußbaumer", "Nußbaumer"),
        ("Nußbaumer,", "Nußbaumer,"),
        ("Huber, Sepp, Dr.", "Huber, Sepp, Dr."),  # which part is which cannot be told
    ],
)
def test_a_name_as_the_person_is_called(name, called):
    assert spoken(name) == called


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Nußbaumer, Hias", ("", "Nußbaumer,", " Hias")),
        ("Großhuber-Weißenbacher, Franz", ("Großhuber-", "Weißenbacher,", " Franz")),
        ("von der Tann , Max", ("von der ", "Tann,", " Max")),
        ("Hias Nußbaumer", ("Hias Nußbaumer", "", "")),
    ],
)
def test_the_word_a_comma_follows(name, parts):
    assert comma_parts(name) == parts


def test_certificates_name_people_as_they_are_called_and_the_lists_by_surname(played, organiser, client):
    first = standings.compute(played).rows[0]
    participant = played.participants.get(number=first.number)
    update_participant(organiser, participant, name="Nußbaumer, Hias")
    client.force_login(organiser)
    certificates = client.get(
        reverse("organiser:certificates_doc", args=[played.slug, "pdf"]), {"places": "1"}
    ).content
    (page,) = [page.extract_text() for page in PdfReader(io.BytesIO(certificates)).pages]
    assert "Hias Nußbaumer" in page and "Nußbaumer, Hias" not in page
    rankings = client.get(reverse("organiser:rankings_doc", args=[played.slug, "pdf"])).content
    assert "Nußbaumer, Hias" in "\n".join(lines_of(rankings))
