"""Printed scoresheets (WeasyPrint): blank pre-filled sheets, filled and signed sheets."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from PIL import ImageFont
from pypdf import PdfReader

from scoring import Contract, Game, Result
from tournament.models import GameEntry, Participant, Scoresheet
from tournament.printing import geometry, grid
from tournament.printing import pdf as printing
from tournament.results import services as sheet_service
from tournament.results.sheet import note_text
from tournament.results.text import short_entry
from tournament.standings import standings
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def text_of(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def test_blank_sheets_of_a_match_one_page_each(played, tmp_path):
    target = tmp_path / "leer.pdf"
    out = io.StringIO()
    call_command("print_scoresheets", played.slug, "--match", "1", "--blank", "-o", str(target), stdout=out)
    pages = text_of(target.read_bytes())
    assert len(pages) == 3
    for number, page in enumerate(pages, start=1):
        sheet = Scoresheet.objects.get(match__tournament=played, match__number=1, table__number=number)
        assert f"Durchgang 1 · Tisch {number}" in page
        for seat in sheet.table.seats.all():
            assert seat.participant.name in page
        assert "-Sau" not in page and "Augen" not in page  # blank: no results


def test_filled_sheets_hold_games_points_and_totals(played):
    sheet = Scoresheet.objects.get(match__tournament=played, match__number=2, table__number=2)
    (page,) = text_of(printing.scoresheets_pdf([sheet], blank=False))
    first = sheet.entries.get(number=1)
    assert first.points and str(first.points[0]) in page
    for entry in sheet.entries.all():  # the usual German short forms: "Ei-Sau", "1 & 3"
        contract, players, _result = short_entry(entry)
        assert contract in page and players in page
    totals = [seat.points for seat in sheet.table.seats.order_by("position")]
    # labels such as "Endstand" are part of the grid image; the numbers are text
    for value in totals:
        assert str(value) in page


def test_a_signed_sheet_prints_its_digest_and_signatures(
    played, referee, supervisor, client, sign_and_correct
):
    sheet = Scoresheet.objects.get(match__tournament=played, match__number=1, table__number=1)
    sign_and_correct(referee, supervisor, sheet)
    client.force_login(referee)
    response = client.get(reverse("referee:sheet_pdf", args=[played.slug, 1, 1]))
    assert response["Content-Type"] == "application/pdf"
    (page,) = text_of(response.content)
    assert sheet.digest in page.replace("\n", "").replace(" ", "")
    assert "Zahlendreher" in page and "AUF" in page
    assert "berichtigt" in page  # 5.3.4: the corrected row is marked, the correction listed


def test_print_pages_and_preview(played, organiser, client):
    client.force_login(organiser)
    pdf = client.get(reverse("organiser:print_scoresheets", args=[played.slug, 2, "pdf"]), {"blank": "1"})
    assert len(PdfReader(io.BytesIO(pdf.content)).pages) == 3
    html = client.get(reverse("organiser:print_scoresheets", args=[played.slug, 2, "html"]))
    assert html.content.decode().count('class="sheet"') == 3


def test_long_runs_use_every_core_and_keep_the_order(played):
    sheets = list(
        Scoresheet.objects.filter(match__tournament=played)
        .select_related("table", "match__tournament")
        .order_by("match__number", "table__number")
    )
    single = text_of(printing.scoresheets_pdf(sheets, blank=True, workers=1))
    joined = text_of(printing.scoresheets_pdf(sheets * 8, blank=True, workers=2))
    assert len(single) == 6 and len(joined) == 48
    assert joined[:6] == single and joined[-6:] == single
    assert Scoresheet.objects.filter(match__tournament=played).count() == 6  # still connected


def test_an_undrawn_match_cannot_be_printed(tournament, tmp_path):
    with pytest.raises(CommandError, match="Match 1 of .* is not drawn"):
        call_command("print_scoresheets", tournament.slug, "--match", "1", "-o", str(tmp_path / "x.pdf"))
    count = tournament.matches.count()
    with pytest.raises(CommandError, match=f"has no match 9: it has {count} \\(1 to {count}\\)"):
        call_command("print_scoresheets", tournament.slug, "--match", "9", "-o", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize(
    ("name", "args", "query", "expected"),
    [
        ("rankings_doc", [], {}, ["Gesamtrangliste", "Rang"]),
        ("rankings_doc", [], {"match": "2"}, ["Rangliste des Durchgangs 2"]),
        ("certificates_doc", [], {"places": "2"}, ["Urkunde"]),
        ("seat_list_doc", [], {}, ["Wer sitzt wo"]),
        ("table_list_doc", [1], {}, ["Tische im Durchgang 1"]),
    ],
)
def test_documents_as_preview_and_pdf(played, organiser, client, name, args, query, expected):
    client.force_login(organiser)
    html = client.get(reverse(f"organiser:{name}", args=[played.slug, *args, "html"]), query)
    assert html.status_code == 200
    response = client.get(reverse(f"organiser:{name}", args=[played.slug, *args, "pdf"]), query)
    assert response["Content-Type"] == "application/pdf"
    pages = text_of(response.content)
    for text in expected:
        assert text in "".join(pages)
    if name == "certificates_doc":
        assert len(pages) == 2
    if name == "rankings_doc" and not query:
        first = standings.compute(played).rows[0]
        assert first.name in pages[0] and str(first.values["points"]) in pages[0]


def test_games_are_lines_of_one_box_per_column_and_round(played):
    """A missing game leaves its line empty, so every later game stays on its grid row."""
    sheet = Scoresheet.objects.get(match__tournament=played, match__number=1, table__number=1)
    sheet_service.delete_entry(COMMAND_LINE, sheet, 2, None)
    if sheet.approvals.filter(number=3).exists():
        sheet_service.withdraw_approval(COMMAND_LINE, sheet, 3)
    tout = Game(3, Contract.WENZ_TOUT, 2, result=Result.WON)  # without approval: struck (5.2.17)
    assert sheet_service.save_entry(COMMAND_LINE, sheet, tout, None, replace=True).struck
    context = printing.sheet_context(sheet, blank=False)
    rounds = played.rules.games_per_match // 4
    assert len(context["blocks"]) == rounds * 7  # contract, players, result, four points
    first_round = {b["column"]: str(b["html"]).split("\n") for b in context["blocks"][:7]}
    entries = {e.number: e for e in sheet.entries.all()}
    assert all(len(lines) == 4 for lines in first_round.values())
    assert first_round["contract"][1] == "" and first_round["1"][1] == ""
    assert short_entry(entries[1])[0] in first_round["contract"][0]
    assert first_round["contract"][2].startswith('<span class="struck">')
    circled = sum(
        1
        for e in entries.values()
        if not e.struck and e.kind != "sanction" and e.contract != "rufer" and e.declarer
    )
    assert (
        circled and sum(str(b["html"]).count('class="ring"') for b in context["blocks"]) == circled
    )  # 5.3.3
    # the running totals after each round: what is stored for the games there are
    after_round_1 = [sum(entries[n].points[p] for n in (1, 3, 4)) for p in range(4)]
    assert [p["value"] for p in context["totals"][0]["points"]] == after_round_1


def _mm(text: str, points: float) -> float:
    """The width of a text in DejaVu Sans (the printed font) in millimetres."""

    font = ImageFont.truetype(grid.FONT_FILES[0], 100)
    return font.getlength(text) / 100 * points * 25.4 / 72


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_longest_game_texts_fit_their_printed_columns(language):
    """The columns clip what is too long (white-space: pre): the longest texts must fit."""

    widths = {key: width for key, width in geometry.COLUMNS}
    contracts = [("rufer", s) for s in ("eichel", "gras", "schellen")] + [
        (c, s) for c in ("solo", "solo_tout") for s in ("eichel", "gras", "herz", "schellen", "")
    ]
    contracts += [("wenz", ""), ("wenz_tout", ""), ("sie", "")]
    entries = []
    for kind in (GameEntry.Kind.GAME, GameEntry.Kind.SANCTION):
        for contract, suit in contracts:
            for fields in (
                {"result": "lost", "schwarz": True},
                {"result": "won", "schneider": True},
                {"declarer_points": 120, "schwarz": True},
                {"invalid_announcement": True},
            ):
                entries.append(
                    GameEntry(
                        kind=kind, contract=contract, suit=suit, declarer=4, partner=3, liable=2, **fields
                    )
                )
    with translation.override(language):
        marks = (
            (True, False, False),
            (False, True, False),
            (False, False, True),
            (False, False, False, True),
        )
        notes = [note_text(*mark) for mark in marks]
        assert all(notes)
        for entry in entries:
            contract, players, result = short_entry(entry)
            assert _mm(contract, 7) <= widths["contract"] - 1.5, contract
            assert _mm(players, 7) <= widths["players"] - 1, players
            longest = max(_mm(f"({note})", 6) for note in notes)
            assert _mm(result + " ", 7) + longest <= widths["result"] - 1.5, result


def test_what_is_under_the_grid_does_not_overlap(played):
    """Corrections, the signatures on their lines with the names, the digest, the page footer."""
    sheet = Scoresheet.objects.filter(match__tournament=played).first()
    page = printing.sheet_context(sheet, blank=False)
    line = geometry.bottom_of(geometry.layout(played.rules.games_per_match)) + geometry.SIGN_LINE
    assert page["foot"] + 5 <= page["sign_top"]  # two lines of corrections fit above
    assert page["sign_top"] + 10 <= line < page["name_top"]
    assert page["name_top"] + 3 <= page["digest_top"]
    assert page["digest_top"] + 3 <= 297 - 6 - 2.5  # the page footer sits 6 mm from the bottom


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_signers_name_starts_after_the_lines_label(language):
    """The label under each signature line ("4: Unterschrift") and the signer's name beside it
    must not run into each other."""
    with translation.override(language):
        label = f"4: {translation.gettext('signature')}"
    assert _mm(label, 2.4 * 72 / 25.4) + 1 <= geometry.SIGN_LABEL


def test_long_names_are_not_clipped_on_the_sheet(played):
    """A long unbroken name wraps within its column and stays whole (issue 14, finding 14): every
    piece of it printed ends inside the grid's right edge."""
    sheet = Scoresheet.objects.filter(match__tournament=played, match__number=1).first()
    seat = sheet.table.seats.get(position=4)
    name = "Monika Hinterhuberoberkirchnerunterschleißheimer-Oberndorfer"
    Participant.objects.filter(pk=seat.participant_id).update(name=name)
    right_edge = (geometry.LEFT + geometry.GRID_WIDTH) * 72 / 25.4  # points
    for blank in (True, False):
        runs = []

        def visit(text, cm, tm, font, size, runs=runs):
            if text.strip() and text.strip() in name:
                x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
                runs.append((text.strip(), x, size * tm[0] * cm[0], y))

        (page,) = PdfReader(io.BytesIO(printing.scoresheets_pdf([sheet], blank=blank, workers=1))).pages
        page.extract_text(visitor_text=visit)
        printed = "".join(text for text, *_rest in runs)
        assert "Hinterhuberoberkirchnerunterschleißheimer-Oberndorfer" in printed.replace(" ", ""), runs
        box_bottom = (297 - geometry.SEAT_TOP - geometry.SEAT_HEIGHT) * 72 / 25.4  # from the page's foot
        for text, x, size, y in runs:
            assert x + _mm(text, size) * 72 / 25.4 <= right_edge + 1, (text, x, size)
            assert y >= box_bottom, (text, y, box_bottom)  # not cut off under the name's box


