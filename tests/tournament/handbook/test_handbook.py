"""The handbook (issue 31): every page of the site finds its section, every section is in both
languages, every picture it names exists, and every message of the rules engine and of the
services has its entry with what to do."""

import ast
import io
import re
from pathlib import Path

import pypdf
import pytest
from django.urls import get_resolver, reverse
from django.urls.resolvers import URLResolver
from django.utils import translation

from scoring import Contract, Game, Result, Suit
from scoring.problems import Code
from tournament.handbook import messages, sections
from tournament.handbook.codes import SCORING
from tournament.handbook.marks import MARKS
from tournament.handbook.refusals import SERVICES
from tournament.problems import MESSAGES

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates" / "handbook"
PICTURES = ROOT / "static" / "handbook" / "img"
LANGUAGES = ("de", "en")


def url_names(patterns=None, namespace=None):
    """Every named address of the site (as tests/tournament/test_permission_matrix.py)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace != "admin":
                yield from url_names(pattern.url_patterns, pattern.namespace or namespace)
        else:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def test_every_address_says_where_its_help_is():
    """A new page without its line in tournament/handbook/sections.py fails here."""
    assert sorted(url_names()) == sorted(sections.HELP)


def test_every_page_of_the_staff_the_phone_and_the_visitors_has_a_section():
    pages = [
        name for name in url_names() if name.split(":")[0] in {"organiser", "referee", "table", "public"}
    ]
    without = [name for name in pages if sections.HELP[name] is None]
    assert set(without) == {
        "table:service_worker",
        "table:send",
        "public:qr_svg",
    }  # a script, a post, a picture
    assert len(pages) > 60


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_section_a_page_points_to_is_in_the_handbook(language):
    for target in {target for target in sections.HELP.values() if target}:
        part, anchor = target.split("#")
        assert part in sections.PARTS
        text = (TEMPLATES / language / f"{part}.html").read_text(encoding="utf-8")
        assert f'id="{anchor}"' in text, f"{language}/{part}.html has no section #{anchor}"


def named_pictures(folder: Path) -> set[str]:
    """The pictures the handbook's templates in ``folder`` name."""
    return {
        name
        for template in folder.glob("*.html")
        for name in re.findall(r"handbook/img/([\w.-]+\.png)", template.read_text(encoding="utf-8"))
    }


def missing_pictures(folder: Path) -> list[str]:
    return sorted(name for name in named_pictures(folder) if not (PICTURES / name).is_file())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_the_handbook_names_exists(language):
    assert len(named_pictures(TEMPLATES / language)) >= 15
    assert missing_pictures(TEMPLATES / language) == [], "pictures named but missing: run make screenshots"


def test_both_languages_show_the_same_pictures():
    assert named_pictures(TEMPLATES / "de") == named_pictures(TEMPLATES / "en")


def test_a_picture_named_but_not_taken_is_found_missing(tmp_path):
    (tmp_path / "part.html").write_text(
        "<img src=\"{% static 'handbook/img/referee-board.png' %}\">"
        "<img src=\"{% static 'handbook/img/nowhere.png' %}\">"
    )
    assert missing_pictures(tmp_path) == ["nowhere.png"]


def test_every_code_of_the_rules_engine_has_its_entry():
    assert set(SCORING) == set(Code)
    assert set(MESSAGES) == set(Code)  # and the message the entry explains


def refusals_in_the_code() -> set[str]:
    """The English source of every refusal the app raises with a literal text: the first
    argument of ``ServiceError`` and the message of ``CodeRefused``."""
    found = set()
    for path in (ROOT / "tournament").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            position = {"ServiceError": 0, "CodeRefused": 1}.get(name)
            if position is None or len(node.args) <= position:
                continue
            message = node.args[position]
            if isinstance(message, ast.BinOp):  # _("… %(x)s …") % values
                message = message.left
            if (
                isinstance(message, ast.Call)
                and getattr(message.func, "id", "") in {"_", "gettext", "ngettext"}
                and isinstance(message.args[0], ast.Constant)
            ):
                found.add(message.args[0].value)
    return found


def test_every_refusal_of_the_services_has_its_entry():
    in_code = refusals_in_the_code()
    assert len(in_code) > 80
    assert sorted(in_code - set(SERVICES)) == [], (
        "refusals without their entry in tournament/handbook/refusals.py"
    )
    assert sorted(set(SERVICES) - in_code) == [], "entries for refusals the code no longer raises"


