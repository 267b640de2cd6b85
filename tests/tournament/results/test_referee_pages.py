"""The referee's pages: permissions for every view, keyboard entry, htmx, refusals, 4xx."""

import re

import pytest
from django.urls import reverse

from tournament.models import Approval, GameEntry, Scoresheet

pytestmark = pytest.mark.django_db


def sheet_url(tournament, match=1, table=1):
    return reverse("referee:sheet", args=[tournament.slug, match, table])


def post(client, tournament, data, htmx=False, **kwargs):
    sheet = Scoresheet.objects.get(match__tournament=tournament, match__number=1, table__number=1)
    data = {"sheet": sheet.pk, "version": sheet.version, **data}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(sheet_url(tournament), data, **headers, **kwargs)


URLS = [
    ("referee:board", lambda t: [t.slug, 1]),
    ("referee:sheet", lambda t: [t.slug, 1, 1]),
    ("referee:handcheck", lambda t: [t.slug]),
]


@pytest.mark.parametrize(("name", "args"), URLS)
def test_anonymous_is_sent_to_log_in(drawn, client, name, args):
    response = client.get(reverse(name, args=args(drawn)))
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize(("name", "args"), URLS)
def test_staff_of_another_tournament_is_refused(drawn, foreign_organiser, client, name, args):
    client.force_login(foreign_organiser)
    assert client.get(reverse(name, args=args(drawn))).status_code == 403
    assert client.post(reverse(name, args=args(drawn)), {"action": "game"}).status_code == 403


def test_referee_sees_board_and_sheet_but_not_the_hand_checker(drawn, referee, client):
    client.force_login(referee)
    assert client.get(reverse("referee:board", args=[drawn.slug, 1])).status_code == 200
    assert client.get(sheet_url(drawn)).status_code == 200
    assert client.get(reverse("referee:handcheck", args=[drawn.slug])).status_code == 403


def test_unknown_match_or_table_is_a_404(drawn, referee, client):
    client.force_login(referee)
    assert client.get(sheet_url(drawn, match=9)).status_code == 404
    assert client.get(sheet_url(drawn, table=99)).status_code == 404


def preset_number(page: str) -> str:
    """The game number the entry form holds."""
    field = re.search(r'<input[^>]*id="game_number"[^>]*>', page).group(0)
    return re.search(r'value="(\d+)"', field).group(1)


