"""A scoresheet at a table of five (issue 18, README readings): the dealer sits out the game he
dealt and scores 0, 40 games, rounds of five, five signatures, at the desk and on the phone."""

import json

import pytest
from django.urls import reverse

from scoring import Sanction
from scoring.notation import NotationError, parse_game, parse_row
from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.models import GameEntry, Scoresheet
from tournament.results import services as sheet_service
from tournament.results.document import sheet_digest
from tournament.results.sheet import sheet_view
from tournament.tablephone.views import phone_context


@pytest.fixture
def five(tournament, organiser, add_players, sheet_of):
    """Nine players: one table of four, then one table of five (tables of five come last)."""
    add_players(tournament, 9)
    draw_service.draw_all(organiser, tournament, seed="fuenf")
    sheet = sheet_of(tournament, 1, 2)
    assert (sheet.size, sheet.table.seats.count(), sheet_of(tournament, 1, 1).size) == (5, 5, 4)
    return sheet


def players_of(number: int) -> list[int]:
    """The four seats that play game ``number`` at a table of five: all but its dealer."""
    return [seat for seat in range(1, 6) if seat != (number - 1) % 5 + 1]


def enter(user, sheet, text, number, replace=False):
    sheet.refresh_from_db()
    return sheet_service.save_entry(user, sheet, parse_game(text, number, seats=5), sheet.version, replace)


def test_every_kind_of_entry_scores_with_the_dealer_at_zero(five, referee, supervisor):
    # Game 1: seat 1 deals and sits out; a won Sauspiel of 2 and 3 (5.2.7: 1 point each).
    assert enter(referee, five, "re23+", 1).points == (0, 1, 1, -1, -1)
    # Game 2: seat 2 deals; a Herz-Solo of seat 3 lost Schneider: 9 to each of three.
    assert enter(referee, five, "sh3-s", 2).points == (3, 0, -9, 3, 3)
    # Game 3: seat 3 deals; a sanction in a Sauspiel of 1 and 4, defender 5 liable: -4, his
    # partner 2 gets 0, the declaring pair +2 each (3.4.17).
    five.refresh_from_db()
    sanction = Sanction(3, "rufer", 1, 5, partner=4)
    assert sheet_service.save_entry(supervisor, five, sanction, five.version).points == (2, 0, 0, 2, -4)
    # Game 4: seat 4 deals; a paper row of five numbers, seat 5's Wenz won (circled).
    five.refresh_from_db()
    row = parse_row("-2 -2 -2 0 6*", 4, seats=5)
    assert sheet_service.save_entry(referee, five, row, five.version).points == (-2, -2, -2, 0, 6)
    # Game 5: seat 5 deals; a Sauspiel of 1 and 4 lost Schwarz.
    assert enter(referee, five, "rs14-x", 5).points == (-3, 3, 3, -3, 0)
    view = sheet_view(Scoresheet.objects.get(pk=five.pk))
    (first,) = view.rounds
    assert (first.complete, first.checksum) == (True, 0)
    assert first.running == (0, 2, -7, 1, 4)
    assert [line.kind for line in view.lines()][:6] == ["game"] * 5 + ["round"]
    assert [game.dealer for game in view.games[:6]] == [1, 2, 3, 4, 5, 1]
    assert len(view.games) == 40


@pytest.mark.parametrize(
    ("text", "number", "field"),
    [("re12+", 1, "Spieler"), ("re21+", 6, "Mitspieler"), ("sh1+", 11, "Spieler")],
)
def test_the_dealer_cannot_play_his_game(five, referee, text, number, field):
    with pytest.raises(ServiceError) as refused:
        enter(referee, five, text, number)
    message = str(refused.value.message)
    assert message == f"Platz 1 hat Spiel {number} gegeben und setzt aus: er kann nicht {field} sein."
    assert not GameEntry.objects.filter(scoresheet=five).exists()


def test_a_liable_dealer_and_a_four_number_row_are_refused(five, referee, supervisor):
    five.refresh_from_db()
    with pytest.raises(ServiceError) as refused:  # seat 1 deals game 1: never liable
        sheet_service.save_entry(supervisor, five, Sanction(1, "solo", 2, 1), five.version)
    assert "setzt aus" in str(refused.value.message)
    with pytest.raises(NotationError):  # a paper row at five: the dealer's 0 is written too
        parse_row("1 1 -1 -1", 1, seats=5)


def test_game_41_does_not_exist_and_the_sheet_completes_with_40(five, referee):
    for number in range(1, 41):
        declarer, partner, *_ = players_of(number)
        enter(referee, five, f"re{declarer}{partner}+", number)
    five.refresh_from_db()
    assert five.status == Scoresheet.Status.COMPLETE
    score = sheet_service.score(five)
    assert len(score.rounds) == 8 and all(r.checksum == 0 for r in score.rounds)
    assert sum(score.totals) == 0
    with pytest.raises(ServiceError) as refused:
        enter(referee, five, "re12+", 41)
    assert "41" in str(refused.value.message)


