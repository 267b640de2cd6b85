"""Tables of five on paper and in Excel (README readings): the pre-filled and the filled sheet
with five columns, 40 games and rounds of five on one A4 page, the sitting-out dealer's cell
shaded and his 0 in it; the workbook's fifth seat; table cards and lists with five names."""

import base64
import io
import re

import pytest
from django.urls import reverse
from django.utils.translation import gettext
from openpyxl import load_workbook
from PIL import Image
from pypdf import PdfReader

from scoring.entries import playing
from scoring.notation import parse_game
from tournament.draw import services as draw_service
from tournament.models import Participant, Scoresheet
from tournament.printing import geometry, grid
from tournament.printing import pdf as printing
from tournament.printing.tablecodes import table_cards
from tournament.printing.workbook import TournamentWorkbook
from tournament.results import services as sheet_service
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db

FIVE_TABLE = 5  # 21 = 4·4 + 5·1: the table of five is numbered last
MM = 72 / 25.4  # PDF points a millimetre


def sits_out_note() -> str:
    """The sheet of five's footer note, in the language of the test."""
    return gettext("Table of five: the dealer sits out the game he deals (grey cell) and scores 0")


def game_text(number: int) -> str:
    """Game ``number`` in the short notation, among the four who play it: a won Herz-Solo of
    the last of them in games 3, 11, 19 and 27 (seat 5 there: dealers 3, 1, 4 and 2), else a
    Sauspiel of the first two, won in odd games and lost in even ones."""
    players = playing(number, 5)
    if number % 8 == 3 and number < 30:
        return f"sh{players[-1]}+"
    return f"re{players[0]}{players[1]}{'+' if number % 2 else '-'}"


@pytest.fixture
def at_five(tournament, add_players):
    """21 players, both matches drawn: four tables of four and table 5 of five. Match 1's table
    of five has all its 40 games."""
    add_players(tournament, 21)
    draw_service.draw_all(COMMAND_LINE, tournament, seed="x")
    sheet = five_sheet(tournament)
    games = [parse_game(game_text(n), n, seats=5) for n in range(1, 41)]
    sheet_service.fill_sheets(COMMAND_LINE, tournament, [(sheet, games, {})])
    return tournament


def five_sheet(tournament, match=1) -> Scoresheet:
    return Scoresheet.objects.select_related("table", "match__tournament").get(
        match__tournament=tournament, match__number=match, table__number=FIVE_TABLE
    )


def names_of(sheet: Scoresheet) -> list[str]:
    return [seat.participant.name for seat in sheet.table.seats.order_by("position")]


def pages_of(content: bytes):
    return PdfReader(io.BytesIO(content)).pages


def runs_of(page) -> list[tuple[str, float, float]]:
    """Each text run of a PDF page with where it starts (mm from the page's left and top)."""
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
            runs.append((text, x / MM, 297 - y / MM))

    page.extract_text(visitor_text=visit)
    return runs


# Hand-checked (RULINGS 3 over the four who play; the dealer 0): the first round's games and
# the running totals after it, and the match total.
ROUND_1 = [
    (0, 1, 1, -1, -1),  # re23+, dealer 1
    (-1, 0, -1, 1, 1),  # re13-, dealer 2
    (-2, -2, 0, -2, 6),  # sh5+, dealer 3: the soloist's 6 circled
    (-1, -1, 1, 0, 1),  # re12-, dealer 4
    (1, 1, -1, -1, 0),  # re12+, dealer 5
]
AFTER_ROUND_1 = (-3, -1, 0, -3, 7)
TOTALS = (-9, -9, -7, -3, 28)


def numbers(line: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"-?\d+", re.sub(r"<[^>]+>", "", line)))