def texts_in(path: Path, functions: set[str]) -> set[str]:
    """The translated literals inside the named functions of a module."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name in functions:
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and getattr(call.func, "id", "") in {"_", "gettext", "gettext_lazy"}
                    and isinstance(call.args[0], ast.Constant)
                ):
                    found.add(call.args[0].value)
    return found


def test_every_mark_of_a_sheet_has_its_entry():
    """The marks of a game's row (struck and why, plain Solo in game 1, corrected) and the
    sentences naming the other games a write changed: "why was this struck?" is answered."""
    results = ROOT / "tournament" / "results"
    marks = texts_in(results / "effects.py", {"effect_text"}) | texts_in(
        results / "rows.py", {"struck_text", "mismatch_text", "sheet_rows"}
    )
    marks.discard("next game")  # the empty row of the next game, no mark
    assert len(marks) >= 8
    assert sorted(marks ^ set(MARKS)) == []


def test_every_entry_says_what_to_do_in_german():
    for advice in [*SCORING.values(), *SERVICES.values(), *MARKS.values()]:
        with translation.override("en"):
            english = str(advice.todo)
        with translation.override("de"):
            assert str(advice.todo) != english, f"no German for {english!r}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_part_is_shown_in_its_language(client, language):
    client.cookies["django_language"] = language
    for part in sections.PARTS:
        response = client.get(reverse("handbook:part", args=[part]))
        assert response.status_code == 200
        assert response.headers["Content-Language"] == language
        ids = re.findall(r' id="([^"]+)"', response.content.decode())
        assert len(ids) == len(set(ids)), f"an anchor twice in {part}"
        for anchor in re.findall(r'href="#([^"]+)"', response.content.decode()):
            assert anchor in ids, f"{part}: #{anchor} leads nowhere"
        for other, anchor in re.findall(r'href="/hilfe/([\w-]+)/#([^"]+)"', response.content.decode()):
            target = (TEMPLATES / language / f"{other}.html").read_text(encoding="utf-8")
            assert f'id="{anchor}"' in target, f"{part}: /hilfe/{other}/#{anchor} leads nowhere"
    assert client.get(reverse("handbook:part", args=["nirgends"])).status_code == 404


@pytest.mark.django_db
def test_the_messages_part_lists_every_message_with_what_to_do(client):
    client.cookies["django_language"] = "de"
    page = client.get(reverse("handbook:part", args=["meldungen"])).content.decode()
    for code in Code:
        assert f'id="code-{code.value}"' in page
    assert page.count('class="message"') == len(Code) + len(SERVICES) + len(MARKS)
    # the message as the desk shows it, the advice and the rule: "why was this struck?"
    assert "Ein Sie zählt nicht im ersten Spiel eines Durchgangs (2.9.1)." in page
    assert "Die Liste ist unterschrieben: einen Fehler berichtigt die Turnierleitung mit Grund" in page
    assert "(5.3.4)" in page


def test_a_message_is_shown_with_gaps_for_what_it_fills_in():
    with translation.override("de"):
        shown = {entry.anchor: entry.message for entry in messages.rules_messages()}
    assert shown["code-points_do_not_sum_to_zero"] == "Die vier Zahlen ergeben …, nicht 0."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "args", "help_url"),
    [
        ("organiser:dashboard", ("slug",), "/hilfe/veranstalter/#uebersicht"),
        ("organiser:checkin", ("slug",), "/hilfe/veranstalter/#einlass"),
        ("referee:board", ("slug", 1), "/hilfe/turnierleitung/#tafel"),
        ("public:standings", ("slug",), "/hilfe/spieler/#wertung"),
        ("organisation:page", ("organisation",), "/hilfe/veranstalter/#verein"),
    ],
)
def test_each_page_links_to_its_section(client, drawn, organiser, name, args, help_url):
    client.force_login(organiser)
    given = {"slug": drawn.slug, "organisation": drawn.organisation.slug}
    url = reverse(name, args=[given.get(a, a) for a in args])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f'<a href="{help_url}" class="help-link">Hilfe</a>' in page


@pytest.mark.django_db
def test_the_table_phone_shows_how_it_works_until_the_first_game(client, drawn, sheet_of, enter, supervisor):
    sheet = sheet_of(drawn, 1, 1)
    page = client.get(f"/tisch/{sheet.code}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<details class="howto" open>' in page and "So geht's" in page
    assert 'href="/hilfe/spieler/#eintragen">Hilfe</a>' in page
    enter(supervisor, sheet, Game(1, Contract.RUFER, 1, suit=Suit.EICHEL, partner=3, result=Result.WON))
    page = client.get(f"/tisch/{sheet.code}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<details class="howto">' in page  # closed, one tap opens it


@pytest.mark.django_db
def test_the_door_and_the_desk_show_their_keys(client, drawn, supervisor, sheet_of):
    client.force_login(supervisor)
    door = client.get(
        reverse("organiser:checkin", args=[drawn.slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Tasten:" in door and "<kbd>Enter</kbd> sucht" in door
    desk = client.get(
        reverse("referee:sheet", args=[drawn.slug, 1, 1]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "<kbd>Esc</kbd> bricht das Ändern ab" in desk and "/hilfe/turnierleitung/#tasten" in desk


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"), [("de", "So tragt ihr ein"), ("en", "How to enter your games")]
)
def test_the_table_card_is_one_a4_page(client, language, title):
    client.cookies["django_language"] = language
    response = client.get(reverse("handbook:card", args=["pdf"]))
    assert response["Content-Type"] == "application/pdf"
    pdf = pypdf.PdfReader(io.BytesIO(response.content))
    assert len(pdf.pages) == 1
    assert [round(float(v)) for v in pdf.pages[0].mediabox[2:]] == [595, 842]  # A4 in points
    assert title in pdf.pages[0].extract_text()
    assert client.get(reverse("handbook:card", args=["html"])).status_code == 200
    assert client.get(reverse("handbook:card", args=["doc"])).status_code == 404
