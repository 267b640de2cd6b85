"""The draw service, its history, the multiple-of-four message (tables of five off) and the draw
command."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from scoring import Contract, Game, Result, Suit
from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.exchange.writer import export_document
from tournament.models import GameEntry, LogEntry, Match, Participant, Scoresheet, Seat, StaffRole
from tournament.results import services as sheet_service
from tournament.results import signing
from tournament.standings import standings

pytestmark = pytest.mark.django_db


def seating(match):
    return [
        [s.participant.number for s in t.seats.order_by("position")] for t in match.tables.order_by("number")
    ]


def test_draw_all_seats_everyone_once_per_match(tournament, organiser, add_players):
    add_players(tournament, 16)
    draw_service.draw_all(organiser, tournament, seed="kirta")
    for match in tournament.matches.all():
        numbers = sorted(n for table in seating(match) for n in table)
        assert numbers == list(range(1, 17))
        assert match.seed == "kirta"
        assert match.tables.count() == 4
        assert Scoresheet.objects.filter(match=match).count() == 4
    assert draw_service.repeated_table_mates(tournament) == 0


def test_the_same_seed_gives_the_same_draw(tournament, organiser, add_players):
    add_players(tournament, 24)
    draw_service.draw_all(organiser, tournament, seed="abc")
    first = [seating(m) for m in tournament.matches.all()]
    draw_service.draw_all(organiser, tournament, seed="abc")
    assert [seating(m) for m in tournament.matches.all()] == first
    draw_service.draw_all(organiser, tournament, seed="xyz")
    assert [seating(m) for m in tournament.matches.all()] != first


def test_a_new_seed_is_stored_and_recorded(tournament, organiser, add_players):
    add_players(tournament, 8)
    draw_service.draw_all(organiser, tournament)
    seed = tournament.matches.get(number=1).seed
    assert len(seed) >= 8
    assert LogEntry.objects.filter(action="draw.all", data__seed=seed).exists()


def test_redraw_of_one_match_keeps_the_others(tournament, organiser, add_players):
    players = add_players(tournament, 20)
    draw_service.draw_all(organiser, tournament, seed="one")
    first = seating(tournament.matches.get(number=1))
    Participant.objects.filter(pk__in=[p.pk for p in players[:4]]).update(status="withdrawn")
    draw_service.draw_one(organiser, tournament, 2, seed="two")
    assert seating(tournament.matches.get(number=1)) == first
    second = [n for table in seating(tournament.matches.get(number=2)) for n in table]
    assert sorted(second) == list(range(5, 21))
    assert draw_service.repeated_table_mates(tournament) == 0
    history = LogEntry.objects.get(action="draw.match")
    assert history.data["match"] == 2
    assert len(history.data["replaced"]) == 5  # the five tables it replaced


def four_only(tournament):
    """The rule profile without tables of five (README readings): multiples of four only."""
    tournament.rule_overrides = {"tables_of_five": False}
    tournament.save()
    return tournament


def test_the_message_in_english(tournament, organiser, add_players):
    four_only(tournament)
    add_players(tournament, 18)
    with translation.override("en"), pytest.raises(ServiceError) as error:
        draw_service.draw_all(organiser, tournament)
    assert str(error.value.message).startswith(
        "18 active participants do not fill tables of four: 2 players are missing, or 2 are too many."
    )


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (17, "17 aktive Teilnehmer füllen keine Vierertische: es fehlen 3 Spieler, oder 1 ist zu viel."),
        (19, "19 aktive Teilnehmer füllen keine Vierertische: es fehlt 1 Spieler, oder 3 sind zu viel."),
    ],
)
def test_a_count_not_a_multiple_of_four_is_refused_with_what_is_missing(
    tournament, organiser, count, expected, add_players
):
    four_only(tournament)
    add_players(tournament, count)
    with pytest.raises(ServiceError) as error:
        draw_service.draw_all(organiser, tournament)
    assert str(error.value.message).startswith(expected)
    assert "Ersatzspieler" in str(error.value.message)
    assert not Seat.objects.exists()


def test_draw_page_offers_reserve_players(tournament, organiser, client, add_players):
    four_only(tournament)
    add_players(tournament, 15)
    (reserve,) = add_players(tournament, 1, start=50, status="reserve")
    client.force_login(organiser)
    url = reverse("organiser:draw", args=[tournament.slug])
    text = client.get(url).content.decode()
    assert "Spieler 050" in text
    client.post(
        reverse("organiser:participant_status", args=[tournament.slug]),
        {"participants": [reserve.pk], "status": "active", "next": url},
    )
    response = client.post(url, {"seed": "s"}, follow=True)
    assert response.status_code == 200
    assert Seat.objects.filter(match__number=1).count() == 16


def _enter_a_result(match):
    sheet = Scoresheet.objects.filter(match=match).first()
    return GameEntry.objects.create(
        scoresheet=sheet,
        number=1,
        contract="solo",
        suit="herz",
        declarer=1,
        result="won",
        points_1=6,
        points_2=-2,
        points_3=-2,
        points_4=-2,
    )


def test_a_match_with_results_needs_the_supervisor_to_discard_them(
    tournament, organiser, supervisor, add_players
):
    add_players(tournament, 16)
    draw_service.draw_all(organiser, tournament, seed="a")
    match = Match.objects.get(tournament=tournament, number=1)
    _enter_a_result(match)
    with pytest.raises(ServiceError) as error:
        draw_service.draw_one(organiser, tournament, 1, seed="b")
    assert "hat schon Ergebnisse" in str(error.value.message)
    with pytest.raises(ServiceError):  # the organiser alone cannot confirm
        draw_service.draw_one(organiser, tournament, 1, seed="b", discard_results=True)

    StaffRole.objects.create(tournament=tournament, user=supervisor, role="organiser")
    draw_service.draw_one(supervisor, tournament, 1, seed="b", discard_results=True)
    assert not GameEntry.objects.filter(scoresheet__match=match).exists()
    history = LogEntry.objects.get(action="draw.match")
    assert history.data["discarded_results"] == {"1": 1}
    entries = [e for table in history.data["replaced"] for e in table["entries"]]
    assert entries[0]["contract"] == "solo" and entries[0]["points"] == [6, -2, -2, -2]


def test_draw_command(tournament, add_players):
    add_players(tournament, 16)

    out = StringIO()
    call_command("draw", tournament.slug, "--seed", "cli", stdout=out)
    assert "match 2: 4 tables, seed cli" in out.getvalue()
    assert "repeated table-mates over all drawn matches: 0" in out.getvalue()
    first = [seating(m) for m in tournament.matches.all()]
    call_command("draw", tournament.slug, "--match", "2", "--seed", "cli2", stdout=StringIO())
    assert seating(tournament.matches.get(number=1)) == first[0]


def test_draw_command_errors(tournament, add_players):
    four_only(tournament)
    add_players(tournament, 6)
    with pytest.raises(CommandError, match="füllen keine Vierertische"):
        call_command("draw", tournament.slug)
    with pytest.raises(CommandError, match="no tournament"):
        call_command("draw", "gibts-nicht")


def test_a_large_field_can_be_drawn_again(tournament, organiser, add_players):
    """Hundreds of tables: the history snapshot must not build SQL that SQLite refuses."""
    add_players(tournament, 1200)
    draw_service.draw_all(organiser, tournament, seed="gross")
    draw_service.draw_all(organiser, tournament, seed="gross2")
    history = LogEntry.objects.filter(action="draw.all").order_by("created", "id").last()
    assert len(history.data["replaced"]["1"]) == 300
    assert draw_service.repeated_table_mates(tournament) == 0


def test_a_redraw_keeps_the_discarded_draw_whole(drawn, organiser, supervisor, referee, enter, sheet_of):
    """Issue 13: the discarded results stay, with their approvals and history, as an earlier
    draw of the match that the standings no longer count."""
    StaffRole.objects.create(tournament=drawn, user=supervisor, role="organiser")
    sheet = sheet_of(drawn, 1, 1)
    sheet_service.approve(supervisor, sheet, 2, "sie")
    enter(referee, sheet, Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    enter(referee, sheet, Game(2, Contract.SIE, 3))
    players = [seat.participant.number for seat in sheet.table.seats.order_by("position")]
    assert standings.compute(drawn).row(players[2]).values["sie"] == 1
    draw_service.draw_one(supervisor, drawn, 1, seed="neu", discard_results=True)

    (old,) = Match.all_draws.filter(tournament=drawn, number=1, discarded_at__isnull=False)
    current = drawn.matches.get(number=1)
    assert (old.draw, current.draw, old.seed) == (1, 2, "liste")
    kept = Scoresheet.objects.get(match=old, table__number=1)
    assert [e.number for e in kept.entries.all()] == [1, 2] and kept.approvals.get().contract == "sie"
    assert [seat.participant.number for seat in kept.table.seats.order_by("position")] == players
    assert set(kept.log.values_list("action", flat=True)) == {"approval.grant", "entry.create"}
    assert not GameEntry.objects.filter(scoresheet__match=current).exists()
    assert all(row.values["points"] == 0 for row in standings.compute(drawn).rows)  # counted: none
    document = export_document(drawn)
    (match_1,) = [m for m in document["matches"] if m["number"] == 1]
    assert match_1["draw"] == 2 and [g["game"] for g in match_1["discarded"][0]["tables"][0]["games"]] == [
        1,
        2,
    ]


def test_a_match_with_signed_or_void_sheets_is_never_drawn_again(played, supervisor, referee, sheet_of, sign):
    StaffRole.objects.create(tournament=played, user=supervisor, role="organiser")
    sign(referee, sheet_of(played, 1, 2))
    signing.declare_void(supervisor, sheet_of(played, 1, 3), "unleserlich")
    with pytest.raises(ServiceError) as refused:
        draw_service.draw_one(supervisor, played, 1, seed="neu", discard_results=True)
    assert "Tische 2, 3" in refused.value.message and "(5.3.5)" in refused.value.message
    with pytest.raises(ServiceError):
        draw_service.draw_all(supervisor, played, seed="neu", discard_results=True)
    assert Match.all_draws.filter(tournament=played).count() == 2  # nothing discarded
    assert sheet_of(played, 1, 2).status == "signed"


def test_the_board_shows_a_discarded_draw_and_its_sheets_take_nothing(
    drawn, supervisor, referee, enter, sheet_of, client
):
    StaffRole.objects.create(tournament=drawn, user=supervisor, role="organiser")
    enter(referee, sheet_of(drawn, 1, 1), Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    draw_service.draw_one(supervisor, drawn, 1, seed="neu", discard_results=True)
    client.force_login(referee)
    board = client.get(reverse("referee:board", args=[drawn.slug, 1])).content.decode()
    old_sheet = reverse("referee:discarded_sheet", args=[drawn.slug, 1, 1, 1])
    assert "Auslosung 1, verworfen am" in board and old_sheet in board
    page = client.get(old_sheet).content.decode()
    assert "gehört zur Auslosung 1 des Durchgangs" in page and "Herz-Solo" in page
    assert 'name="notation"' not in page  # no entry on a discarded draw
    old = Scoresheet.objects.get(match__draw=1, match__number=1, table__number=1)
    with pytest.raises(ServiceError, match="verworfen"):
        sheet_service.save_entry(
            referee, old, Game(2, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON), None
        )
    assert client.get(reverse("referee:discarded_sheet", args=[drawn.slug, 1, 9, 1])).status_code == 404


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"match": "1", "seed": "x" * 65}, "Startwert: "),
        ({"match": "1", "seed": "a\x00b"}, "Startwert: "),
        ({"match": "0"}, "Durchgang: "),
        ({"match": "abc"}, "Durchgang: "),
    ],
)
def test_a_refused_draw_says_why(drawn, organiser, client, fields, message):
    client.force_login(organiser)
    before = list(drawn.matches.values_list("number", "seed"))
    response = client.post(reverse("organiser:draw", args=[drawn.slug]), fields, follow=True)
    texts = [str(m) for m in response.context["messages"]]
    assert any(text.startswith(message) for text in texts), texts
    assert list(drawn.matches.values_list("number", "seed")) == before
