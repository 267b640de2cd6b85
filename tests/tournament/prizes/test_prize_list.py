"""The prize list in the tournament (issue 17): declared on the organiser's page with a live
preview before the start, computed from the standings and their lots after the draw, printed
with receipts, in the workbook, from the command line, and kept in the exchange document."""

import csv
import io
import json
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils.translation import gettext
from openpyxl import load_workbook
from pypdf import PdfReader

from tournament.errors import ServiceError
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import dumps, export_document
from tournament.management.commands.prize_list import award_row
from tournament.models import LogEntry, PrizeDeclaration
from tournament.printing.workbook import EXPORTERS
from tournament.prizes import services
from tournament.prizes.reckoning import Award, Line
from tournament.standings import lots, standings

pytestmark = pytest.mark.django_db


def declare(user, tournament, lines, fee=10, charity=0, percent=100, name=""):
    values = {
        "entry_fee": Decimal(fee),
        "charity_per_entry": Decimal(charity),
        "charity_name": name,
        "payout_percent": Decimal(percent),
    }
    return services.declare(user, tournament, values, lines)


TOP_THREE = [
    Line(1, "range", 1, 1, "amount", Decimal(50)),
    Line(2, "range", 2, 2, "amount", Decimal(30)),
    Line(3, "range", 3, 3, "amount", Decimal(20)),
    Line(4, "last", kind="goods", goods="Holzlöffel"),
]


@pytest.fixture
def ranked(played, organiser):
    """The played tournament: twelve paid 10 €, 50/30/20 € for the first three, a booby prize."""
    played.participants.update(fee_paid=True)
    declare(organiser, played, TOP_THREE)
    return played


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def form_data(lines, fee="10", charity="0", percent="100"):
    data = {
        "entry_fee": fee,
        "charity_per_entry": charity,
        "charity_name": "",
        "payout_percent": percent,
        "lines-TOTAL_FORMS": str(len(lines)),
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "1000",
    }
    for index, line in enumerate(lines):
        data.update({f"lines-{index}-{key}": value for key, value in line.items()})
    return data


def test_before_the_start_the_page_previews_the_prizes_for_todays_participants(
    tournament, organiser, add_players, client
):
    add_players(tournament, 16)  # nobody marked as paid: counted as if all 16 paid 10 €
    declare(organiser, tournament, [Line(1, "per_table", kind="falling")])
    client.force_login(organiser)
    page = client.get(reverse("organiser:prizes", args=[tournament.slug]))
    assert page.status_code == 200
    prizes = page.context["prizes"]
    assert prizes.money.estimated and prizes.money.paying == 16 and prizes.money.payout == 160
    # 4 tables: 160 € by 4, 3, 2, 1 of 10
    assert [(p.place, p.amount) for p in prizes.places] == [(1, 64), (2, 48), (3, 32), (4, 16)]
    text = page.content.decode()
    assert "64 €" in text and "16 €" in text and 'name="lines-0-places"' in text
    assert "bisher 0 als bezahlt vermerkt" in text
    # marking the first fees at the door keeps the estimate (it dropped to one player's 10 €)
    tournament.participants.filter(number__in=[1, 2]).update(fee_paid=True)
    prizes = client.get(reverse("organiser:prizes", args=[tournament.slug])).context["prizes"]
    assert prizes.money.estimated and prizes.money.paying == 16 and prizes.money.marked == 2
    assert prizes.places[0].amount == 64


def test_the_live_preview_reckons_the_unsaved_form(tournament, organiser, add_players, client):
    add_players(tournament, 20)
    client.force_login(organiser)
    data = form_data(
        [
            {"places": "range", "first": "1", "last": "3", "kind": "amount", "amount": "40"},
            {"places": "last", "kind": "goods", "goods": "Holzlöffel"},
        ],
        fee="15",
        charity="5",
    )
    url = reverse("organiser:prizes", args=[tournament.slug]) + "?preview=1"
    part = client.post(url, data, HTTP_HX_REQUEST="true")
    assert part.status_code == 200 and b"<html" not in part.content
    prizes = part.context["prizes"]
    assert (prizes.money.taken, prizes.money.charity, prizes.money.payout) == (300, 100, 200)
    assert [(p.place, p.text) for p in prizes.places] == [
        (1, "40 €"),
        (2, "40 €"),
        (3, "40 €"),
        (20, "Holzlöffel"),
    ]
    assert prizes.rest == 80 and not PrizeDeclaration.objects.exists()
    too_much = form_data([{"places": "range", "first": "1", "last": "3", "kind": "amount", "amount": "90"}])
    problems = client.post(url, too_much, HTTP_HX_REQUEST="true").context["prizes"].problems
    assert len(problems) == 1 and "1–3" in problems[0] and "270" in problems[0] and "200" in problems[0]


