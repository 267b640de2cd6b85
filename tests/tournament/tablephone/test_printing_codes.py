"""The table code on paper (issue 16): the table cards, the code on the pre-filled scoresheets,
the organiser's list of addresses from the command line."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from pypdf import PdfReader

from tournament.draw import services as draw_service
from tournament.models import Scoresheet
from tournament.printing import pdf as printing
from tournament.printing.tablecodes import table_code
from tournament.results import signing
from tournament.tablephone.codes import formatted
from tournament.tablephone.supervisor import renew_code
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def text_of(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def sheets(tournament, match=1):
    return list(
        Scoresheet.objects.filter(match__tournament=tournament, match__number=match)
        .select_related("table", "match__tournament")
        .order_by("table__number")
    )


def cards_pdf(client, tournament, match=1):
    return client.get(reverse("referee:table_cards", args=[tournament.slug, match, "pdf"]))


def test_the_table_cards_are_one_page_a_table_with_names_and_code(drawn, referee, client):
    client.force_login(referee)
    response = cards_pdf(client, drawn)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="kirchweih-durchgang-1-tischkarten.pdf"' in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    tables = sheets(drawn)
    assert len(reader.pages) == len(tables) == 2
    for page, sheet in zip(reader.pages, tables, strict=True):
        assert [round(float(v) * 25.4 / 72) for v in page.mediabox[2:]] == [105, 148]  # A6 portrait
        text = page.extract_text()
        assert str(sheet.table.number) in text
        for seat in sheet.table.seats.select_related("participant"):
            assert seat.participant.name in text
        assert formatted(sheet.code) in text
        assert f"/tisch/{sheet.code}/" in text.replace("\n", "")
    # the preview is the same template
    html = client.get(reverse("referee:table_cards", args=[drawn.slug, 1, "html"])).content.decode()
    assert html.count('class="card"') == 2 and html.count("<svg") == 2


def test_a_signed_table_gets_its_card_without_the_dead_code(played, referee, supervisor, client, sign):
    sheet = sign(referee, sheets(played)[0])
    client.force_login(supervisor)
    first, *others = text_of(cards_pdf(client, played).content)
    assert formatted(sheet.code) not in first and str(sheet.table.number) in first
    for page, other in zip(others, sheets(played)[1:], strict=True):
        assert formatted(other.code) in page


def test_the_board_links_to_the_table_cards(drawn, referee, client):
    client.force_login(referee)
    board = client.get(reverse("referee:board", args=[drawn.slug, 1])).content.decode()
    assert reverse("referee:table_cards", args=[drawn.slug, 1, "pdf"]) in board


def test_a_prefilled_scoresheet_carries_its_code(drawn, organiser, client):
    client.force_login(organiser)
    response = client.get(reverse("organiser:print_scoresheets", args=[drawn.slug, 1, "pdf"]), {"blank": "1"})
    pages = text_of(response.content)
    for page, sheet in zip(pages, sheets(drawn), strict=True):
        assert formatted(sheet.code) in page
        assert f"/tisch/{sheet.code}/" in page.replace("\n", "")
    preview = client.get(reverse("organiser:print_scoresheets", args=[drawn.slug, 1, "html"]), {"blank": "1"})
    assert preview.content.decode().count('<p class="code"><img src="data:image/png;base64,') == 2


def test_only_a_sheet_whose_code_works_carries_it(played, referee, supervisor, sign):
    signed, void, open_sheet = sheets(played)
    sign(referee, signed)
    signing.declare_void(supervisor, void, "unleserlich")
    pages = text_of(printing.scoresheets_pdf(sheets(played), blank=True))
    assert formatted(signed.code) not in pages[0]
    assert formatted(void.code) not in pages[1]
    assert formatted(open_sheet.code) in pages[2]
    # with its games the sheet is a record of what was played: no code, open or not
    (filled,) = text_of(printing.scoresheets_pdf([open_sheet], blank=False))
    assert formatted(open_sheet.code) not in filled


def test_a_discarded_draw_has_no_working_code(played, sheet_of):
    old = sheet_of(played, 1, 1)
    draw_service.draw_one(COMMAND_LINE, played, 1, seed="neu", discard_results=True)
    old.refresh_from_db()
    assert old.match.is_discarded and table_code(old) is None
    assert table_code(sheet_of(played, 1, 1)) is not None


def test_a_renewed_code_is_printed_anew(drawn, referee, organiser, client, sheet_of):
    sheet = sheet_of(drawn, 1, 2)
    old = sheet.code
    new = renew_code(referee, sheet)
    assert new != old
    client.force_login(organiser)
    response = client.get(reverse("organiser:print_scoresheets", args=[drawn.slug, 1, "pdf"]), {"blank": "1"})
    second = text_of(response.content)[1]
    assert formatted(new) in second and formatted(old) not in second
    client.force_login(referee)
    card = text_of(cards_pdf(client, drawn).content)[1]
    assert formatted(new) in card and formatted(old) not in card


def test_the_command_lists_every_table_with_its_address(drawn, settings):
    settings.HALL_URL = "http://192.168.1.20:8000"
    out = io.StringIO()
    call_command("table_codes", drawn.slug, "--match", "2", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == [
        f"{sheet.table.number} http://192.168.1.20:8000/tisch/{sheet.code}/" for sheet in sheets(drawn, 2)
    ]


def test_without_a_hall_address_the_command_lists_paths_and_says_so(drawn, settings):
    settings.HALL_URL = ""
    out, err = io.StringIO(), io.StringIO()
    call_command("table_codes", drawn.slug, "--match", "1", stdout=out, stderr=err)
    assert out.getvalue().splitlines() == [f"{s.table.number} /tisch/{s.code}/" for s in sheets(drawn)]
    assert "HALL_URL" in err.getvalue()


def test_the_command_refuses_a_bad_tournament_or_match(drawn, tournament, other_tournament):
    with pytest.raises(CommandError, match="There is no tournament 'nirgends'"):
        call_command("table_codes", "nirgends", "--match", "1")
    count = drawn.matches.count()
    with pytest.raises(CommandError, match=f"has no match 9: it has {count}"):
        call_command("table_codes", drawn.slug, "--match", "9")
    with pytest.raises(CommandError, match="Match 1 of 'fasching' is not drawn"):
        call_command("table_codes", other_tournament.slug, "--match", "1")


def test_the_cards_need_the_tournaments_staff(drawn, client, foreign_organiser):
    url = reverse("referee:table_cards", args=[drawn.slug, 1, "pdf"])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    client.force_login(foreign_organiser)
    assert client.get(url).status_code in (403, 404)
    prefilled = reverse("organiser:print_scoresheets", args=[drawn.slug, 1, "pdf"])
    assert client.get(prefilled, {"blank": "1"}).status_code in (403, 404)


def test_an_undrawn_match_has_no_cards(tournament, organiser, client):
    client.force_login(organiser)
    assert cards_pdf(client, tournament).status_code == 404
    assert client.get(reverse("referee:table_cards", args=[tournament.slug, 1, "txt"])).status_code == 404
