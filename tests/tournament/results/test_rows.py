"""A scoresheet's rows drawn once (templates/sheet/_row.html, tournament/results/rows.py) for the
referee's desk and the table's phone: the same marks on both, a struck game naming its rule; and
no HTML written in Python strings anywhere in the app."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from scoring import Contract, Game, Result, Suit

pytestmark = pytest.mark.django_db

WON = Result.WON
APP = Path(__file__).resolve().parents[3] / "tournament"


def solo(n):
    return Game(n, Contract.SOLO, 1, suit=Suit.HERZ, result=WON)


def pages(client, drawn, sheet, referee) -> tuple[str, str]:
    client.force_login(referee)
    desk = client.get(reverse("referee:sheet", args=[drawn.slug, 1, 1])).content.decode()
    client.logout()
    phone = client.get(reverse("table:sheet", args=[sheet.code])).content.decode()
    return desk, phone


def row(page: str, number: int) -> str:
    start = page.index(f'id="game-{number}"')
    return page[start : page.index("</tr>", start)]


def test_a_struck_game_names_the_rule_that_wanted_the_approval(client, drawn, referee, enter, sheet_of):
    sheet = sheet_of(drawn)
    assert enter(referee, sheet, Game(2, Contract.WENZ_TOUT, 3, result=WON)).struck  # 5.2.14
    enter(referee, sheet, solo(1))
    for n in range(3, 6):
        enter(referee, sheet, solo(n))
    assert enter(referee, sheet, solo(6)).struck  # the fifth counted Solo (the Tout is struck): 5.2.16
    desk, phone = pages(client, drawn, sheet, referee)
    for page in (desk, phone):
        tout, fifth, counted = row(page, 2), row(page, 6), row(page, 5)
        assert "struck" in tout and "gestrichen: Tout/Sie ohne Genehmigung (5.2.14)" in tout
        assert "gestrichen: Solo/Wenz ab dem 5. ohne Genehmigung (5.2.16)" in fifth
        assert "gestrichen" not in counted and 'class="circled">' in counted  # 5.3.3
        assert 'data-game="6"' in fifth  # a game entered: the phone opens it with a tap


def test_the_desk_shows_every_game_the_phone_the_games_played_and_the_next(
    client, drawn, referee, enter, sheet_of
):
    sheet = sheet_of(drawn)
    for n in range(1, 6):
        enter(referee, sheet, Game(n, Contract.RUFER, 1, Suit.EICHEL, partner=3, result=WON))
    desk, phone = pages(client, drawn, sheet, referee)
    assert 'id="game-32"' in desk and 'id="game-7"' not in phone
    for page in (desk, phone):
        assert "nächstes Spiel" in row(page, 6) and 'data-game="6"' not in row(page, 6)
        assert 'class="round"' in page and "Runde 1 · Stand · Quersumme 0 ✓" in page
    assert "Runde 3" in desk and "Runde 3" not in phone  # a round without games: the desk only
    assert "ändern" in row(desk, 1) and "ändern" not in row(phone, 1)  # the desk's actions


def test_the_phone_draws_the_same_rows_kept_as_drawn_afresh(
    client, drawn, referee, enter, sheet_of, settings
):
    """ROW_CACHE keeps a row's HTML by what the row says: a row that changed is drawn again, and
    the page is the same as with every row drawn afresh."""
    sheet = sheet_of(drawn)
    for n in range(1, 6):
        enter(referee, sheet, solo(n))
    settings.ROW_CACHE = True
    _desk, kept = pages(client, drawn, sheet, referee)
    enter(referee, sheet, Game(2, Contract.WENZ_TOUT, 3, result=WON), replace=True)  # struck: 5.2.14
    _desk, changed = pages(client, drawn, sheet, referee)
    assert "gestrichen: Tout/Sie ohne Genehmigung (5.2.14)" in row(changed, 2)
    assert "gestrichen" not in row(kept, 2)
    settings.ROW_CACHE = False
    _desk, fresh = pages(client, drawn, sheet, referee)
    assert fresh == changed


# The only markup made in Python: the printed sheet's text boxes (printing/pdf.py, lines of a
# box drawn as one text for WeasyPrint's speed) and segno's QR code SVG (documents/qr.py).
ALLOWED = {"printing/pdf.py", "documents/qr.py", "bench/pdf.py"}
MARKUP = re.compile(r"""f["'][^"']*<(td|tr|th|span|div|a|li|p|strong|br)\b|format_html|mark_safe\(f""")


def test_no_html_is_written_in_python_strings():
    found = [
        str(path.relative_to(APP))
        for path in APP.rglob("*.py")
        if "migrations" not in path.parts and MARKUP.search(path.read_text())
    ]
    assert set(found) <= ALLOWED, f"HTML written in Python: {sorted(set(found) - ALLOWED)}; use a template"