def test_the_organiser_declares_on_the_page_and_the_log_keeps_it(tournament, organiser, client):
    client.force_login(organiser)
    url = reverse("organiser:prizes", args=[tournament.slug])
    data = form_data(
        [
            {"places": "per_table", "kind": "falling"},
            {"places": "middle", "kind": "goods", "goods": "Brotzeit"},
            {"places": "second_last", "kind": "amount", "amount": "5"},
        ],
        percent="90",
    )
    assert client.post(url, data).status_code == 302
    declaration = PrizeDeclaration.objects.get(tournament=tournament)
    assert declaration.payout_percent == 90
    assert [(line.order, line.places, line.kind) for line in declaration.lines.all()] == [
        (1, "per_table", "falling"),
        (2, "middle", "goods"),
        (3, "second_last", "amount"),
    ]
    entry = LogEntry.objects.get(tournament=tournament, action="prizes.declare")
    assert entry.data["after"]["lines"][1] == {"places": "middle", "kind": "goods", "goods": "Brotzeit"}
    page = client.get(url)
    assert page.context["formset"].total_form_count() == 3 + 3  # three empty lines to add more


@pytest.mark.parametrize(
    ("line", "numbers"),
    [
        ({"places": "range", "first": "5", "last": "3", "kind": "amount", "amount": "5"}, ["2", "5", "3"]),
        ({"places": "range", "first": "1", "last": "2", "kind": "goods"}, ["2"]),
        ({"places": "range", "first": "1", "last": "3", "kind": "share", "share": "50"}, ["2", "150"]),
        (
            {"places": "range", "first": "11", "last": "13", "kind": "amount", "amount": "5"},
            ["1", "2", "11–12"],
        ),
    ],
)
def test_the_page_refuses_a_declaration_wrong_whatever_the_numbers(
    tournament, organiser, client, line, numbers
):
    client.force_login(organiser)
    first = {"places": "range", "first": "10", "last": "12", "kind": "goods", "goods": "Krug"}
    answer = client.post(reverse("organiser:prizes", args=[tournament.slug]), form_data([first, line]))
    assert answer.status_code == 200 and not PrizeDeclaration.objects.exists()
    (problem,) = answer.context["formset"].non_form_errors()
    assert all(number in problem for number in numbers), problem


def test_only_the_organiser_declares(tournament, referee, organiser):
    with pytest.raises(PermissionDenied):
        declare(referee, tournament, TOP_THREE)
    with pytest.raises(ServiceError) as refused:
        declare(organiser, tournament, [Line(1, "range", 1, 3, "amount")], fee=10, charity=0)
    assert refused.value.details and "1" in refused.value.details[0]
    with pytest.raises(ServiceError):
        declare(organiser, tournament, TOP_THREE, fee=5, charity=6)
    assert not PrizeDeclaration.objects.exists()


def test_after_the_draw_the_list_names_who_gets_what(ranked, referee, client):
    rows = standings.compute(ranked).rows
    assert len({row.rank for row in rows[:3]}) == 3 and rows[-1].rank != rows[-2].rank  # no tie there
    prizes = services.prize_list(ranked)
    assert prizes.problems == [] and prizes.unsigned  # provisional: sheets are still unsigned
    assert [(a.place, a.number, a.prize) for a in prizes.awards] == [
        (rows[0].rank, rows[0].number, 50),
        (rows[1].rank, rows[1].number, 30),
        (rows[2].rank, rows[2].number, 20),
        (rows[-1].rank, rows[-1].number, "Holzlöffel"),
    ]
    assert (prizes.money.taken, prizes.cash_total, prizes.rest) == (120, 100, 20)
    client.force_login(referee)  # the staff see the list
    page = client.get(reverse("organiser:prizes", args=[ranked.slug]))
    text = page.content.decode()
    assert page.status_code == 200 and page.context["formset"] is None
    assert rows[0].name in text and "50 €" in text and "Holzlöffel" in text
    assert client.post(reverse("organiser:prizes", args=[ranked.slug]), {}).status_code == 403


