"""The table's phone (issue 16): the code's scope, idempotent writes, the approval round trip,
the same scoring and messages as the desk."""

import json
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from tournament.errors import ServiceError
from tournament.models import ApprovalCall, LogEntry, PhoneReceipt, Scoresheet
from tournament.results import services as sheet_service
from tournament.results import substitutes
from tournament.tablephone import table
from tournament.tablephone.codes import CodeRefused, TableActor, formatted, open_code
from tournament.tablephone.supervisor import answer_call, renew_code
from tournament.tablephone.views import phone_context


def send(client, sheet, key, action, **data):
    response = client.post(
        reverse("table:send", args=[sheet.code]),
        json.dumps({"key": key, "action": action, "data": data}),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    return response, response.json()


def sign_on_the_phone(client, sheet, positions, signature_png) -> dict:
    """Those seats sign in turn on the table's phone; the answer to the last signature."""
    for position in positions:
        sheet.refresh_from_db()
        _r, answer = send(
            client,
            sheet,
            f"sign{position}" * 3,
            "sign",
            position=position,
            image=signature_png(),
            base=sheet.version,
        )
        assert answer["ok"], answer
    return answer


@pytest.fixture
def sheet(drawn, sheet_of):
    return sheet_of(drawn, 1, 1)


def test_the_code_opens_its_sheet_with_names_and_the_dealer(client, sheet):
    response = client.get(reverse("table:sheet", args=[sheet.code]))
    assert response.status_code == 200
    page = response.content.decode()
    for seat in sheet.table.seats.select_related("participant"):
        assert seat.participant.name in page
    assert "nächstes Spiel" in page  # the rows (sheet/_row.html) are German too
    state = response.context["state"]
    assert state["next"] == 1 and state["dealer"] == 1
    # typed with capitals and a dash, it leads to the same sheet
    typed = formatted(sheet.code).upper()
    assert client.get(reverse("table:enter"), {"code": typed}).url == reverse(
        "table:sheet", args=[sheet.code]
    )


def test_a_game_is_stored_once_however_often_it_is_resent(client, sheet):
    response, answer = send(client, sheet, "k" * 16, "game", number=1, notation="re13+")
    assert response.status_code == 200 and answer["ok"], answer
    assert answer["message"].startswith("Spiel 1:")
    again, repeated = send(client, sheet, "k" * 16, "game", number=1, notation="re13+")
    assert repeated["ok"] and repeated["repeated"] and repeated["version"] == answer["version"]
    assert sheet.entries.count() == 1
    assert PhoneReceipt.objects.filter(scoresheet=sheet).count() == 1
    log = LogEntry.objects.get(scoresheet=sheet, action="entry.create")
    assert log.user_name == f"Tisch {sheet.table.number} (Handy)" and log.user is None


def test_the_phone_is_told_what_the_desk_would_say(client, sheet, referee, enter):
    # the same refusal as at the desk: a Sauspiel with oneself
    _response, answer = send(client, sheet, "a" * 16, "game", number=1, notation="re11+")
    assert not answer["ok"]
    from tournament.results.forms import GameForm

    form = GameForm({"number": 1, "notation": "re11+", "sheet": sheet.pk, "version": 0})
    assert form.is_valid()
    with pytest.raises(Exception) as desk:
        sheet_service.save_entry(referee, sheet, form.entry(), 0)
    assert answer["message"] == str(desk.value.message)
    # a number the desk took meanwhile: refused with what is stored now
    enter(referee, sheet, Game(2, Contract.RUFER, 1, suit=Suit.GRAS, partner=3, result=Result.WON))
    _response, answer = send(client, sheet, "b" * 16, "game", number=2, notation="rs24+")
    assert not answer["ok"] and "Spiel 2" in answer["message"]
    assert sheet.entries.get(number=2).suit == "gras"


def test_a_change_from_a_stale_phone_is_refused(client, sheet, referee, enter):
    _r, first = send(client, sheet, "c" * 16, "game", number=1, notation="re13+")
    seen_version = first["version"]
    enter(
        referee,
        sheet,
        Game(1, Contract.RUFER, 2, suit=Suit.GRAS, partner=4, result=Result.LOST),
        replace=True,
    )
    _r, answer = send(
        client, sheet, "d" * 16, "game", number=1, notation="re13-", replace=True, base=seen_version
    )
    assert not answer["ok"]
    assert "Spiel 1" in " ".join(answer["details"])  # what game 1 holds now
    assert sheet.entries.get(number=1).declarer == 2
    # with the current version the change goes through, and the history keeps both
    sheet.refresh_from_db()
    _r, answer = send(
        client, sheet, "e" * 16, "game", number=1, notation="re13-", replace=True, base=sheet.version
    )
    assert answer["ok"], answer
    assert LogEntry.objects.filter(scoresheet=sheet, game=1, action="entry.update").count() == 2


def test_the_code_opens_one_sheet_only(client, drawn, sheet_of, sheet):
    other = sheet_of(drawn, 1, 2)
    actor = TableActor(sheet)
    with pytest.raises(PermissionDenied):
        sheet_service.save_entry(
            actor, other, Game(1, Contract.RUFER, 1, suit=Suit.GRAS, partner=3, result=Result.WON), None
        )
    assert not other.entries.exists()
    assert client.get(reverse("table:sheet", args=["abcdefghjk"])).status_code == 404
    # no staff page opens for the phone: it has no session
    assert client.get(reverse("referee:sheet", args=[drawn.slug, 1, 2])).status_code == 302


def test_a_renewed_code_is_dead(client, sheet, referee):
    old = sheet.code
    renew_code(referee, sheet)
    page = client.get(reverse("table:sheet", args=[old]))
    # The phone still holding it is told the code was renewed, not that it was mistyped; the
    # page lists what the phone could not send with it (leftover.js, its storage under the code).
    assert page.status_code == 410
    text = page.content.decode()
    assert "erneuert" in text and f"Tisch {sheet.table.number}" in text
    assert f'data-code="{old}"' in text and "leftover.js" in text and 'id="leftover-texts"' in text
    response, answer = send(client, Scoresheet(code=old), "f" * 16, "game", number=1, notation="re13+")
    assert response.status_code == 410 and answer["gone"] and "erneuert" in answer["message"]
    assert client.get(reverse("table:sheet", args=["zzzzzzzzzz"])).status_code == 404  # unknown
    sheet.refresh_from_db()
    assert client.get(reverse("table:sheet", args=[sheet.code])).status_code == 200
    assert LogEntry.objects.filter(scoresheet=sheet, action="sheet.code_renew").exists()


def test_a_redrawn_match_kills_the_code(client, drawn, sheet, sheet_of):
    from tournament.draw import services as draw_service
    from tournament.tournaments.permissions import COMMAND_LINE

    send(client, sheet, "r" * 16, "game", number=1, notation="re13+")
    draw_service.draw_one(COMMAND_LINE, drawn, 1, seed="neu", discard_results=True)
    with pytest.raises(CodeRefused) as refused:
        open_code(sheet.code)
    assert refused.value.status == 410 and "neu ausgelost" in refused.value.message
    _response, answer = send(client, sheet, "r" * 15 + "s", "game", number=2, notation="re13+")
    assert answer["gone"] and "neu ausgelost" in answer["message"]
    # the new draw's sheet has a code of its own
    assert sheet_of(drawn, 1, 1).code != sheet.code


def test_the_approval_round_trip(client, sheet, supervisor):
    _r, answer = send(
        client,
        sheet,
        "g" * 16,
        "call",
        number=2,  # a Tout in game 1 is a plain Solo: no call (RULINGS 6)
        contract="solo_tout",
        suit="herz",
        declarer=2,
        hand=["EO", "GO", "HO", "SO", "EU", "GU", "HA", "H10"],
    )
    assert answer["ok"], answer
    call = ApprovalCall.objects.get(scoresheet=sheet)
    assert call.status == "waiting" and call.hand[0] == "EO"
    state = phone_context(sheet)["state"]
    assert state["calls"][0]["status"] == "waiting"
    answer_call(supervisor, call, approve=True)
    call.refresh_from_db()
    assert call.status == "approved" and call.answered_by_name == supervisor.username
    approval = sheet.approvals.get(number=2)
    assert approval.contract == "solo_tout" and approval.hand_check["requirements_met"] is not None
    # the table plays it and enters the result: approved, not struck
    _r, answer = send(client, sheet, "h" * 16, "game", number=2, notation="th2+")
    assert answer["ok"], answer
    assert not sheet.entries.get(number=2).struck
    # answered once only
    with pytest.raises(ServiceError):
        answer_call(supervisor, call, approve=False)


def test_a_refused_call_is_told_to_the_table(client, sheet, supervisor):
    send(client, sheet, "i" * 16, "call", number=2, contract="sie", declarer=3)
    call = ApprovalCall.objects.get(scoresheet=sheet)
    before = phone_context(sheet)["state"]["etag"]
    answer_call(supervisor, call, approve=False, reason="keine Sie")
    context = phone_context(sheet)
    assert context["state"]["etag"] != before
    assert context["state"]["calls"][0]["status"] == "refused"
    assert not sheet.approvals.exists()


def test_only_the_supervisor_answers_a_call(client, sheet, referee):
    send(client, sheet, "j" * 16, "call", number=2, contract="sie", declarer=3)
    call = ApprovalCall.objects.get(scoresheet=sheet)
    with pytest.raises(PermissionDenied):
        answer_call(referee, call, approve=True)
    with pytest.raises(PermissionDenied):
        answer_call(TableActor(sheet), call, approve=True)


def test_sign_at_the_table_locks_the_sheet(client, played, sheet_of, signature_png):
    sheet = sheet_of(played, 1, 1)
    assert sheet.status == "complete"
    answer = sign_on_the_phone(client, sheet, (1, 2, 3, 4), signature_png)
    sheet.refresh_from_db()
    assert sheet.status == "signed" and sheet.digest
    assert "gesperrt" in answer["html"]
    response = client.get(reverse("table:sheet", args=[sheet.code]))
    assert response.status_code == 410 and "unterschrieben" in response.content.decode()
    response, answer = send(client, sheet, "z" * 16, "game", number=1, notation="re13+")
    assert response.status_code == 410 and answer["gone"]


def test_the_scorekeeper_changes_when_all_agree(client, sheet):
    _r, answer = send(client, sheet, "s" * 16, "scorekeeper", position=3)
    assert answer["ok"]
    sheet.table.refresh_from_db()
    assert sheet.table.scorekeeper == 3
    assert phone_context(sheet)["state"]["scorekeeper"] == 3


def test_bad_input_gets_a_message_not_a_500(client, sheet):
    url = reverse("table:send", args=[sheet.code])
    response = client.post(url, "{nope", content_type="application/json")
    assert response.status_code == 400 and "JSON" in response.json()["message"]
    response, answer = send(client, sheet, "short", "game", number=1, notation="re13+")
    assert response.status_code == 400 and answer["message"]
    _r, answer = send(client, sheet, "x" * 16, "game", number=99, notation="re13+")
    assert not answer["ok"] and "99" in answer["message"]
    _r, answer = send(client, sheet, "y" * 16, "game", number=1, notation="quatsch")
    assert not answer["ok"] and answer["message"]
    _r, answer = send(client, sheet, "w" * 16, "approve", number=1)
    assert not answer.get("ok")


def test_polling_answers_204_when_nothing_changed(client, sheet):
    url = reverse("table:part", args=[sheet.code])
    first = client.get(url).json()
    assert client.get(url, {"seen": first["state"]["etag"]}).status_code == 204
    send(client, sheet, "p" * 16, "game", number=1, notation="re13+")
    assert client.get(url, {"seen": first["state"]["etag"]}).status_code == 200
    sheet.refresh_from_db()
    assert sheet.phone_seen is not None


def test_the_board_shows_calls_phones_and_codes(client, drawn, sheet, referee, supervisor):
    from datetime import timedelta

    from django.utils import timezone

    send(client, sheet, "board" * 4, "call", number=2, contract="sie", declarer=3)
    Scoresheet.objects.filter(pk=sheet.pk).update(phone_seen=timezone.now() - timedelta(minutes=10))
    client.force_login(referee)
    page = client.get(reverse("referee:board", args=[drawn.slug, 1])).content.decode()
    assert "1 Ruf nach Genehmigung" in page
    assert "Handy offline seit" in page
    assert formatted(sheet.code) in page and "Code erneuern" in page
    assert "Ablehnen" not in page  # a referee does not answer calls
    ApprovalCall.objects.filter(scoresheet=sheet).update(created=timezone.now() - timedelta(minutes=5))
    client.force_login(supervisor)
    page = client.get(reverse("referee:calls", args=[drawn.slug])).content.decode()
    assert "überfällig" in page and "Tisch 1 (Durchgang 1)" in page


def test_the_supervisor_answers_from_the_queue(client, drawn, sheet, supervisor, referee):
    send(client, sheet, "queue" * 4, "call", number=2, contract="wenz_tout", declarer=2)
    call = ApprovalCall.objects.get(scoresheet=sheet)
    client.force_login(referee)
    url = reverse("referee:answer_call", args=[drawn.slug, call.pk])
    assert client.post(url, {"answer": "approve"}).status_code == 403
    client.force_login(supervisor)
    response = client.post(url, {"answer": "approve"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Tisch 1, Spiel 2: Wenz-Tout genehmigt." in response.content.decode()
    assert sheet.approvals.get(number=2).contract == "wenz_tout"
    # a second tap (two supervisors, or a double tap) is told, not applied twice
    response = client.post(url, {"answer": "refuse"}, follow=True)
    assert "schon beantwortet" in response.content.decode()
    call.refresh_from_db()
    assert call.status == "approved"
    assert (
        LogEntry.objects.filter(scoresheet=sheet, action="approval.call").get().user_name == "Tisch 1 (Handy)"
    )


def test_renewing_takes_the_board_button(client, drawn, sheet, referee):
    old = sheet.code
    url = reverse("referee:renew_code", args=[drawn.slug, 1, sheet.table.number])
    assert (
        client.post(url).status_code == 302 and Scoresheet.objects.get(pk=sheet.pk).code == old
    )  # log-in first
    client.force_login(referee)
    response = client.post(url, follow=True)
    sheet.refresh_from_db()
    assert sheet.code != old
    assert formatted(sheet.code) in response.content.decode()


def test_the_phones_traces_are_anonymised_with_the_tournament(client, drawn, sheet, supervisor):
    import datetime

    from tournament.site.retention import purge

    send(client, sheet, "trace" * 4, "game", number=1, notation="re13+")
    send(client, sheet, "trace" * 3 + "calls", "call", number=2, contract="sie", declarer=1)
    answer_call(supervisor, ApprovalCall.objects.get(scoresheet=sheet), approve=False)
    drawn.retention_until = datetime.date(2020, 1, 1)
    drawn.save()
    purge(drawn)
    assert not PhoneReceipt.objects.filter(scoresheet=sheet).exists()
    assert ApprovalCall.objects.get(scoresheet=sheet).answered_by_name == ""
    assert sheet.entries.count() == 1  # the results stay


def test_a_call_for_a_game_entered_meanwhile_is_closed_not_approved(client, drawn, sheet, supervisor):
    send(client, sheet, "stale-call-01", "call", number=3, contract="wenz_tout", declarer=2)
    call = ApprovalCall.objects.get(scoresheet=sheet)
    # the table plays a Sauspiel instead and enters it: the call is closed
    _r, answer = send(client, sheet, "stale-call-02", "game", number=3, notation="re13+")
    assert answer["ok"]
    call.refresh_from_db()
    assert call.status == "withdrawn"
    # a call that was still open when the desk entered the game is closed by the answer
    send(client, sheet, "stale-call-03", "call", number=2, contract="sie", declarer=1)
    from tournament.results import services as sheet_service

    sheet.refresh_from_db()
    sheet_service.save_entry(
        supervisor, sheet, Game(2, Contract.RUFER, 2, suit=Suit.GRAS, partner=4, result=Result.WON), None
    )
    late = ApprovalCall.objects.get(scoresheet=sheet, number=2)
    client.force_login(supervisor)
    url = reverse("referee:answer_call", args=[drawn.slug, late.pk])
    page = client.post(url, {"answer": "approve"}, HTTP_HX_REQUEST="true").content.decode()
    assert "schon eingetragen" in page
    late.refresh_from_db()
    assert late.status == "withdrawn" and not sheet.approvals.exists()


def test_the_answer_to_a_game_is_the_sheet_as_stored(client, sheet, supervisor):
    """The answer is drawn from what the write itself stored (no second read): it must be the
    page a phone reading the sheet afresh gets, approvals, struck games and all."""
    sheet_service.approve(supervisor, sheet, 2, "solo")
    _r, first = send(client, sheet, "m" * 16, "game", number=1, notation="re13+")
    _r, second = send(client, sheet, "n" * 16, "game", number=2, notation="se2+")
    assert first["ok"] and second["ok"], (first, second)
    fresh = client.get(
        reverse("table:part", args=[sheet.code]), {"seen": "x"}, HTTP_ACCEPT="application/json"
    )
    assert fresh.json()["html"] == second["html"]
    assert fresh.json()["state"] == second["state"]
    assert f"bei {supervisor.username}<" in second["html"]  # game 2's approval, by whom


def test_a_phone_entry_raises_the_results_version_once_and_reads_little(
    client, sheet, django_assert_max_num_queries
):
    tournament = sheet.match.tournament
    before = type(tournament).objects.get(pk=tournament.pk).results_version
    # The lookup that locks, the receipt, the sheet's rows, the writes and the answer's rows:
    # a regression here costs the hall its entries per second (manage.py bench table-entry).
    with django_assert_max_num_queries(21):
        _r, answer = send(client, sheet, "q" * 16, "game", number=1, notation="re13+")
    assert answer["ok"], answer
    assert type(tournament).objects.get(pk=tournament.pk).results_version == before + 1
    _r, again = send(client, sheet, "q" * 16, "game", number=1, notation="re13+")  # resent
    assert again["repeated"]
    assert type(tournament).objects.get(pk=tournament.pk).results_version == before + 1


def test_a_refused_game_raises_no_version_and_keeps_the_receipt(client, sheet):
    tournament = sheet.match.tournament
    before = type(tournament).objects.get(pk=tournament.pk).results_version
    _r, answer = send(client, sheet, "r" * 16, "game", number=1, notation="re11+")
    assert not answer["ok"]
    assert type(tournament).objects.get(pk=tournament.pk).results_version == before
    assert PhoneReceipt.objects.filter(scoresheet=sheet, key="r" * 16).exists()
    assert not sheet.entries.exists()


def desk_writes_while_the_phone_plans(monkeypatch, write):
    """The phone's game is planned outside the write lock; ``write`` runs right after the plan,
    as another table member's or the desk's write landing before the phone's takes the lock."""
    planned = table.plan_game

    def plan_then_write(actor, sheet, data, **facts):
        plan = planned(actor, sheet, data, **facts)
        monkeypatch.setattr(table, "plan_game", planned)  # once: the fallback plans anew
        write()
        return plan

    monkeypatch.setattr(table, "plan_game", plan_then_write)


def test_a_game_planned_before_another_write_is_planned_again_under_the_lock(
    client, sheet, referee, enter, monkeypatch
):
    desk_game = Game(1, Contract.RUFER, 2, suit=Suit.GRAS, partner=4, result=Result.LOST)
    desk_writes_while_the_phone_plans(monkeypatch, lambda: enter(referee, sheet, desk_game))
    _r, answer = send(client, sheet, "o" * 16, "game", number=2, notation="re13+")
    assert answer["ok"] and answer["previous"] == 1 and answer["version"] == 2, answer
    assert list(sheet.entries.order_by("number").values_list("number", "declarer")) == [(1, 2), (2, 1)]
    assert LogEntry.objects.filter(scoresheet=sheet, action="entry.create").count() == 2
    # the answer shows both games, as a fresh read of the sheet does
    part = reverse("table:part", args=[sheet.code])
    fresh = client.get(part, {"seen": "x"}, HTTP_ACCEPT="application/json")
    assert fresh.json()["html"] == answer["html"]


def test_a_game_the_desk_entered_while_the_phone_planned_it_is_refused_once(
    client, sheet, referee, enter, monkeypatch
):
    desk_game = Game(1, Contract.RUFER, 2, suit=Suit.GRAS, partner=4, result=Result.LOST)
    desk_writes_while_the_phone_plans(monkeypatch, lambda: enter(referee, sheet, desk_game))
    _r, answer = send(client, sheet, "p" * 16, "game", number=1, notation="re13+")
    assert not answer["ok"] and "Spiel 1" in answer["message"], answer
    assert sheet.entries.get(number=1).declarer == 2  # the desk's game stays
    _r, again = send(client, sheet, "p" * 16, "game", number=1, notation="re13+")
    assert again["repeated"] and again["message"] == answer["message"]
    assert PhoneReceipt.objects.filter(scoresheet=sheet, key="p" * 16).count() == 1


def test_a_game_is_not_written_to_a_sheet_declared_void_while_it_was_planned(
    client, sheet, referee, enter, monkeypatch
):
    def void():
        Scoresheet.objects.filter(pk=sheet.pk).update(status=Scoresheet.Status.VOID)

    desk_writes_while_the_phone_plans(monkeypatch, void)
    response, answer = send(client, sheet, "s" * 16, "game", number=1, notation="re13+")
    assert response.status_code == 410 and answer["gone"], answer
    assert not sheet.entries.exists()


def test_a_code_renewed_while_a_game_was_planned_writes_nothing(client, sheet, referee, monkeypatch):
    old = Scoresheet.objects.get(pk=sheet.pk)
    desk_writes_while_the_phone_plans(monkeypatch, lambda: renew_code(referee, sheet))
    response, _answer = send(client, old, "u" * 16, "game", number=1, notation="re13+")
    assert response.status_code == 410  # a renewed code is dead, as it is without the race
    assert not sheet.entries.exists()


def test_a_call_made_while_a_game_was_planned_is_closed_by_the_game(client, sheet, monkeypatch):
    from tournament.models import ApprovalCall

    def call():
        ApprovalCall.objects.create(scoresheet=sheet, number=1, contract="sie", declarer=1)

    desk_writes_while_the_phone_plans(monkeypatch, call)
    _r, answer = send(client, sheet, "v" * 16, "game", number=1, notation="re13+")
    assert answer["ok"], answer
    assert not ApprovalCall.objects.filter(scoresheet=sheet, status=ApprovalCall.Status.WAITING).exists()


def test_a_phones_game_is_planned_outside_the_write_transaction(client, sheet, monkeypatch):
    """Reading and scoring the sheet happen before the write lock is taken (on SQLite the whole
    database's): only the writes wait for it."""
    from django.db import connection

    outside = len(connection.atomic_blocks)  # the test's own transaction
    depths = []
    planned = table.plan_game

    def plan(actor, sheet, data, **facts):
        depths.append(len(connection.atomic_blocks))
        return planned(actor, sheet, data, **facts)

    monkeypatch.setattr(table, "plan_game", plan)
    _r, answer = send(client, sheet, "t" * 16, "game", number=1, notation="re13+")
    assert answer["ok"] and depths == [outside]


def test_the_answer_to_a_game_shows_the_calls_substitutes_and_players_as_a_fresh_read(
    client, sheet, organiser
):
    """The write's lookup tells which of these rows the sheet has (results.sheet.absent_rows);
    where it has them, the answer reads them as a fresh read of the sheet does."""

    seat = sheet.table.seats.select_related("participant").get(position=2)
    substitutes.substitute(organiser, seat.participant, "Aigner, Vroni", 1, from_game=1)
    _r, called = send(client, sheet, "u" * 16, "call", number=5, contract="sie", declarer=1)
    assert called["ok"], called
    _r, answer = send(client, sheet, "v" * 16, "game", number=1, notation="re13+")
    assert answer["ok"], answer
    fresh = client.get(
        reverse("table:part", args=[sheet.code]), {"seen": "x"}, HTTP_ACCEPT="application/json"
    ).json()
    assert answer["html"] == fresh["html"] and answer["state"] == fresh["state"]
    assert [call["number"] for call in answer["state"]["calls"]] == [5]
    assert "Aigner" in answer["html"]


def test_a_change_after_a_signature_withdraws_it(client, played, sheet_of, signature_png):
    """5.3.2: a signature confirms the sheet as signed. A game deleted (or changed) after two
    players signed withdraws their signatures: the table is told whose, the history keeps them,
    and all sign again (a walk found them kept, and the sheet locked over a game they never saw)."""
    from tournament.models import LogEntry, Signature

    sheet = sheet_of(played, 1, 1)
    answer = sign_on_the_phone(client, sheet, (1, 2), signature_png)
    names = list(sheet.signatures.order_by("position").values_list("name", flat=True))
    _r, answer = send(client, sheet, "d" * 16, "delete", number=32, base=answer["version"])
    assert answer["ok"], answer
    assert all(name in answer["message"] for name in names) and "unterschreiben" in answer["message"]
    assert not Signature.objects.filter(scoresheet=sheet).exists()
    log = LogEntry.objects.get(scoresheet=sheet, action="sheet.signatures_withdrawn")
    assert log.data["names"] == names and log.data["seats"] == [1, 2]
    state = re.search(r'id="state"[^>]*>(.*?)</script>', answer["html"]).group(1)
    assert json.loads(state)["signed"] == [] and "unterschrieben" not in answer["html"]


def test_a_phone_that_did_not_sign_is_shown_the_final_totals_when_the_sheet_locks(
    client, played, sheet_of, referee, sign
):
    """Every phone at the table: its next poll finds the sheet signed elsewhere and gets the
    signed totals to show (the walk found the second phone left with the unsigned 'Endstand')."""
    sheet = sign(referee, sheet_of(played, 1, 1))
    response = client.get(reverse("table:part", args=[sheet.code]), HTTP_ACCEPT="application/json")
    answer = response.json()
    assert response.status_code == 410 and answer["gone"] and answer["state"]["status"] == "signed"
    assert "gesperrt" in answer["html"] and "Endstand" not in answer["html"]
    page = client.get(reverse("table:sheet", args=[sheet.code]))
    assert page.status_code == 410 and f'data-code="{sheet.code}"' in page.content.decode()


def test_a_call_is_named_as_the_buttons_name_it(client, sheet):
    _r, answer = send(client, sheet, "k" * 16, "call", number=1, contract="solo", suit="gras", declarer=2)
    assert "Gras-Solo" in answer["message"] and ":" not in answer["message"].split("gerufen")[1]
    assert phone_context(sheet)["state"]["calls"][0]["label"] == "Gras-Solo"


def test_the_folders_addresses_lead_to_the_tournaments(client):
    for address in ("/manage/", "/referee/", "/t/"):
        response = client.get(address)
        assert response.status_code == 302 and response["Location"] == reverse("home")


def test_a_signature_given_at_one_phone_is_seen_at_the_others_poll(client, played, sheet_of, signature_png):
    """A signature raises no version: the poll's etag counts the signatures (the other phones at
    the table showed the pad for a player who had signed, until the next game)."""
    sheet = sheet_of(played, 1, 1)
    url = reverse("table:part", args=[sheet.code])
    before = client.get(url).json()["state"]
    sign_on_the_phone(client, sheet, (1,), signature_png)
    response = client.get(url, {"seen": before["etag"]})
    assert response.status_code == 200 and response.json()["state"]["signed"] == [1]
    assert response.json()["state"]["version"] == before["version"]
    assert client.get(url, {"seen": response.json()["state"]["etag"]}).status_code == 204


def test_the_notation_is_read_outside_forms_with_the_desks_message():
    from tournament.results.notation import typed_game

    with pytest.raises(ServiceError) as empty:
        typed_game("  ", 1)
    assert "re13+" in str(empty.value.message)
    with pytest.raises(ServiceError) as unreadable:
        typed_game("quatsch", 1)
    assert unreadable.value.message
    assert typed_game("re13+", 1).declarer == 1