def test_a_filled_sheet_of_five_has_five_columns_forty_games_and_rounds_of_five(at_five):
    sheet = five_sheet(at_five)
    context = printing.sheet_context(sheet, blank=False)
    assert context["size"] == 5 and context["scope"] == "five"
    assert [seat["name"] for seat in context["seats"]] == names_of(sheet)
    assert [seat["x"] for seat in context["seats"]] == [geometry.FIVE.column_x(str(n)) for n in range(1, 6)]
    blocks = {block["column"]: block for block in context["blocks"]}
    points = str(blocks["points"]["html"]).split("\n")
    rows = geometry.FIVE.layout(40)
    assert [row.kind for row in rows].count("game") == 40 and [row.kind for row in rows].count("round") == 8
    assert [row.number for row in rows if row.kind == "round"] == list(range(1, 9))
    line_of = {row.number: i for i, row in enumerate(rows) if row.kind == "game"}
    assert [numbers(points[line_of[n]]) for n in range(1, 6)] == ROUND_1
    assert points[line_of[5] + 1] == ""  # round 1's row after the fifth game
    for number in range(1, 41):  # the dealer sits out: his 0, never circled
        line = points[line_of[number]]
        dealer = (number - 1) % 5 + 1
        fields = re.sub(r"<[^>]+>", "", line)
        assert len(fields) == 5 * geometry.FIVE.points_chars
        assert numbers(line)[dealer - 1] == 0 and sum(numbers(line)) == 0
    assert points[line_of[3]].endswith('<span class="ring">6</span>')  # 5.3.3: seat 5's solo
    rounds = str(blocks["rounds"]["html"]).split("\n")
    assert len(rounds) == 8 and numbers(rounds[0]) == AFTER_ROUND_1 and sum(AFTER_ROUND_1) == 0
    assert numbers(rounds[-1]) == TOTALS
    assert numbers(str(blocks["total"]["html"])) == TOTALS and blocks["total"]["top"] == rows[-1].top
    middle = blocks["rounds"]["top"] + geometry.FIVE.round_pitch / 2  # of round 1's line
    assert middle == pytest.approx(rows[line_of[5] + 1].top + geometry.FIVE.row / 2)


def test_rounds_without_games_carry_five_zeros(at_five):
    """A sheet of five printed with its games before any is entered: every round's line and the
    match total hold five fields, each a seat column wide."""
    context = printing.sheet_context(five_sheet(at_five, match=2), blank=False)
    blocks = {block["column"]: block for block in context["blocks"]}
    for line in str(blocks["rounds"]["html"]).split("\n"):
        assert line == ("0".rjust(geometry.FIVE.points_chars)) * 5
    assert str(blocks["total"]["html"]) == "0".rjust(geometry.FIVE.total_chars) * 5


def test_the_filled_sheet_of_five_prints_on_one_page(at_five):
    """A real PDF: one A4 page with the five names, game 40's points on game 40's row, seat 5's
    points in seat 5's column, round 1's totals on its line, the match total over five."""
    sheet = five_sheet(at_five)
    (page,) = pages_of(printing.scoresheets_pdf([sheet], blank=False, workers=1))
    assert float(page.mediabox.height) == pytest.approx(297 * MM, abs=1)
    text = page.extract_text()
    for name in names_of(sheet):
        assert name in text
    assert sits_out_note() in text.replace("\n", " ")  # the footer says who sits out
    runs = runs_of(page)
    page_five = geometry.FIVE
    rows = {(row.kind, row.number): row for row in page_five.layout(40)}

    def on_row(row, height):
        """The numbers of the points printed on a row, each with the seat whose column it ends
        in, read from where each run of the monospaced box starts."""
        found = []
        for text, x, top in runs:
            if rows[row].top - 1 <= top <= rows[row].top + height + 1 and x >= page_five.points_left() - 1:
                found.append((text, x))
        return " ".join(text for text, _x in sorted(found, key=lambda run: run[1]))

    assert numbers(on_row(("game", 40), page_five.row)) == (-1, -1, 1, 1, 0)  # re12-, dealer 5
    assert numbers(on_row(("game", 3), page_five.row))[4] == 6  # seat 5's circled Solo
    assert numbers(on_row(("round", 1), page_five.row)) == AFTER_ROUND_1
    assert numbers(on_row(("total", 0), geometry.TOTAL_ROW)) == TOTALS
    # nothing printed below the page's foot margin, and the signature lines under the grid
    assert all(top < 297 - 3 for _text, _x, top in runs)
    bottom = geometry.bottom_of(page_five.layout(40))
    under = geometry.under_grid(bottom)
    assert under["digest_top"] + 3 <= 297 - geometry.FOOT_BOTTOM - 2.5


