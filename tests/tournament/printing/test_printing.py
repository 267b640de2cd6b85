"""Printed scoresheets (WeasyPrint): blank pre-filled sheets, filled and signed sheets."""

import io
import re

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from PIL import ImageFont
from pypdf import PdfReader

from scoring import Contract, Game, Result
from scoring.profiles import MAX_POINT_VALUE
from tournament import sealkey
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
    # issue 27: the seal (signed, then corrected: the second) with the key to check it
    assert "Siegel 2" in page and sealkey.public_key() in page.replace("\n", "").replace(" ", "")
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


def _fields(line: str, chars: int, seats: int = 4) -> list[str]:
    """The numbers of a line of the points box, field by field (tags left out)."""
    text = re.sub(r"<[^>]+>", "", line)
    assert len(text) == seats * chars, text  # each number padded to its column
    return [text[i : i + chars].strip() for i in range(0, len(text), chars)]


def test_games_are_lines_of_one_box_per_column(played):
    """One box per column for the whole sheet, a line a row: a missing game leaves its line empty
    and a round's row is an empty line, so every later game stays on its grid row."""
    sheet = Scoresheet.objects.get(match__tournament=played, match__number=1, table__number=1)
    sheet_service.delete_entry(COMMAND_LINE, sheet, 2, None)
    if sheet.approvals.filter(number=3).exists():
        sheet_service.withdraw_approval(COMMAND_LINE, sheet, 3)
    tout = Game(3, Contract.WENZ_TOUT, 2, result=Result.WON)  # without approval: struck (5.2.17)
    assert sheet_service.save_entry(COMMAND_LINE, sheet, tout, None, replace=True).struck
    context = printing.sheet_context(sheet, blank=False)
    blocks = {b["column"]: b for b in context["blocks"]}
    # contract; the struck game's players; players and result; points; round totals; match total
    assert list(blocks) == ["contract", "players", "result", "points", "rounds", "total"]
    lines = {key: str(b["html"]).split("\n") for key, b in blocks.items()}
    page = geometry.FOUR
    rows = page.layout(played.rules.games_per_match)
    line_of = {row.number: i for i, row in enumerate(rows) if row.kind == "game"}
    entries = {e.number: e for e in sheet.entries.all()}
    for key in ("contract", "result", "points"):
        assert blocks[key]["top"] == rows[0].top
        assert lines[key][line_of[2]] == ""  # game 2 is missing
        assert lines[key][line_of[4] + 1] == ""  # round 1's row
    contract, players, result = short_entry(entries[1])
    assert lines["contract"][line_of[1]] == contract
    # players and result, a tab between: a single seat centred by two EN SPACEs
    centred = printing.EN_SPACES if len(players) == 1 else ""
    assert lines["result"][line_of[1]].startswith(f"{centred}{players}\t{result}".replace("&", "&amp;"))
    # the struck game: struck everywhere, its players in a box of their own (a tab after an
    # inline element would count from there), the result's line starting with its tab
    assert lines["contract"][line_of[3]].startswith('<span class="struck">')
    assert lines["players"][line_of[3]] == '<span class="struck">2</span>'
    assert not any(line for i, line in enumerate(lines["players"]) if i != line_of[3])
    assert lines["result"][line_of[3]].startswith('\t<span class="struck">')
    for number, entry in entries.items():
        assert _fields(lines["points"][line_of[number]], page.points_chars) == [str(p) for p in entry.points]
    circled = sum(
        1
        for e in entries.values()
        if not e.struck and e.kind != "sanction" and e.contract != "rufer" and e.declarer
    )
    assert circled and str(blocks["points"]["html"]).count('class="ring"') == circled  # 5.3.3
    # the running totals after each round, a line a round: what is stored for the games there are
    after_round_1 = [sum(entries[n].points[p] for n in (1, 3, 4)) for p in range(4)]
    assert _fields(lines["rounds"][0], page.points_chars) == [str(v) for v in after_round_1]
    assert len(lines["rounds"]) == played.rules.games_per_match // 4
    round_1 = rows[line_of[4] + 1]
    middle = blocks["rounds"]["top"] + page.round_pitch / 2  # of its first line
    assert middle == pytest.approx(round_1.top + page.row / 2)
    totals = [seat.points for seat in sheet.table.seats.order_by("position")]
    assert _fields(lines["total"][0], page.total_chars) == [str(v) for v in totals]
    assert blocks["total"]["top"] == rows[-1].top


def test_a_void_sheet_strikes_each_text_not_the_gaps(played, supervisor):
    """5.3.6: every text struck on its own; a line struck as a whole would strike the spaces
    between the points columns and the tab between the players and the result too."""
    from tournament.results import signing

    sheet = Scoresheet.objects.get(match__tournament=played, match__number=1, table__number=1)
    signing.declare_void(supervisor, sheet, "unleserlich")
    sheet.refresh_from_db()
    blocks = {b["column"]: b for b in printing.sheet_context(sheet, blank=False)["blocks"]}
    for key in ("contract", "players"):
        lines = [line for line in str(blocks[key]["html"]).split("\n") if line]
        assert lines and all(re.fullmatch(r'<span class="struck">[^<]*</span>', line) for line in lines)
    for line in str(blocks["result"]["html"]).split("\n"):
        assert not line or line.startswith('\t<span class="struck">')
    for key in ("points", "rounds", "total"):
        html = str(blocks[key]["html"])
        assert not re.search(r"(^|\n|</span>) *-?\d", html)  # no number outside a struck span