def test_a_signed_sheet_shows_the_names_as_signed(played, referee, sheet_of, sign, client, organiser):
    """Renamed after signing: the signed sheet, on screen and on paper, keeps what was signed."""
    from tournament.participants import services as participant_service
    from tournament.tournaments import services as tournament_service

    sheet = sign(referee, sheet_of(played, 1, 1))
    seat = sheet.table.seats.get(position=2)
    signed_name = seat.participant.name
    participant_service.update_participant(organiser, seat.participant, name="Umbenannt, Ulla")
    tournament_service.update_tournament(organiser, played, name="Neuer Turniername")
    (page,) = text_of(printing.scoresheets_pdf([sheet_of(played, 1, 1)], blank=False, workers=1))
    assert signed_name in page and "Umbenannt" not in page
    assert "Kirchweih-Schafkopf" in page and "Neuer Turniername" not in page
    client.force_login(referee)
    screen = client.get(reverse("referee:sheet", args=[played.slug, 1, 1])).content.decode()
    assert signed_name in screen and "Umbenannt" not in screen


@pytest.mark.parametrize(
    ("players", "club"), [(16, "Schafkopffreunde Unterschleißheim-Lohhof"), (32, "SK Au")]
)
def test_a_village_hall_ranking_fits_one_page_with_its_notes(client, organiser, tournament, players, club):
    """Walk of issue 14: 16 participants needed a second page for the two-line footnote."""
    import random

    from tournament.demo import generator
    from tournament.draw import services as draw_service

    generator.add_participants(tournament, players, random.Random(1))
    tournament.participants.update(club=club)
    draw_service.draw_all(COMMAND_LINE, tournament, seed="x")
    generator.fill_results(COMMAND_LINE, tournament, random.Random(1))
    client.force_login(organiser)
    response = client.get(reverse("organiser:rankings_doc", args=[tournament.slug, "pdf"]))
    (page,) = text_of(response.content)
    assert "Vorläufig" in page and "5.4.2" in page