def test_tied_participants_share_their_places_until_lots_decide(played, organiser, add_players):
    add_players(played, 2, start=50)  # registered after the draw: tied at 0 points
    played.participants.update(fee_paid=True)  # 14 × 10 € = 140 €
    rows = standings.compute(played).rows
    rank = next(row.rank for row in rows if row.number == 50)
    tied = [row.number for row in rows if row.rank == rank]
    assert {50, 51} <= set(tied)
    places = range(rank, rank + len(tied))
    lines = [
        Line(i, "range", place, place, "amount", Decimal(31 - 10 * i)) for i, place in enumerate(places, 1)
    ]
    declare(organiser, played, lines)  # 21 €, 11 €, …
    cash = sum(31 - 10 * i for i in range(1, len(tied) + 1))
    shared = services.prize_list(played).awards
    assert {a.number for a in shared} == set(tied)
    assert {(a.place, a.amount, a.tied, a.first, a.last) for a in shared} == {
        (rank, cash // len(tied), len(tied), places[0], places[-1])
    }
    lots.draw_lots(organiser, played, seed="los")
    decided = services.prize_list(played).awards
    order = [row.number for row in standings.compute(played).rows if row.number in tied]
    assert [(a.number, a.amount, a.by_lot) for a in decided] == [
        (number, 31 - 10 * i, True) for i, number in enumerate(order, 1)
    ]


def test_the_printed_list_has_every_winner_and_a_receipt_for_each_cash_prize(ranked, organiser, client):
    client.force_login(organiser)
    rows = standings.compute(ranked).rows
    preview = client.get(reverse("organiser:prizes_doc", args=[ranked.slug, "html"]))
    assert preview.status_code == 200 and preview.content.count(b'class="receipt"') == 3
    pdf = client.get(reverse("organiser:prizes_doc", args=[ranked.slug, "pdf"]))
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content)
    for row, amount in zip(rows[:3], (50, 30, 20), strict=True):
        assert row.name in text and f"{amount} €" in text
    assert rows[-1].name in text and "Holzlöffel" in text and "120 €" in text
    assert client.get(reverse("organiser:prizes_doc", args=[ranked.slug, "txt"])).status_code == 404


def test_the_workbook_has_the_prize_list(ranked):
    _name, _mime, content = EXPORTERS["xlsx"].render(ranked)
    book = load_workbook(io.BytesIO(content))
    sheet = book[gettext("Prize list")]
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    rows = standings.compute(ranked).rows
    assert values[1][1:4] == [rows[0].number, rows[0].name, 50]
    assert values[4][1:5] == [rows[-1].number, rows[-1].name, None, "Holzlöffel"]
    assert any(row[0] and row[3] == 120 for row in values[5:])  # the money taken


def test_the_command_prints_the_list_best_first_as_csv_and_json(ranked):
    rows = standings.compute(ranked).rows
    out = io.StringIO()
    call_command("prize_list", ranked.slug, "--format", "csv", stdout=out)
    found = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert list(found[0]) == ["place", "number", "name", "cash", "goods", "prize"]
    assert [(r["place"], r["number"], r["cash"], r["goods"], r["prize"]) for r in found] == [
        (str(rows[0].rank), str(rows[0].number), "50", "", "50"),
        (str(rows[1].rank), str(rows[1].number), "30", "", "30"),
        (str(rows[2].rank), str(rows[2].number), "20", "", "20"),
        (str(rows[-1].rank), str(rows[-1].number), "", "Holzlöffel", "Holzlöffel"),
    ]
    out = io.StringIO()
    call_command("prize_list", ranked.slug, "--format", "json", stdout=out)
    assert json.loads(out.getvalue())[0] == {
        "place": rows[0].rank,
        "number": rows[0].number,
        "name": rows[0].name,
        "cash": 50,
        "goods": "",
        "prize": 50,
    }


def test_the_command_gives_cash_and_goods_apart_for_a_spreadsheet(ranked):
    """Issue 28, item 17: the cash column adds up; a tied group's cash and goods stay apart."""
    out = io.StringIO()
    call_command("prize_list", ranked.slug, "--format", "json", stdout=out)
    found = json.loads(out.getvalue())
    assert sum(row["cash"] or 0 for row in found) == 100 and found[-1]["cash"] is None
    both = Award(place=3, number=7, name="Hias", amount=2, goods=("Brotzeit",), first=3, last=4, tied=2)
    assert award_row(both) == {
        "place": 3, "number": 7, "name": "Hias", "cash": 2, "goods": "Brotzeit", "prize": "2 € + Brotzeit",
    }  # fmt: skip


def test_the_command_refuses_a_list_it_cannot_give(played, organiser):
    with pytest.raises(CommandError):
        call_command("prize_list", played.slug)  # nothing declared
    declare(organiser, played, TOP_THREE)  # nobody marked as paid after the start: 0 € taken
    with pytest.raises(CommandError) as refused:
        call_command("prize_list", played.slug)
    assert "100" in str(refused.value) and "0" in str(refused.value)


