"""A prize line's places are bounded and reckoned, never listed (issue 27, item 1): "places 1 to
10⁹" from the live preview, a saved declaration or an imported document answers with a message
naming the line, instead of building a list of a billion places."""

import json
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.translation import gettext

from tests.tournament.prizes.test_prize_list import TOP_THREE, declare, form_data
from tournament.errors import ServiceError
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import export_document
from tournament.prizes.reckoning import MAX_PLACE, FieldSize, Line, check_lines, check_numbers, span

pytestmark = pytest.mark.django_db

HUGE = 10**9


def test_the_live_preview_answers_a_line_of_a_billion_places_with_a_message(
    tournament, organiser, add_players, client
):
    add_players(tournament, 16)
    client.force_login(organiser)
    url = reverse("organiser:prizes", args=[tournament.slug]) + "?preview=1"
    data = form_data(
        [
            {"places": "range", "first": "1", "last": "3", "kind": "amount", "amount": "10"},
            {"places": "range", "first": "4", "last": str(HUGE), "kind": "amount", "amount": "1"},
        ]
    )
    part = client.post(url, data, HTTP_HX_REQUEST="true")
    assert part.status_code == 200
    problems = part.context["prizes"].problems
    line = gettext("Line %(n)s") % {"n": 2}
    assert any(p.startswith(line) and str(HUGE) in p and str(MAX_PLACE) in p for p in problems), problems
    # the places within the field are still reckoned: 1–3 and 4–16
    assert [p.place for p in part.context["prizes"].places] == list(range(1, 17))


def test_the_service_refuses_to_store_a_place_beyond_any_field(tournament, organiser):
    with pytest.raises(ServiceError) as refused:
        declare(organiser, tournament, [Line(1, "range", 1, HUGE, "goods", goods="Brezn")])
    line = gettext("Line %(n)s") % {"n": 1}
    assert any(d.startswith(line) and str(HUGE) in d for d in refused.value.details)


def test_an_imported_prize_line_of_a_billion_places_is_refused_naming_the_line(played, organiser):
    declare(organiser, played, TOP_THREE)
    document = export_document(played)
    document["prizes"]["lines"].append(
        {"places": "range", "first": 5, "last": HUGE, "kind": "amount", "amount": 1}
    )
    with pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document), slug="riesig")
    line = gettext("line %(n)s") % {"n": 5}
    assert any(line in m and str(HUGE) in m for m in refused.value.messages), refused.value.messages
    document["prizes"]["lines"] = [{"places": "range", "first": 1, "kind": "goods", "goods": "x"}] * 5000
    with pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document), slug="viele")
    assert any("200" in m for m in refused.value.messages)


def test_ranges_are_reckoned_as_runs():
    lines = [
        Line(1, "range", 1, HUGE, "share", share=Decimal(0)),
        Line(2, "range", 5, 2 * HUGE, "goods", goods="x"),
        Line(3, "last", kind="goods", goods="y"),
    ]
    size = FieldSize(20, 5, True)
    problems = check_numbers(lines, size)
    both = gettext("Line %(earlier)s and line %(line)s both give place %(places)s.")
    assert f"21–{HUGE}" in problems[0]
    assert both % {"earlier": 1, "line": 2, "places": f"5–{HUGE}"} in check_lines(lines[:2])
    assert both % {"earlier": 1, "line": 3, "places": "20"} in problems
    assert span([range(1, 4), 7, range(8, 10), range(3, 3)]) == "1–3, 7–9"
    beyond = gettext("%(line)s: place %(place)s is beyond any field: a prize list gives places 1–%(max)s.")
    for line, place in ((lines[0], HUGE), (lines[1], 2 * HUGE)):
        assert beyond % {"line": line.label, "place": place, "max": MAX_PLACE} in check_lines(lines)