def test_five_sign_and_the_fifth_locks_the_sheet(five, referee, sign):
    for number in range(1, 41):
        declarer, partner, *_ = players_of(number)
        enter(referee, five, f"re{declarer}{partner}{'+' if number % 3 else '-'}", number)
    five.refresh_from_db()
    sign(referee, five, positions=(1, 2, 3, 4))
    assert five.status == Scoresheet.Status.COMPLETE  # four of five is not all
    sign(referee, five, positions=(5,))
    assert five.status == Scoresheet.Status.SIGNED
    assert five.signatures.count() == 5
    assert five.digest == sheet_digest(five)
    assert len(five.signed_as["seats"]) == 5


def test_the_desk_page_shows_five_columns_and_marks_who_sits_out(client, five, referee):
    enter(referee, five, "re23+", 1)
    client.force_login(referee)
    url = reverse("referee:sheet", args=[five.match.tournament.slug, 1, 2])
    page = client.get(url).content.decode()
    assert page.count('<th class="seat">') == 5
    assert 'class="p num out"' in page  # game 1's dealer, seat 1 (the one row template's cell)
    assert (
        "von 40 Spielen"
        in client.get(reverse("referee:board", args=[five.match.tournament.slug, 1])).content.decode()
    )
    # Typed at the desk, seat 5 exists at a table of five
    response = client.post(
        url,
        {"action": "game", "number": 2, "notation": "rs53+", "sheet": five.pk, "version": five.version + 1},
    )
    assert response.status_code in (200, 302)
    assert GameEntry.objects.get(scoresheet=five, number=2).points == (-1, 0, 1, -1, 1)


def test_the_phone_knows_the_size_and_refuses_the_dealer(client, five):
    state = phone_context(five)["state"]
    assert (state["size"], state["games"], state["dealer"]) == (5, 40, 1)
    assert [seat["position"] for seat in state["seats"]] == [1, 2, 3, 4, 5]

    def send(key, action, **data):
        response = client.post(
            reverse("table:send", args=[five.code]),
            json.dumps({"key": key, "action": action, "data": data}),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )
        return response.json()

    answer = send("a" * 32, "game", number=1, notation="re12+")
    assert not answer["ok"] and "setzt aus" in answer["message"]
    answer = send("b" * 32, "game", number=1, notation="re25+")
    assert answer["ok"] and answer["state"]["dealer"] == 2
    answer = send("c" * 32, "call", number=2, contract="solo_tout", suit="herz", declarer=2)
    assert not answer["ok"] and "setzt aus" in answer["message"]
    answer = send("d" * 32, "call", number=2, contract="solo_tout", suit="herz", declarer=5)
    assert answer["ok"]


def test_a_substitute_takes_over_in_game_36_at_a_table_of_five_only(five, organiser, sheet_of):
    from tournament.results.substitutes import substitute

    at_five = five.table.seats.get(position=3).participant
    substitute(organiser, at_five, "Ersatz, Fritz", 1, 36)
    assert at_five.player_name(1, 36) == "Ersatz, Fritz"
    at_four = sheet_of(five.match.tournament, 1, 1).table.seats.get(position=3).participant
    with pytest.raises(ServiceError) as refused:
        substitute(organiser, at_four, "Ersatz, Franz", 1, 36)
    assert "Spiel 36 gibt es nicht" in str(refused.value.message)


def test_the_desk_lists_offer_seat_5_at_a_table_of_five_only(client, five, referee, sheet_of):
    client.force_login(referee)
    slug = five.match.tournament.slug
    at_five = client.get(reverse("referee:sheet", args=[slug, 1, 2])).content.decode()
    at_four = client.get(reverse("referee:sheet", args=[slug, 1, 1])).content.decode()
    assert '<option value="5">5</option>' in at_five and '<option value="5">5</option>' not in at_four
    assert "0 6* -2 -2 -2" in at_five  # the paper row's example has five numbers
    # Chosen from the lists: Wenz of seat 5 in game 1 (seat 1 deals)
    response = client.post(
        reverse("referee:sheet", args=[slug, 1, 2]),
        {"action": "game", "number": 1, "contract": "wenz", "declarer": 5, "result": "won"}
        | {"sheet": five.pk, "version": five.version},
    )
    assert response.status_code == 302
    assert GameEntry.objects.get(scoresheet=five, number=1).points == (0, -2, -2, -2, 6)


def test_the_players_page_marks_the_game_he_sat_out(client, five, referee):
    enter(referee, five, "re23+", 1)
    enter(referee, five, "re13+", 2)
    dealer = five.table.seats.get(position=1).participant
    url = reverse("public:participant", args=[five.match.tournament.slug, dealer.number])
    page = client.get(url).content.decode()
    assert page.count("gegeben, ausgesetzt:") == 1  # game 1; he played game 2