@pytest.mark.parametrize("page", [geometry.FOUR, geometry.FIVE], ids=["four", "five"])
def test_the_points_line_up_with_their_columns(played, page):
    """The points box is DejaVu Sans Mono at a size that makes a field of ``points_chars`` (the
    match total: ``total_chars``) characters exactly a seat column wide, so the spaces that pad
    each number put its right end POINTS_INSET left of its column's right line."""
    for path in (geometry.MONO_FONT, geometry.MONO_FONT.replace(".ttf", "-Bold.ttf")):
        font = ImageFont.truetype(path, 2048)
        for char in "0123456789- ":
            assert font.getlength(char) / 2048 == geometry.MONO_ADVANCE, (path, char)
    width, game_pitch = page.column_width("1"), page.mono_size(page.points_chars)
    game_pitch *= geometry.MONO_ADVANCE
    for chars in (page.points_chars, page.total_chars):
        pitch = page.mono_size(chars) * geometry.MONO_ADVANCE
        assert chars * pitch == pytest.approx(width)
        for seat in range(1, page.seats + 1):
            right = page.column_x(str(seat)) + width - geometry.POINTS_INSET
            assert page.points_left() + seat * chars * pitch == pytest.approx(right)
    # The widest number a profile allows stays in its column: a game's circled (the ring's border
    # and padding stand 1.45 mm out on either side), a total of 96 games (a player plays as many
    # games at a table of five).
    assert len(str(-MAX_POINT_VALUE)) * game_pitch + 1.45 <= width - geometry.POINTS_INSET
    total_pitch = page.mono_size(page.total_chars) * geometry.MONO_ADVANCE
    assert len(str(-MAX_POINT_VALUE * 96)) * total_pitch <= width - geometry.POINTS_INSET
    # The grid fits the page with its margins (at least 8 mm either side).
    assert page.left >= 8 and page.left + page.grid_width <= geometry.PAGE_WIDTH - 8
    # and the printed page uses those fonts: a fallback would misalign the numbers
    sheet = Scoresheet.objects.filter(match__tournament=played).first()
    (page,) = PdfReader(io.BytesIO(printing.scoresheets_pdf([sheet], blank=False, workers=1))).pages
    fonts = {
        str(font.get_object()["/BaseFont"]).split("+")[-1] for font in page["/Resources"]["/Font"].values()
    }
    assert {"DejaVu-Sans-Mono", "DejaVu-Sans-Mono-Bold"} <= fonts


@pytest.mark.parametrize("page", [geometry.FOUR, geometry.FIVE], ids=["four", "five"])
def test_the_players_are_centred_and_the_tab_reaches_the_result(page):
    """The players and the result share a box: "1 & 3" centred in the declarer column from the
    box's left edge, a single seat after two EN SPACEs, the tab stop on the result's inset."""
    font = ImageFont.truetype(grid.FONT_FILES[0], 2048)
    assert font.getlength("1 & 3") / 2048 == geometry.PAIR_ADVANCE
    css = (settings.BASE_DIR / "static/css/scoresheet.css").read_text()
    assert re.search(r"^\.lines \{[^}]* font-size: 7pt;", css, re.M)  # geometry.TEXT_SIZE
    assert round(geometry.TEXT_SIZE * 72 / 25.4, 6) == 7  # pt
    middle = page.column_x("players") + page.column_width("players") / 2
    for pad, players in (("", "1 & 3"), (printing.EN_SPACES, "2")):
        centre = page.players_left() + _mm(pad, 7) + _mm(players, 7) / 2
        assert centre == pytest.approx(middle, abs=0.1), players
    tab = page.players_tab() * geometry.PX
    assert page.players_left() + tab == pytest.approx(page.result_x(), abs=0.01)
    assert f"tab-size: {page.players_tab()}px" in geometry.stylesheet((page.seats,))


def _mm(text: str, points: float) -> float:
    """The width of a text in DejaVu Sans (the printed font) in millimetres."""

    font = ImageFont.truetype(grid.FONT_FILES[0], 100)
    return font.getlength(text) / 100 * points * 25.4 / 72


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_longest_game_texts_fit_their_printed_columns(language):
    """The columns clip what is too long (white-space: pre): the longest texts must fit."""

    widths = dict(geometry.TEXT_COLUMNS)  # the same at a table of four and of five
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
            assert _mm(players, 7) <= widths["players"] - 1, players  # struck: a box of its own
            # else before the tab to the result (a longer text would tab to the next stop)
            pad = printing.EN_SPACES if len(players) == 1 else ""
            page = geometry.FOUR  # the same from the columns' left edge at five
            assert page.players_left() + _mm(pad + players, 7) + 1 <= page.result_x(), players
            longest = max(_mm(f"({note})", 6) for note in notes)
            assert _mm(result + " ", 7) + longest <= widths["result"] - 1.5, result


def test_what_is_under_the_grid_does_not_overlap(played):
    """Corrections, the signatures on their lines with the names, the digest, the page footer."""
    sheet = Scoresheet.objects.filter(match__tournament=played).first()
    page = printing.sheet_context(sheet, blank=False)
    line = geometry.bottom_of(geometry.FOUR.layout(played.rules.games_per_match)) + geometry.SIGN_LINE
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
    right_edge = (geometry.FOUR.left + geometry.FOUR.grid_width) * 72 / 25.4  # points
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
