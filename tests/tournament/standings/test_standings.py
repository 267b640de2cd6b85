"""Standings (5.4.1), the 5.4.2 tie-break from the database, lots, the command, the public pages."""

import csv
import datetime
import io
import json
import random

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from scoring.ranking import Tally
from tests.tournament.helpers import written_around_the_services
from tournament.demo import generator
from tournament.draw import services as draw_service
from tournament.errors import ServiceError
from tournament.models import LotDraw, Participant, Scoresheet, Seat, Substitution
from tournament.participants import services as participant_service
from tournament.results import services as sheet_service
from tournament.results import signing, substitutes
from tournament.standings import lots as lots_service
from tournament.standings import standings
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def seated(tournament, match, table):
    sheet = Scoresheet.objects.get(match__tournament=tournament, match__number=match, table__number=table)
    players = {s.position: s.participant.number for s in sheet.table.seats.all()}
    return sheet, players


def test_points_then_sie_decide_and_equals_share_a_rank(drawn, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    two, at_two = seated(drawn, 1, 2)
    sheet_service.approve(supervisor, one, 2, "sie")
    enter(supervisor, one, Game(2, Contract.SIE, 1, approved=True))  # seat 1: +24, Sie
    for n in range(1, 5):  # seat 1 of table 2: four Solos won, +24
        enter(supervisor, two, Game(n, Contract.SOLO, 1, suit=Suit.GRAS, result=Result.WON))
    result = standings.compute(drawn)
    ranks = {row.number: row.rank for row in result.rows}
    assert ranks[at_one[1]] == 1  # 24 points and a Sie (5.4.2 a)
    assert ranks[at_two[1]] == 2  # 24 points, four Solos won
    assert sorted(ranks[n] for n in list(at_one.values())[1:] + list(at_two.values())[1:]) == [3] * 6
    assert result.row(at_two[1]).values == {
        "points": 24,
        "sie": 0,
        "tout_won": 0,
        "tout_played": 0,
        "solo_won": 4,
        "solo_played": 4,
    }
    assert [len(group) for group in result.ties] == [6]


def test_match_standings_count_that_match_alone(drawn, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    two, at_two = seated(drawn, 2, 1)
    enter(supervisor, one, Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    enter(supervisor, two, Game(1, Contract.SOLO, 2, suit=Suit.HERZ, result=Result.LOST))
    first = standings.compute(drawn, match=1).row(at_one[1])
    assert first.values["points"] == 6
    second = standings.compute(drawn, match=2)
    assert second.row(at_two[2]).values["points"] == -6
    overall = standings.compute(drawn)
    assert sum(row.values["points"] for row in overall.rows) == 0


def test_generated_tournament_agrees_with_the_rules_engine(tournament, organiser):
    rng = random.Random(5)
    generator.add_participants(tournament, 16, rng)
    draw_service.draw_all(organiser, tournament, seed="gen")
    generator.fill_results(COMMAND_LINE, tournament, rng)
    expected: dict[int, list] = {}
    for sheet in Scoresheet.objects.filter(match__tournament=tournament):
        score = sheet_service.score(sheet)
        assert score.complete
        for seat in sheet.table.seats.all():
            points, tally = expected.get(seat.participant.number, [0, Tally()])
            expected[seat.participant.number] = [
                points + score.totals[seat.position - 1],
                tally + score.tallies[seat.position - 1],
            ]
    result = standings.compute(tournament)
    for row in result.rows:
        points, tally = expected[row.number]
        assert row.key == (points, *tally.as_tuple())
    keys = [row.key for row in result.rows]
    assert keys == sorted(keys, reverse=True)


def test_void_sheets_count_for_nothing(drawn, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    enter(supervisor, one, Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    assert standings.compute(drawn).row(at_one[1]).values["solo_won"] == 1
    signing.declare_void(supervisor, one, "unleserlich")  # 5.3.6
    assert standings.compute(drawn).row(at_one[1]).values == {
        "points": 0,
        "sie": 0,
        "tout_won": 0,
        "tout_played": 0,
        "solo_won": 0,
        "solo_played": 0,
    }


def test_lots_are_stored_reproducible_and_marked(drawn, organiser):
    lot = lots_service.draw_lots(organiser, drawn, seed="kirta")
    assert [len(g["members"]) for g in lot.groups] == [8]
    order = lot.groups[0]["members"]
    result = standings.compute(drawn)
    assert [row.number for row in result.rows] == order
    assert [row.rank for row in result.rows] == list(range(1, 9))
    assert all(row.by_lot for row in result.rows)
    again = lots_service.draw_lots(organiser, drawn, seed="kirta")
    assert again.groups[0]["members"] == order
    assert LotDraw.objects.count() == 2


def test_a_lot_whose_tie_has_changed_no_longer_applies(drawn, organiser, supervisor, enter):
    lots_service.draw_lots(organiser, drawn, seed="x")
    one, at_one = seated(drawn, 1, 1)
    enter(supervisor, one, Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    result = standings.compute(drawn)
    assert result.stale_lot
    assert not any(row.by_lot for row in result.rows)


def test_lots_only_for_prize_places(drawn, organiser, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    two, at_two = seated(drawn, 1, 2)
    enter(supervisor, one, Game(1, Contract.RUFER, 1, suit=Suit.GRAS, partner=2, result=Result.WON))
    enter(supervisor, two, Game(1, Contract.RUFER, 1, suit=Suit.GRAS, partner=2, result=Result.WON))
    drawn.prize_places = 2
    drawn.save()
    written_around_the_services(drawn)
    lot = lots_service.draw_lots(organiser, drawn, prize_places_only=True, seed="p")
    assert [sorted(g["members"]) for g in lot.groups] == [
        sorted([at_one[1], at_one[2], at_two[1], at_two[2]])
    ]
    ranks = sorted(row.rank for row in standings.compute(drawn).rows)
    assert ranks == [1, 2, 3, 4, 5, 5, 5, 5]


def test_no_tie_no_lot(tournament, organiser, supervisor):
    with pytest.raises(ServiceError):
        lots_service.draw_lots(organiser, tournament)


def test_only_the_organiser_draws_lots(drawn, referee):

    with pytest.raises(PermissionDenied):
        lots_service.draw_lots(referee, drawn)


def test_standings_command_csv_and_json(drawn, supervisor, enter):
    one, at_one = seated(drawn, 1, 1)
    enter(supervisor, one, Game(1, Contract.WENZ, 3, result=Result.WON, schneider=True))
    out = io.StringIO()
    call_command("standings", drawn.slug, "--format", "csv", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "rank,number,name,points,sie,tout_won,tout_played,solo_won,solo_played"
    first = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert first == {
        "rank": "1",
        "number": str(at_one[3]),
        "name": f"Spieler {at_one[3]:03d}",
        "points": "9",
        "sie": "0",
        "tout_won": "0",
        "tout_played": "0",
        "solo_won": "1",
        "solo_played": "1",
    }
    out = io.StringIO()
    call_command("standings", drawn.slug, "--match", "2", "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())
    assert len(rows) == 8 and set(rows[0]) == {
        "rank",
        "number",
        "name",
        "points",
        "sie",
        "tout_won",
        "tout_played",
        "solo_won",
        "solo_played",
    }
    assert {r["rank"] for r in rows} == {1}


def test_standings_command_errors(drawn):

    with pytest.raises(CommandError):
        call_command("standings", "nope")
    with pytest.raises(CommandError):
        call_command("standings", drawn.slug, "--match", "7")


# The public pages


def test_public_pages_need_no_login_and_refuse_writes(drawn, client):
    urls = [
        reverse("public:overview", args=[drawn.slug]),
        reverse("public:standings", args=[drawn.slug]),
        reverse("public:match_standings", args=[drawn.slug, 1]),
        reverse("public:participant", args=[drawn.slug, 1]),
        reverse("public:projector", args=[drawn.slug]),
        reverse("public:qr", args=[drawn.slug]),
        reverse("public:qr_svg", args=[drawn.slug]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url
        assert client.post(url, {"x": 1}).status_code == 405, url
    assert client.get(reverse("public:match_standings", args=[drawn.slug, 9])).status_code == 404
    assert client.get(reverse("public:participant", args=[drawn.slug, 99])).status_code == 404


def test_public_pages_hide_staff_data(drawn, client):

    Participant.objects.filter(number=1).update(birth_date=datetime.date(1961, 4, 2))
    for name, args in [
        ("public:standings", [drawn.slug]),
        ("public:participant", [drawn.slug, 1]),
        ("public:overview", [drawn.slug]),
    ]:
        text = client.get(reverse(name, args=args)).content.decode()
        assert "1961" not in text and "02.04." not in text
        assert "/manage/" not in text and "/referee/" not in text
        assert "geheimsaat" not in text  # the seed of the draw stays staff-only


def test_search_by_name_and_start_number_keeps_the_rank(drawn, client):
    url = reverse("public:standings", args=[drawn.slug])
    text = client.get(url, {"q": "spieler 005"}).content.decode()
    assert "Spieler 005" in text and "Spieler 004" not in text
    text = client.get(url, {"q": "7"}).content.decode()
    assert "Spieler 007" in text and "Spieler 001" not in text


def test_substitutes_are_shown_with_the_start_number(drawn, client):
    Substitution.objects.create(
        participant=Participant.objects.get(number=3), name="Aigner, Vroni", from_match=2
    )
    text = client.get(reverse("public:standings", args=[drawn.slug])).content.decode()
    assert "Spieler 003" in text and "Aigner, Vroni" in text


def test_running_tournament_polls_with_htmx(drawn, client, settings):
    settings.STANDINGS_FRESH_SECONDS = 0  # every result shows at once
    """Drawn, the tournament runs by itself (issue 14): its standings refresh."""
    url = reverse("public:standings", args=[drawn.slug])
    assert 'hx-trigger="every 30s"' in client.get(url).content.decode()
    drawn.status = "finished"  # set by hand
    drawn.save()
    assert "hx-trigger" not in client.get(url).content.decode()
    drawn.status = ""
    drawn.save()
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="standings"') and "<html" not in partial


def test_participant_page(drawn, supervisor, client, enter):
    one, at_one = seated(drawn, 1, 1)
    enter(supervisor, one, Game(1, Contract.SOLO, 1, suit=Suit.HERZ, result=Result.WON))
    enter(supervisor, one, Game(2, Contract.RUFER, 2, suit=Suit.EICHEL, partner=1, result=Result.LOST))
    text = client.get(reverse("public:participant", args=[drawn.slug, at_one[1]])).content.decode()
    assert "Durchgang 1: Tisch 1, Platz 1" in text
    assert 'class="circled">6<' in text and ">-1<" in text and ">5<" in text  # running total
    assert "Rang" in text


def test_qr_code_is_an_svg_of_the_public_address(drawn, client):
    response = client.get(reverse("public:qr_svg", args=[drawn.slug]))
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content
    page = client.get(reverse("public:qr", args=[drawn.slug])).content.decode()
    assert f"http://testserver/t/{drawn.slug}/" in page


def test_the_projector_sends_every_row_for_the_browser_to_page(tournament, client, add_players):
    add_players(tournament, 40)
    url = reverse("public:projector", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert page.count("<tr data-rank=") == 40 and "Spieler 040" in page
    assert 'data-seconds="15"' in page and "projector.js" in page
    assert 'data-page-label="Seite {page} von {pages}"' in page


@pytest.mark.parametrize("players", [16, 64])
def test_the_standings_page_takes_few_queries_whatever_the_size(
    client, django_assert_max_num_queries, players, settings, make_tournament
):
    tournament = make_tournament(f"q{players}")
    rng = random.Random(players)
    generator.add_participants(tournament, players, rng)

    draw_service.draw_all(COMMAND_LINE, tournament, seed="q")
    generator.fill_results(COMMAND_LINE, tournament, rng)
    Substitution.objects.create(participant=tournament.participants.first(), name="Ersatz", from_match=2)
    lots_service.draw_lots(COMMAND_LINE, tournament, seed="q") if standings.compute(tournament).ties else None
    with django_assert_max_num_queries(12):
        assert client.get(reverse("public:standings", args=[tournament.slug])).status_code == 200
    with django_assert_max_num_queries(12):
        assert (
            client.get(reverse("public:standings", args=[tournament.slug]), {"q": "Ersatz"}).status_code
            == 200
        )


def test_staff_standings_draw_lots(drawn, organiser, referee, client):
    url = reverse("organiser:standings", args=[drawn.slug])
    client.force_login(referee)
    page = client.get(url).content.decode()
    assert "Lose ziehen" not in page
    assert client.post(url, {"seed": "x"}).status_code == 403
    client.force_login(organiser)
    assert "1 Gruppe von Teilnehmern ist nach 5.4.2 noch gleich." in client.get(url).content.decode()
    client.post(url, {"seed": "fest"})
    assert LotDraw.objects.get().seed == "fest"
    text = client.get(url).content.decode()
    assert "Startwert fest" in text


def test_cached_standings_follow_every_kind_of_write(drawn, organiser, supervisor, enter):
    """Every service that changes what the standings read raises the results version."""

    def fresh():
        return [
            (r.rank, r.number, r.name, r.key, r.substitutes, r.by_lot)
            for r in standings._compute(drawn, None, True).rows
        ]

    def shown():
        return [
            (r.rank, r.number, r.name, r.key, r.substitutes, r.by_lot) for r in standings.compute(drawn).rows
        ]

    one, at_one = seated(drawn, 1, 1)
    writes = [
        lambda: enter(supervisor, one, Game(2, Contract.SIE, 1)),
        lambda: sheet_service.approve(supervisor, one, 2, "sie"),
        lambda: sheet_service.withdraw_approval(supervisor, one, 2),
        lambda: sheet_service.delete_entry(supervisor, one, 2, Scoresheet.objects.get(pk=one.pk).version),
        lambda: participant_service.add_participant(organiser, drawn, name="Neu, Hans"),
        lambda: participant_service.update_participant(
            organiser, Participant.objects.get(tournament=drawn, number=2), name="Umbenannt"
        ),
        lambda: substitutes.substitute(
            organiser, Participant.objects.get(tournament=drawn, number=3), "Ersatz", 2
        ),
        lambda: participant_service.set_status(
            organiser, drawn, [Participant.objects.get(tournament=drawn, number=9)], "withdrawn"
        ),
        lambda: lots_service.draw_lots(organiser, drawn, seed="c"),
        lambda: draw_service.draw_one(organiser, drawn, 2, seed="c2"),
    ]
    for write in writes:
        shown()  # fill the cache
        write()
        assert shown() == fresh()


def test_each_criterion_decides_in_turn_in_the_database(drawn):
    """Six participants on 10 points: a (Sie), b (Touts won), c (Touts played), d (Solos won)
    and e (Solos played) each decide one place (5.4.2, RULINGS 13)."""

    counts = {  # number: (points, sie, tout_won, tout_played, solo_won, solo_played)
        1: (10, 1, 0, 0, 0, 0),
        2: (10, 0, 2, 2, 0, 0),
        3: (10, 0, 1, 3, 0, 0),
        4: (10, 0, 1, 2, 5, 5),
        5: (10, 0, 1, 2, 4, 9),
        6: (10, 0, 1, 2, 4, 8),
        7: (-30, 0, 0, 0, 0, 0),
        8: (-30, 0, 0, 0, 0, 0),
    }
    for seat in Seat.objects.filter(match__tournament=drawn, match__number=1):
        values = counts[seat.participant.number]
        for field, value in zip(
            ("points", "sie", "tout_won", "tout_played", "solo_won", "solo_played"), values, strict=True
        ):
            setattr(seat, field, value)
        seat.save()
    written_around_the_services(drawn)
    result = standings.compute(drawn)
    assert [(row.rank, row.number) for row in result.rows] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
        (7, 8),
    ]


def test_the_csv_neutralises_formulas_in_names_and_keeps_numbers(tournament, add_players):
    """A spreadsheet would run a name that begins with = + - @ (issue 13)."""
    names = ['=HYPERLINK("http://x")', "+49 Huber", "-Maier", "@Sepp", "Brandl, Resi"]
    for number, name in enumerate(names, start=1):
        Participant.objects.create(tournament=tournament, number=number, name=name)
    out = io.StringIO()
    call_command("standings", tournament.slug, "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert sorted(row["name"] for row in rows) == sorted(
        ['\'=HYPERLINK("http://x")', "'+49 Huber", "'-Maier", "'@Sepp", "Brandl, Resi"]
    )
    assert all(row["points"] == "0" and row["rank"] == "1" for row in rows)
    out = io.StringIO()
    call_command("standings", tournament.slug, "--format", "json", stdout=out)
    assert {row["name"] for row in json.loads(out.getvalue())} == set(names)  # JSON is data: as it is


def test_a_participants_match_in_play_shows_a_total_so_far(drawn, referee, enter, sheet_of, client):
    from scoring import Contract, Game, Result, Suit

    sheet = sheet_of(drawn, 1, 1)
    enter(referee, sheet, Game(1, Contract.RUFER, 1, suit=Suit.EICHEL, partner=3, result=Result.WON))
    number = sheet.table.seats.get(position=1).participant.number
    page = client.get(reverse("public:participant", args=[drawn.slug, number])).content.decode()
    assert "Zwischenstand" in page and "Endstand" not in page  # 1 of 32 games: not the match total


def test_the_header_orders_by_its_columns_and_keeps_the_search(drawn, client):
    """The header cells as django-tables2 draws them (templatetags: standings_header): each
    column a link that orders by it, the search kept; the column ordered by is marked."""
    url = reverse("public:standings", args=[drawn.slug])
    page = client.get(url, {"q": "Spieler", "sort": "points"}).content.decode()
    head = page[page.index("<thead") : page.index("</thead>")]
    assert 'href="?q=Spieler&amp;sort=-points"' in head  # ordered by points: the next is descending
    assert 'href="?q=Spieler&amp;sort=name"' in head
    assert 'title="Punkte" class="asc orderable"><a href="?q=Spieler&amp;sort=-points">Pkt.</a>' in head
    english = client.get(url, {"sort": "-points"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    head = english[english.index("<thead") : english.index("</thead>")]
    assert 'class="desc orderable"><a href="?sort=points">Pts.</a>' in head


def test_the_public_overview_counts_the_ranked_not_the_no_shows(tournament, organiser, add_players, client):
    """Issue 28, item 10: two who did not come are on the list, never in the standings."""
    add_players(tournament, 18)
    tournament.participants.filter(number__in=[17, 18]).update(status=Participant.Status.NO_SHOW)
    draw_service.draw_one(COMMAND_LINE, tournament, 1, seed="ueberblick")
    ranked = len(standings.compute(tournament).rows)
    text = client.get(reverse("public:overview", args=[tournament.slug])).content.decode()
    assert ranked == 16 and "(16 Teilnehmer)" in text and "18 Teilnehmer" not in text


def test_every_ranking_says_provisional_while_sheets_are_unsigned(
    played, organiser, referee, sign, client, settings
):
    """Issue 28, item 2: the public overall, match and player pages and the staff standings
    say "vorläufig" with the count of unsigned sheets, per match where the page is a match's;
    once a match's sheets are all signed its page says it no more."""
    settings.STANDINGS_FRESH_SECONDS = 0  # visitors' pages follow each write at once
    slug = played.slug
    notice = "<strong>Vorläufig</strong> – %s Spiellisten sind noch nicht unterschrieben."

    def page(name, *args, user=None):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client.get(reverse(name, args=[slug, *args])).content.decode()

    assert notice % 6 in page("public:standings")
    assert notice % 3 in page("public:match_standings", 1)
    assert notice % 6 in page("public:participant", 1)
    assert notice % 6 in page("organiser:standings", user=organiser)
    for sheet in Scoresheet.objects.filter(match__tournament=played, match__number=1):
        sign(referee, sheet)
    assert "Vorläufig" not in page("public:match_standings", 1)
    assert notice % 3 in page("public:standings")
    assert notice % 3 in page("organiser:standings", user=organiser)


def test_the_page_of_one_who_did_not_come_says_so_not_that_nothing_is_drawn(
    tournament, organiser, add_players, client
):
    """The walk of issue 28: a no-show's page said "Noch ist kein Durchgang ausgelost"."""
    add_players(tournament, 17)
    tournament.participants.filter(number=17).update(status=Participant.Status.NO_SHOW)
    absent = client.get(reverse("public:participant", args=[tournament.slug, 17])).content.decode()
    assert "Noch ist kein Durchgang ausgelost." in absent
    draw_service.draw_one(COMMAND_LINE, tournament, 1, seed="fehlt")
    absent = client.get(reverse("public:participant", args=[tournament.slug, 17])).content.decode()
    assert "In keinem bisher ausgelosten Durchgang gesetzt (nicht erschienen)." in absent
    assert "Noch ist kein Durchgang ausgelost." not in absent