def test_a_rufer_in_six_keystrokes(drawn, referee, client):
    """The cursor waits in the entry field and the game number is preset: r e 1 3 + Enter
    saves game 1, and the page comes back ready for game 2 the same way."""
    client.force_login(referee)
    page = client.get(sheet_url(drawn)).content.decode()
    field = re.search(r"<input[^>]*name=\"notation\"[^>]*>", page).group(0)
    assert "autofocus" in field
    preset = preset_number(page)
    keystrokes = "re13+"  # and Enter: the form posts what the page holds
    response = post(client, drawn, {"action": "game", "number": preset, "notation": keystrokes}, htmx=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert '<div id="sheet"' in text and "<html" not in text  # the htmx partial
    entry = GameEntry.objects.get()
    assert (entry.number, entry.points) == (1, (1, -1, 1, -1))
    assert preset_number(text) == "2"  # ready for the next game


def test_without_htmx_the_page_redirects_after_saving(drawn, referee, client):
    client.force_login(referee)
    response = post(client, drawn, {"action": "game", "number": 1, "notation": "sh2+"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Herz-Solo, 2: gewonnen" in page
    assert 'class="circled">6<' in page


def test_refusals_name_the_game_and_keep_the_typing(drawn, referee, client):
    client.force_login(referee)
    response = post(client, drawn, {"action": "game", "number": 1, "notation": "sie3"}, htmx=True)
    text = response.content.decode()
    assert "Spiel 1: Ein Sie zählt nicht im ersten Spiel" in text
    assert 'value="sie3"' in text
    response = post(client, drawn, {"action": "game", "number": 4, "notation": "xyz"}, htmx=True)
    assert "re13+" in response.content.decode()  # the help says how to type it
    assert not GameEntry.objects.exists()


def test_paper_row_and_edit(drawn, referee, client):
    client.force_login(referee)
    post(client, drawn, {"action": "row", "number": 1, "row": "(6) -2 -2 -2"})
    assert GameEntry.objects.get().kind == "transcribed"
    page = client.get(sheet_url(drawn), {"edit": 1, "mode": "row"}).content.decode()
    assert 'value="6* -2 -2 -2"' in page
    post(client, drawn, {"action": "row", "number": 1, "row": "-9 3 3 3", "replace": "on"})
    entry = GameEntry.objects.get()
    assert entry.points == (-9, 3, 3, 3)


def test_stale_page_is_refused_with_what_is_stored(drawn, referee, client):
    client.force_login(referee)
    post(client, drawn, {"action": "game", "number": 1, "notation": "re13+"})
    sheet = Scoresheet.objects.get(match__number=1, table__number=1)
    stale = {
        "action": "game",
        "sheet": sheet.pk,
        "version": 0,
        "number": 1,
        "notation": "sh2+",
        "replace": "on",
    }
    response = client.post(sheet_url(drawn), stale, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert "Eichel-Sau" in text
    assert GameEntry.objects.get().contract == "rufer"


def test_delete_keeps_history(drawn, referee, client):
    client.force_login(referee)
    post(client, drawn, {"action": "game", "number": 1, "notation": "re13+"})
    post(client, drawn, {"action": "delete", "number": 1})
    assert not GameEntry.objects.exists()
    page = client.get(sheet_url(drawn)).content.decode()
    assert "game 1" in page or "Spiel 1" in page


def test_supervisor_only_actions(drawn, referee, supervisor, client):
    client.force_login(referee)
    assert post(client, drawn, {"action": "approve", "number": 2, "contract": "solo_tout"}).status_code == 403
    assert (
        post(
            client, drawn, {"action": "sanction", "number": 1, "contract": "solo", "declarer": 1, "liable": 1}
        ).status_code
        == 403
    )
    assert not Approval.objects.exists() and not GameEntry.objects.exists()
    client.force_login(supervisor)
    post(
        client,
        drawn,
        {
            "action": "approve",
            "number": 2,
            "contract": "solo_tout",
            "suit": "herz",
            "hand": "EO GO HO EU HA H10 SA GA",
        },
    )
    approval = Approval.objects.get()
    assert approval.hand_check["runners"] == 3
    post(client, drawn, {"action": "sanction", "number": 1, "contract": "solo", "declarer": 1, "liable": 1})
    assert GameEntry.objects.get(number=1).points == (-9, 3, 3, 3)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "steal"},
        {},
    ],
)
def test_forged_posts_get_a_4xx(drawn, referee, client, data):
    client.force_login(referee)
    response = client.post(sheet_url(drawn), data)
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize(
    "data",
    [
        {"action": "game", "number": "x", "version": "1", "notation": "re13+"},
        {"action": "game", "number": "1", "version": "abc", "notation": "re13+"},
        {"action": "game", "number": "99999", "version": "0", "notation": "re13+"},
        {"action": "row", "number": "1", "version": "0", "row": "1 2 3"},
        {"action": "delete", "number": "5", "version": "0"},
        {"action": "game", "number": "1", "version": "0", "contract": "ramsch", "declarer": "9"},
    ],
)
def test_malformed_input_is_refused_without_a_500(drawn, referee, client, data):
    client.force_login(referee)
    response = client.post(sheet_url(drawn), data)
    assert response.status_code in (200, 400)
    assert not GameEntry.objects.exists()


def test_board_states_and_jump_to_table(drawn, referee, client):
    client.force_login(referee)
    post(client, drawn, {"action": "game", "number": 2, "notation": "re13+"})
    board = reverse("referee:board", args=[drawn.slug, 1])
    text = client.get(board).content.decode()
    assert "state-problem" in text and "state-empty" in text
    assert "Tisch 1" not in client.get(board, {"state": "empty"}).content.decode()
    response = client.get(board, {"table": "2"})
    assert response.status_code == 302 and response["Location"].endswith("/table/2/")
    assert "Tisch 7" in client.get(board, {"table": "7"}, follow=True).content.decode()


def test_hand_checker(drawn, supervisor, client):
    client.force_login(supervisor)
    url = reverse("referee:handcheck", args=[drawn.slug])
    text = client.post(url, {"hand": "EO GO HO SO EU GU HU SU", "contract": "sie"}).content.decode()
    assert '<li class="done">Ein Sie: alle vier Ober und alle vier Unter (2.9).</li>' in text
    text = client.post(
        url, {"hand": "EO GO HO EU HA H10 SA G9", "contract": "solo_tout", "suit": "herz"}
    ).content.decode()
    assert '<li class="todo">Ein Sie' not in text and '<li class="todo">Kein Sie.</li>' in text
    # three runners (EO GO HO) are enough; the Gras-9 alone is not a side suit a Tout may hold
    side_suits = text[text.index("in den Fehlfarben nur Sauen") :].split("</li>")[0]
    assert "nicht erfüllt in Gras" in " ".join(side_suits.split())
    runners = text[: text.index("Solo-Tout: mindestens 3 Laufende")].rsplit("<li", 1)[1]
    assert 'class="done"' in runners


def test_supervisor_approves_from_the_board(drawn, supervisor, referee, client):
    board = reverse("referee:board", args=[drawn.slug, 1])
    client.force_login(referee)
    assert "Approve a game" not in client.get(board).content.decode()
    assert client.post(board, {"table": 1, "number": 2, "contract": "sie"}).status_code == 403
    client.force_login(supervisor)
    response = client.post(board, {"table": 2, "number": 2, "contract": "sie"})
    assert response.status_code == 302
    approval = Approval.objects.get()
    assert (approval.scoresheet.table.number, approval.number, approval.contract) == (2, 2, "sie")
    text = client.post(board, {"table": 9, "number": 2, "contract": "sie"}).content.decode()
    assert "Einen Tisch 9 gibt es in diesem Durchgang nicht." in text
    text = client.post(board, {"table": 1, "number": 40, "contract": "sie"}).content.decode()
    assert "Spiel 40 gibt es nicht" in text
