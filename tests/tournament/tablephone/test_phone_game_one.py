"""Issue 28 on the table's phone, without a browser: game 1's Tout and Sie (item 4, RULINGS 5
and 6), an approval that does not match its game, the rules the phone is told, a substitute's
name (item 3) and the locked view's games (item 14)."""

import re

import pytest
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from tournament.errors import ServiceError
from tournament.models import ApprovalCall
from tournament.results import services as sheet_service
from tournament.results import substitutes
from tournament.results.notation import typed_game
from tournament.tablephone.supervisor import answer_call
from tournament.tablephone.views import phone_context

from .test_table_phone import send


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def test_a_tout_in_game_1_needs_no_call_and_a_sie_there_none_at_all(client, sheet):
    _r, answer = send(
        client, sheet, "a" * 16, "call", number=1, contract="solo_tout", suit="herz", declarer=2
    )
    assert not answer["ok"] and "muss nicht angemeldet werden" in answer["message"]
    _r, answer = send(client, sheet, "b" * 16, "call", number=1, contract="sie", declarer=2)
    assert not answer["ok"] and "Ein Sie zählt nicht im ersten Spiel" in answer["message"]
    assert not ApprovalCall.objects.filter(scoresheet=sheet).exists()
    # from game 2 on both are called for (5.2.14)
    _r, answer = send(client, sheet, "c" * 16, "call", number=2, contract="sie", declarer=3)
    assert answer["ok"], answer


def test_the_phone_is_told_what_needs_approval_by_the_engine(client, sheet):
    page = client.get(reverse("table:sheet", args=[sheet.code]))
    need = page.context["phone_rules"]["need"]
    assert need["first"]["solo_tout"] == need["first"]["wenz_tout"] == "none"  # RULINGS 6
    assert need["first"]["sie"] == "refused" and "2.9.1" in need["why"]["sie"]  # RULINGS 5
    assert need["later"]["solo_tout"] == need["later"]["sie"] == "approval"
    assert need["later"]["solo"] == "none" and need["late"]["solo"] == need["late"]["wenz"] == "approval"
    assert need["late"]["rufer"] == "none"
    # a Tout in game 1 is entered from the phone as a plain Solo, not struck
    _r, answer = send(client, sheet, "d" * 16, "game", number=1, notation="th2+")
    assert answer["ok"], answer
    entry = sheet.entries.get(number=1)
    assert not entry.struck and entry.points == (-2, 6, -2, -2)


def test_a_sie_in_game_1_is_not_approved_and_the_queue_warns(client, drawn, sheet, sheet_of, supervisor):
    with pytest.raises(ServiceError, match="2.9.1"):
        sheet_service.approve(supervisor, sheet, 1, "sie")
    # a call made before (or by another way) is marked in the supervisor's queue
    call = ApprovalCall.objects.create(scoresheet=sheet, number=1, contract="sie", declarer=1)
    ApprovalCall.objects.create(scoresheet=sheet_of(drawn, 1, 2), number=1, contract="wenz_tout", declarer=2)
    client.force_login(supervisor)
    page = client.get(reverse("referee:calls", args=[drawn.slug])).content.decode()
    # the Sie is a problem; the Tout only needs no approval: a note, not an alarm (the walk)
    alarm = 'class="answer-error needless" role="alert">⚠ Spiel 1: Ein Sie zählt nicht im ersten Spiel'
    assert alarm in page
    assert re.search(r'class="needless-note">ℹ Im ersten Spiel zählt ein Tout[^<]*nicht angemeldet', page)
    with pytest.raises(ServiceError, match="2.9.1"):
        answer_call(supervisor, call, approve=True)
    assert not sheet.approvals.exists()


def test_an_approval_for_another_contract_is_a_problem_not_a_label(client, sheet, supervisor, enter, referee):
    sheet_service.approve(supervisor, sheet, 2, "solo_tout", suit="herz")
    enter(referee, sheet, typed_game("re13+", 1))
    enter(referee, sheet, Game(2, Contract.RUFER, 2, suit=Suit.GRAS, partner=4, result=Result.WON))
    context = phone_context(sheet)
    page = client.get(reverse("table:sheet", args=[sheet.code])).content.decode()
    assert "angemeldet bei" not in page  # not "Sauspiel … Solo-Tout angemeldet bei aufsicht"
    mismatch = "Spiel 2: angemeldet war ein Solo-Tout (bei aufsicht)"
    assert any(mismatch in problem for problem in context["problems"])
    assert page.count(mismatch) == 2  # above the sheet and on the game's row


def test_a_substitute_heads_his_column_and_signs_from_his_game(client, sheet, organiser, referee, enter):
    seat = sheet.table.seats.select_related("participant").get(position=2)
    replaced = seat.participant.name
    substitutes.substitute(organiser, seat.participant, "Aigner, Vroni", 1, from_game=17)
    for number in range(1, 18):  # seat 2 declares games 1 and 17
        enter(referee, sheet, typed_game("re23+" if number % 16 == 1 else "re34+", number))
    state = phone_context(sheet)["state"]
    assert state["seats"][1] == {
        "position": 2,
        "name": "Aigner, Vroni",
        "signer": "Aigner, Vroni",
        "since": 17,
    }
    page = client.get(reverse("table:sheet", args=[sheet.code])).content.decode()
    assert '<span class="who">Aigner</span><span class="since">ab Spiel 17</span>' in page
    row = lambda number: page.split(f'id="game-{number}"')[1].split("</tr>")[0]  # noqa: E731
    assert replaced in row(1) and "Aigner, Vroni" not in row(1)
    assert "Aigner, Vroni" in row(17) and replaced not in row(17)


def test_the_locked_view_shows_the_games(client, played, sheet_of, sign, referee):
    sheet = sign(referee, sheet_of(played, 1, 1))
    response = client.get(reverse("table:sheet", args=[sheet.code]))
    page = response.content.decode()
    assert response.status_code == 410 and "gesperrt" in page
    assert page.count("data-game=") == 32 and "Runde 8" in page
    response = client.get(reverse("table:part", args=[sheet.code]), HTTP_ACCEPT="application/json")
    assert response.json()["html"].count("data-game=") == 32


def test_an_approval_is_named_with_the_games_suit_and_the_supervisors_name(client, sheet, supervisor, enter):
    supervisor.first_name, supervisor.last_name = "Resi", "Huber"
    supervisor.save()
    sheet_service.approve(supervisor, sheet, 2, "solo_tout", suit="herz")
    enter(supervisor, sheet, typed_game("re13+", 1))
    enter(supervisor, sheet, Game(2, Contract.SOLO_TOUT, 3, suit=Suit.HERZ, result=Result.WON))
    page = client.get(reverse("table:sheet", args=[sheet.code])).content.decode()
    # not "Solo-Tout angemeldet bei aufsicht" (the walk of issue 28)
    assert "Herz-Tout angemeldet bei Resi Huber" in page
    assert sheet.approvals.get(number=2).approved_by_name == "Resi Huber"