def test_the_declaration_goes_with_the_exchange_document(ranked, organiser):
    declare(
        organiser,
        ranked,
        [*TOP_THREE[:3], Line(4, "range", 4, 6, "share", share=Decimal("2.5")), TOP_THREE[3]],
        fee="12.50",
        charity=2,
        name="Kinderkrebshilfe",
    )
    document = export_document(ranked)
    assert document["prizes"] == {
        "entry_fee": 12.5,
        "charity_per_entry": 2,
        "charity_name": "Kinderkrebshilfe",
        "payout_percent": 100,
        "lines": [
            {"places": "range", "first": 1, "last": 1, "kind": "amount", "amount": 50},
            {"places": "range", "first": 2, "last": 2, "kind": "amount", "amount": 30},
            {"places": "range", "first": 3, "last": 3, "kind": "amount", "amount": 20},
            {"places": "range", "first": 4, "last": 6, "kind": "share", "share": 2.5},
            {"places": "last", "kind": "goods", "goods": "Holzlöffel"},
        ],
    }
    copy_ = import_plan(organiser, read_document(dumps(document), slug="kopie"))
    assert export_document(copy_)["prizes"] == document["prizes"]
    original, restored = services.prize_list(ranked), services.prize_list(copy_)
    assert [(a.number, a.prize) for a in restored.awards] == [(a.number, a.prize) for a in original.awards]
    assert restored.money == original.money


def test_a_document_with_a_broken_prize_list_is_refused(ranked):
    document = export_document(ranked)
    document["prizes"]["lines"][1]["kind"] = "cash"
    document["prizes"]["lines"][2]["amount"] = -3
    with pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document), slug="kaputt")
    assert len(refused.value.messages) == 2
    assert "2" in refused.value.messages[0] and "3" in refused.value.messages[1]
    del document["prizes"]  # a reader that never heard of prize lists is fine too
    assert read_document(json.dumps(document), slug="ohne").prizes is None


def test_changing_one_line_keeps_the_others(tournament, organiser, add_players, client):
    """Found on a walk: saving the form with one line changed dropped the untouched lines."""
    from tournament.models import PrizeLine

    add_players(tournament, 16)
    client.force_login(organiser)
    url = reverse("organiser:prizes", args=[tournament.slug])
    first = [
        {"places": "per_table", "kind": "falling"},
        {"places": "middle", "kind": "goods", "goods": "Brotzeitkorb"},
        {"places": "last", "kind": "goods", "goods": "Holzsau"},
    ]
    client.post(url, form_data(first))
    stored = list(PrizeLine.objects.filter(declaration__tournament=tournament).order_by("order", "id"))
    assert [line.goods for line in stored] == ["", "Brotzeitkorb", "Holzsau"]
    # the page as the browser sends it back: the three lines as declared, only the first changed
    again = form_data(
        [
            {
                "id": str(stored[0].pk),
                "places": "range",
                "first": "1",
                "last": "1",
                "kind": "amount",
                "amount": "50",
            },
            {"id": str(stored[1].pk), "places": "middle", "kind": "goods", "goods": "Brotzeitkorb"},
            {"id": str(stored[2].pk), "places": "last", "kind": "goods", "goods": "Holzsau"},
        ]
    )
    again["lines-INITIAL_FORMS"] = "3"
    client.post(url, again)
    kept = list(PrizeLine.objects.filter(declaration__tournament=tournament).order_by("order", "id"))
    assert [(line.kind, line.amount, line.goods) for line in kept] == [
        ("amount", 50, ""),
        ("goods", None, "Brotzeitkorb"),
        ("goods", None, "Holzsau"),
    ]


def test_goods_typed_into_a_line_of_money_are_refused_not_dropped(tournament, organiser, client):
    """The walk of issue 28: "2 €" with the goods "Schweinsbraten" was saved as 2 € alone."""
    client.force_login(organiser)
    url = reverse("organiser:prizes", args=[tournament.slug])
    data = form_data([{"places": "last", "kind": "amount", "amount": "2", "goods": "Schweinsbraten"}])
    page = client.post(url, data)
    assert page.status_code == 200 and not PrizeDeclaration.objects.exists()
    assert "Zeile 1: Ein Sachpreis (Schweinsbraten) ist eine eigene Art" in page.content.decode()
    goods = form_data([{"places": "last", "kind": "goods", "goods": "Schweinsbraten"}])
    assert client.post(url, goods).status_code == 302