def test_a_blank_sheet_of_five_marks_who_sits_out(at_five):
    """The pre-filled sheet: five names over five columns, no results, and in every game row the
    dealer's cell shaded in the grid image, so the table sees who sits out."""
    sheet = five_sheet(at_five, match=2)
    html = printing.render_html([sheet], blank=True)
    assert 'class="sheet five' in html
    assert ".five .pts" in html  # the page of five's rules, scoped
    (page,) = pages_of(printing.scoresheets_pdf([sheet], blank=True, workers=1))
    text = page.extract_text()
    for name in names_of(sheet):
        assert name in text
    assert "gewonnen" not in text and "-Sau" not in text
    png = grid.grid_png(40, "de", 5)
    assert f'src="{png}"' in html
    image = Image.open(io.BytesIO(base64.b64decode(png.split(",", 1)[1])))

    def grey(mm_x: float, mm_y: float) -> int:
        return image.getpixel((round(mm_x * grid.DPI / 25.4), round(mm_y * grid.DPI / 25.4)))

    five = geometry.FIVE
    for row in five.layout(40):
        if row.kind != "game":
            continue
        middle = row.top + five.row / 2
        for seat in range(1, 6):
            centre = five.column_x(str(seat)) + five.seat_width / 2
            expected = grid.SITTING_OUT if seat == (row.number - 1) % 5 + 1 else 255
            assert grey(centre, middle) == expected, (row.number, seat)


def test_a_run_prints_tables_of_four_and_of_five_each_on_its_page(at_five):
    """A match's blank sheets: the tables of four exactly as before, the table of five on the
    page of five, each with its grid image, one page a sheet."""
    match = at_five.matches.get(number=2)
    sheets = list(printing.sheets_of(match))
    assert [sheet.size for sheet in sheets] == [4, 4, 4, 4, 5]
    html = printing.render_html(sheets, blank=True)
    assert html.count('class="sheet five') == 1 and html.count('class="sheet') == 5
    assert html.count(grid.grid_png(32, "de", 4)) == 4 and html.count(grid.grid_png(40, "de", 5)) == 1
    assert geometry.stylesheet((4, 5)).startswith(geometry.stylesheet())  # four's rules unchanged
    pages = pages_of(printing.scoresheets_pdf(sheets, blank=True, workers=1))
    assert len(pages) == 5
    for page, sheet in zip(pages, sheets, strict=True):
        text = page.extract_text()
        assert all(name in text for name in names_of(sheet))
        assert (sits_out_note() in text.replace("\n", " ")) == (sheet.size == 5)


def test_a_signed_sheet_of_five_has_five_signatures_under_the_grid(at_five, referee, sign):
    sheet = sign(referee, five_sheet(at_five), positions=(1, 2, 3, 4, 5))
    assert sheet.status == Scoresheet.Status.SIGNED
    context = printing.sheet_context(sheet, blank=False)
    assert [s["x"] for s in context["signatures"]] == [geometry.FIVE.sign_x(n) for n in range(1, 6)]
    assert geometry.FIVE.sign_x(5) + geometry.FIVE.sign_width <= geometry.PAGE_WIDTH - geometry.FIVE.left
    (page,) = pages_of(printing.scoresheets_pdf([sheet], blank=False, workers=1))
    text = page.extract_text()
    assert sheet.digest in text.replace("\n", "").replace(" ", "")
    names = names_of(sheet)
    signers = sorted(
        (x, text.strip())
        for text, x, top in runs_of(page)
        if text.strip() in names and 0 <= top - context["name_top"] <= 3
    )
    assert [name for _x, name in signers] == names  # each signer's name under his own line
    for position, (x, _name) in enumerate(signers, start=1):
        line = geometry.FIVE.sign_x(position)
        assert line + geometry.SIGN_LABEL <= x < line + geometry.FIVE.sign_width


