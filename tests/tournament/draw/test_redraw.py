"""A redraw over results by two people with the roles as the README gives them (issue 28, items 1
and 13): the organiser asks, the supervisor confirms (which draws) or declines; nobody changes
his roles; the board then reminds to print the new table cards."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from tournament.draw import redraw
from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.models import GameEntry, LogEntry, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_result(drawn, referee, enter, sheet_of):
    enter(referee, sheet_of(drawn, 1, 1), Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    return drawn


def test_the_organiser_alone_cannot_discard_results(with_result, organiser):
    with pytest.raises(ServiceError) as error:
        draw_service.draw_one(organiser, with_result, 1, seed="neu", discard_results=True)
    assert "Turnierleitung" in str(error.value.message)
    assert GameEntry.objects.filter(scoresheet__match__number=1).count() == 1


def test_the_supervisor_cannot_draw_nor_ask_but_confirms(with_result, supervisor, organiser):
    with pytest.raises(PermissionDenied):
        draw_service.draw_one(supervisor, with_result, 1, seed="neu", discard_results=True)
    with pytest.raises(PermissionDenied):
        redraw.ask(supervisor, with_result, 1)
    with pytest.raises(PermissionDenied):  # the organiser does not answer his own request
        redraw.ask(organiser, with_result, 1, seed="neu")
        redraw.answer(organiser, with_result, 1, confirm=True)


def test_the_organiser_asks_and_the_supervisor_confirms(with_result, organiser, supervisor, referee):
    before = Match.objects.get(tournament=with_result, number=1)
    asked = redraw.ask(organiser, with_result, 1, seed="neu")
    assert asked.action == "draw.redraw_ask" and asked.data == {"match": 1, "seed": "neu", "results": 1}
    assert list(redraw.open_requests(with_result)) == [1]
    with pytest.raises(ServiceError) as error:  # asked once is enough
        redraw.ask(organiser, with_result, 1)
    assert "bereits" in str(error.value.message)
    with pytest.raises(PermissionDenied):  # a referee does not confirm
        redraw.answer(referee, with_result, 1, confirm=True)

    match = redraw.answer(supervisor, with_result, 1, confirm=True)

    assert match.pk == before.pk and match.seed == "neu" and match.draw == 2 and match.drawn_by == supervisor
    assert not GameEntry.objects.filter(scoresheet__match=match).exists()
    (old,) = Match.all_draws.filter(tournament=with_result, number=1, discarded_at__isnull=False)
    assert GameEntry.objects.filter(scoresheet__match=old).count() == 1  # kept as an earlier draw
    history = LogEntry.objects.filter(action="draw.match").latest("id")
    assert history.data["discarded_results"] == {"1": 1} and history.data["asked_by"] == "orga"
    assert "Ergebnisse verworfen" in history.summary and "orga" in history.summary
    assert history.user == supervisor
    assert redraw.open_requests(with_result) == {}
    with pytest.raises(ServiceError):  # answered: nothing left to confirm
        redraw.answer(supervisor, with_result, 1, confirm=True)


def test_the_supervisor_declines(with_result, organiser, supervisor):
    redraw.ask(organiser, with_result, 1)
    assert redraw.answer(supervisor, with_result, 1, confirm=False) is None
    assert Match.objects.get(tournament=with_result, number=1).draw == 1
    assert GameEntry.objects.filter(scoresheet__match__number=1).count() == 1
    declined = LogEntry.objects.get(action="draw.redraw_decline")
    assert declined.user == supervisor and declined.data == {"match": 1, "asked_by": "orga"}
    assert redraw.open_requests(with_result) == {}
    redraw.ask(organiser, with_result, 1)  # asked again later
    assert list(redraw.open_requests(with_result)) == [1]


def test_the_history_shows_the_request_and_the_answer(with_result, organiser, supervisor, client):
    redraw.ask(organiser, with_result, 1, seed="neu")
    redraw.answer(supervisor, with_result, 1, confirm=False)
    client.force_login(organiser)
    draw_page = client.get(reverse("organiser:draw", args=[with_result.slug])).content.decode()
    assert 'id="redraw-declined-1"' in draw_page and "aufsicht hat um" in draw_page
    redraw.ask(organiser, with_result, 1, seed="neu")
    redraw.answer(supervisor, with_result, 1, confirm=True)
    page = client.get(reverse("organiser:dashboard", args=[with_result.slug])).content.decode()
    for label in ("Neuauslosung über Ergebnisse erbeten", "Neuauslosung über Ergebnisse abgelehnt"):
        assert label in page
    assert "Ergebnisse verworfen, erbeten von orga" in page


def test_a_match_without_results_is_not_asked_for(drawn, organiser):
    with pytest.raises(ServiceError) as error:
        redraw.ask(organiser, drawn, 2)
    assert "ohne die Turnierleitung" in str(error.value.message)
    assert not LogEntry.objects.filter(action="draw.redraw_ask").exists()


def test_a_signed_match_is_not_asked_for(played, organiser, referee, sheet_of, sign):
    sign(referee, sheet_of(played, 1, 1))
    with pytest.raises(ServiceError) as error:
        redraw.ask(organiser, played, 1)
    assert "5.3.5" in str(error.value.message)


def test_a_signed_match_offers_no_request_but_says_why(played, organiser, referee, sheet_of, sign, client):
    """The walk of issue 28: the button stayed where a redraw can never happen."""
    sign(referee, sheet_of(played, 1, 1))
    client.force_login(organiser)
    page = client.get(reverse("organiser:draw", args=[played.slug])).content.decode()
    assert page.count("Turnierleitung um Neuauslosung bitten") == 1  # match 2's, not match 1's
    assert "1 Spielliste dieses Durchgangs ist unterschrieben oder ungültig erklärt" in page


def test_the_pages_walk_the_request(with_result, organiser, supervisor, client):
    draw_page = reverse("organiser:draw", args=[with_result.slug])
    client.force_login(organiser)
    page = client.get(draw_page).content.decode()
    assert "Turnierleitung um Neuauslosung bitten" in page
    response = client.post(reverse("organiser:redraw_ask", args=[with_result.slug, 1]), {"seed": "neu"})
    assert response.status_code == 302
    assert "Warten auf die Turnierleitung" in client.get(draw_page).content.decode()

    client.force_login(supervisor)
    board = client.get(reverse("referee:board", args=[with_result.slug, 1])).content.decode()
    assert "orga bittet, Durchgang 1" in board and f'href="{draw_page}#redraw-1"' in board
    dashboard = client.get(reverse("organiser:dashboard", args=[with_result.slug])).content.decode()
    assert 'id="dashboard-redraw-1"' in dashboard and f'href="{draw_page}#redraw-1"' in dashboard
    page = client.get(draw_page).content.decode()
    assert 'id="redraw-1"' in page and "Verwerfen und neu auslosen" in page
    answer = reverse("organiser:redraw_answer", args=[with_result.slug, 1])
    client.post(answer, {"answer": "confirm"})  # the box not ticked: nothing happens
    assert Match.objects.get(tournament=with_result, number=1).draw == 1
    response = client.post(answer, {"answer": "confirm", "discard_results": "on"}, follow=True)
    assert Match.objects.get(tournament=with_result, number=1).draw == 2
    assert "neuen Tischkarten" in response.content.decode()


def board_of(client, tournament, match):
    return client.get(reverse("referee:board", args=[tournament.slug, match])).content.decode()


def test_the_board_reminds_to_print_the_new_table_cards(with_result, organiser, supervisor, client):
    """Item 13: after a redraw, as after a renewed code, until the first game of the new draw."""
    client.force_login(supervisor)
    assert 'id="new-cards"' not in board_of(client, with_result, 1)  # the first draw
    redraw.ask(organiser, with_result, 1)
    redraw.answer(supervisor, with_result, 1, confirm=True)
    page = board_of(client, with_result, 1)
    assert 'id="new-cards"' in page and "die neuen Tischkarten drucken" in page
    assert 'id="new-cards"' not in board_of(client, with_result, 2)
    draw_service.draw_one(organiser, with_result, 2, seed="zwei")  # without results: no request needed
    assert 'id="new-cards"' in board_of(client, with_result, 2)


def test_the_reminder_goes_once_the_new_draw_has_a_game(
    with_result, organiser, supervisor, referee, client, enter, sheet_of
):
    redraw.ask(organiser, with_result, 1)
    redraw.answer(supervisor, with_result, 1, confirm=True)
    enter(referee, sheet_of(with_result, 1, 2), Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    client.force_login(supervisor)
    assert 'id="new-cards"' not in board_of(client, with_result, 1)


def test_the_organiser_withdraws_his_request(with_result, organiser, supervisor, referee, client):
    """Noticed in the walk of issue 28: a request asked by mistake stayed until the supervisor
    declined it."""
    draw_page = reverse("organiser:draw", args=[with_result.slug])
    redraw.ask(organiser, with_result, 1, seed="neu")
    with pytest.raises(PermissionDenied):  # the organiser's own request, nobody else's
        redraw.withdraw(referee, with_result, 1)
    client.force_login(organiser)
    assert "Bitte zurückziehen" in client.get(draw_page).content.decode()
    response = client.post(reverse("organiser:redraw_withdraw", args=[with_result.slug, 1]), follow=True)
    page = response.content.decode()
    assert "ist zurückgezogen; seine Ergebnisse bleiben" in page
    assert "Warten auf die Turnierleitung" not in page and "Turnierleitung um Neuauslosung bitten" in page
    withdrawn = LogEntry.objects.get(action="draw.redraw_withdraw")
    assert withdrawn.user == organiser and withdrawn.data == {"match": 1, "asked_by": "orga"}
    assert redraw.open_requests(with_result) == {}
    assert GameEntry.objects.filter(scoresheet__match__number=1).count() == 1
    with pytest.raises(ServiceError):  # nothing left for the supervisor to confirm
        redraw.answer(supervisor, with_result, 1, confirm=True)
    with pytest.raises(ServiceError):  # nor to withdraw twice
        redraw.withdraw(organiser, with_result, 1)
    dashboard = client.get(reverse("organiser:dashboard", args=[with_result.slug])).content.decode()
    assert "Bitte um Neuauslosung zurückgezogen" in dashboard