def test_long_names_stay_in_their_columns_of_five(at_five):
    """The narrower columns of five: a long unbroken name wraps within its column, whole."""
    sheet = five_sheet(at_five)
    seat = sheet.table.seats.get(position=5)
    name = "Monika Hinterhuberoberkirchnerunterschleißheimer-Oberndorfer"
    Participant.objects.filter(pk=seat.participant_id).update(name=name)
    right_edge = geometry.FIVE.left + geometry.FIVE.grid_width
    for blank in (True, False):
        (page,) = pages_of(printing.scoresheets_pdf([sheet], blank=blank, workers=1))
        runs = [(text.strip(), x, top) for text, x, top in runs_of(page) if text.strip() in name]
        printed = "".join(text for text, _x, _top in runs)
        assert "Hinterhuberoberkirchnerunterschleißheimer-Oberndorfer" in printed.replace(" ", "")
        for text, x, top in runs:
            assert x >= geometry.FIVE.column_x("5"), text
            assert x + printing_width(text, 4.4) <= right_edge + 0.5, (text, x)
            assert top <= geometry.SEAT_TOP + geometry.SEAT_HEIGHT, (text, top)


def printing_width(text: str, points: float) -> float:
    """The width (mm) of a text in DejaVu Sans at ``points``."""
    from PIL import ImageFont

    font = ImageFont.truetype(grid.FONT_FILES[0], 100)
    return font.getlength(text) / 100 * points / MM


def test_the_workbook_has_a_fifth_seat_where_a_table_has_five(at_five):
    _name, _mime, content = TournamentWorkbook().render(at_five)
    book = load_workbook(io.BytesIO(content))
    games = list(book["Spiele"].iter_rows(values_only=True))
    assert games[0][5:] == ("Platz 1", "Platz 2", "Platz 3", "Platz 4", "Platz 5")
    rows = [row for row in games[1:] if row[:2] == (1, FIVE_TABLE)]
    assert len(rows) == 40
    assert [row[5:10] for row in rows[:5]] == ROUND_1  # seat 5's points, the dealer's 0
    sheet = list(book[f"D1 T{FIVE_TABLE}"].iter_rows(values_only=True))
    names = names_of(five_sheet(at_five))
    assert [head.split(": ", 1)[1].rsplit(" (", 1)[0] for head in sheet[0][3:8]] == names
    assert sheet[0][3].startswith("1: ") and sheet[0][7].startswith("5: ")
    assert sheet[-1][1] == "Endstand" and sheet[-1][3:8] == TOTALS and sum(TOTALS) == 0


def test_a_workbook_of_tables_of_four_keeps_four_seat_columns(played):
    _name, _mime, content = TournamentWorkbook().render(played)
    header = next(load_workbook(io.BytesIO(content))["Spiele"].iter_rows(values_only=True))
    assert header[-1] == "Platz 4"


def test_table_cards_and_lists_name_all_five(at_five, organiser, referee, client):
    match = at_five.matches.get(number=1)
    cards = table_cards(match)
    assert [len(card.seats) for card in cards] == [4, 4, 4, 4, 5]
    sheet = five_sheet(at_five)
    assert [line.name for line in cards[-1].seats] == names_of(sheet)
    client.force_login(referee)
    response = client.get(reverse("referee:table_cards", args=[at_five.slug, 1, "pdf"]))
    pages = pages_of(response.content)
    assert len(pages) == 5
    last = pages[-1].extract_text()
    assert all(name in last for name in names_of(sheet)) and "Platz 5" in last
    client.force_login(organiser)
    tables = client.get(reverse("organiser:table_list_doc", args=[at_five.slug, 1, "pdf"]))
    text = "".join(page.extract_text() for page in pages_of(tables.content))
    assert all(name in text for name in names_of(sheet))
    seats = client.get(reverse("organiser:seat_list_doc", args=[at_five.slug, "html"])).content.decode()
    assert f"Tisch {FIVE_TABLE} / Platz 5" in seats
