"""Lots for teams still equal after their points and 5.4.2 counts (issue 17, RULINGS 13): drawn
by the organiser, seeded and reproducible, applied by the team standings while the tie stands
as drawn, shown on the pages, the PDF and the worksheet, and carried by the exchange document."""

import io
import json
import random

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.tournament.helpers import written_around_the_services
from tournament.errors import ServiceError
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import dumps, export_document
from tournament.models import LotDraw, Seat, Team, TeamLotDraw
from tournament.participants import teams as team_service
from tournament.printing.workbook import EXPORTERS
from tournament.standings import standings
from tournament.teams import standings as team_standings
from tournament.teams.lots import draw_team_lots
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db

POINTS = {1: 10, 2: 0, 3: 5, 4: 5, 5: 10, 6: 20, 7: -5, 8: -5}  # match 1, no count but points


def set_points(tournament, points):
    for seat in Seat.objects.filter(match__tournament=tournament, match__number=1).select_related(
        "participant"
    ):
        seat.points = points.get(seat.participant.number, 0)
        seat.save(update_fields=["points"])
    written_around_the_services(tournament)


def make_teams(tournament, plan):
    people = {p.number: p for p in tournament.participants.all()}
    teams = {}
    for name, numbers in plan:
        teams[name] = team_service.create_team(COMMAND_LINE, tournament, name)
        team_service.assign(COMMAND_LINE, tournament, teams[name], [people[n] for n in numbers])
    return teams


@pytest.fixture
def tied(drawn):
    """Au (1, 2), Berg (3, 4) and Dorf (5) have 10 points each, Eck (6) 20, Feld (7) and Gern
    (8) -5 each: two groups of tied teams, on rank 2 and rank 5."""
    set_points(drawn, POINTS)
    make_teams(
        drawn, (("Au", [1, 2]), ("Berg", [3, 4]), ("Dorf", [5]), ("Eck", [6]), ("Feld", [7]), ("Gern", [8]))
    )
    return drawn


def by_hand(names, seed):
    """The lot as scoring.ranking draws it, written out: the names sorted, shuffled by a random
    generator seeded with the seed and the names."""
    members = sorted(names)
    random.Random(f"{seed}|{'|'.join(members)}").shuffle(members)
    return members


def summary(tournament):
    return [
        (row.rank, row.name, row.values["points"], row.by_lot)
        for row in team_standings.compute(tournament).rows
    ]


def test_without_lots_the_tied_teams_share_their_ranks(tied):
    assert summary(tied) == [
        (1, "Eck", 20, False),
        (2, "Au", 10, False),
        (2, "Berg", 10, False),
        (2, "Dorf", 10, False),
        (5, "Feld", -5, False),
        (5, "Gern", -5, False),
    ]
    result = team_standings.compute(tied)
    assert [[row.name for row in group] for group in result.ties] == [
        ["Au", "Berg", "Dorf"],
        ["Feld", "Gern"],
    ]
    assert result.lot is None and not result.stale_lot


def test_the_lot_decides_each_tie_as_checked_by_hand(tied, organiser):
    lot = draw_team_lots(organiser, tied, seed="kirchweih")
    first, second = by_hand(["Au", "Berg", "Dorf"], "kirchweih"), by_hand(["Feld", "Gern"], "kirchweih")
    ids = dict(Team.objects.filter(tournament=tied).values_list("name", "id"))
    assert lot.seed == "kirchweih" and lot.drawn_by == organiser
    assert lot.groups == [
        {"key": [10, 0, 0, 0, 0, 0], "rank": 2, "members": [ids[n] for n in first]},
        {"key": [-5, 0, 0, 0, 0, 0], "rank": 5, "members": [ids[n] for n in second]},
    ]
    assert summary(tied) == [
        (1, "Eck", 20, False),
        (2, first[0], 10, True),
        (3, first[1], 10, True),
        (4, first[2], 10, True),
        (5, second[0], -5, True),
        (6, second[1], -5, True),
    ]
    result = team_standings.compute(tied)
    assert result.ties == [] and result.lot == lot and not result.stale_lot
    # the log names the seed and the drawn order; the individual lots are untouched
    line = tied.log.filter(action="lots.draw").first()
    assert line.data == {"teams": True, "seed": "kirchweih", "groups": [first, second]}
    assert not LotDraw.objects.filter(tournament=tied).exists()
    assert standings.compute(tied).lot is None


def test_the_same_seed_gives_the_same_order_and_a_new_draw_replaces_the_old(tied, organiser):
    one = draw_team_lots(organiser, tied, seed="gleich")
    two = draw_team_lots(organiser, tied, seed="gleich")
    assert one.groups == two.groups
    orders = set()
    for seed in ("a", "b", "c", "d", "e", "f", "g", "h"):
        draw_team_lots(organiser, tied, seed=seed)
        assert team_standings.compute(tied).lot.seed == seed  # the latest draw counts
        orders.add(tuple(row.name for row in team_standings.compute(tied).rows[1:4]))
    assert len(orders) > 1  # the seed matters
    random_seed = draw_team_lots(organiser, tied)  # no seed given: a new one, stored
    assert len(random_seed.seed) == 16 and TeamLotDraw.objects.filter(tournament=tied).count() == 11


def test_a_tie_changed_since_the_draw_shares_its_rank_again(tied, organiser):
    draw_team_lots(organiser, tied, seed="kirchweih")
    second = by_hand(["Feld", "Gern"], "kirchweih")
    set_points(tied, {**POINTS, 5: 11})  # Dorf now 11: Au and Berg tie without it
    result = team_standings.compute(tied)
    assert result.stale_lot
    assert summary(tied) == [
        (1, "Eck", 20, False),
        (2, "Dorf", 11, False),
        (3, "Au", 10, False),
        (3, "Berg", 10, False),
        (5, second[0], -5, True),  # this tie stands as drawn: the lot still decides it
        (6, second[1], -5, True),
    ]
    set_points(tied, POINTS)  # back as drawn: the lot decides again
    assert not team_standings.compute(tied).stale_lot
    assert [row.by_lot for row in team_standings.compute(tied).rows] == [False, True, True, True, True, True]
    team_service.delete_team(COMMAND_LINE, tied, Team.objects.get(tournament=tied, name="Gern"))
    result = team_standings.compute(tied)
    assert result.stale_lot and [(row.rank, row.name, row.by_lot) for row in result.rows][-1] == (
        5,
        "Feld",
        False,
    )
    # a new draw decides the ties as they are now
    draw_team_lots(organiser, tied, seed="neu")
    set_points(tied, {**POINTS, 5: 11})
    lot = draw_team_lots(organiser, tied, seed="neu")
    assert [len(group["members"]) for group in lot.groups] == [2]
    assert not team_standings.compute(tied).stale_lot


def test_no_tied_teams_no_lot(drawn, organiser, client):
    set_points(drawn, POINTS)
    make_teams(drawn, (("Au", [1, 2]), ("Eck", [6])))
    with pytest.raises(ServiceError):
        draw_team_lots(organiser, drawn, seed="x")
    client.force_login(organiser)
    url = reverse("organiser:team_lots", args=[drawn.slug])
    assert url not in client.get(reverse("organiser:teams", args=[drawn.slug])).content.decode()
    text = client.post(url, {"seed": "x"}, follow=True).content.decode()
    assert '<li class="error">' in text
    assert not TeamLotDraw.objects.exists()


def test_only_the_organiser_draws_team_lots(tied, referee, supervisor, foreign_organiser, organiser, client):
    for user in (referee, supervisor, foreign_organiser):
        with pytest.raises(PermissionDenied):
            draw_team_lots(user, tied, seed="x")
    url = reverse("organiser:team_lots", args=[tied.slug])
    client.force_login(supervisor)
    assert client.post(url, {"seed": "x"}).status_code == 403
    page = client.get(reverse("organiser:teams", args=[tied.slug])).content.decode()
    assert url not in page  # the tie is shown, the button is not
    assert not TeamLotDraw.objects.exists()
    client.force_login(organiser)
    page = client.get(reverse("organiser:teams", args=[tied.slug])).content.decode()
    assert url in page
    response = client.post(url, {"seed": "knopf"})
    assert response.status_code == 302 and response.url == reverse("organiser:teams", args=[tied.slug])
    assert TeamLotDraw.objects.get(tournament=tied).seed == "knopf"
    page = client.get(reverse("organiser:teams", args=[tied.slug])).content.decode()
    assert url not in page and "knopf" in page  # no tie left: no button; the seed shown
    client.post(url, {"seed": "noch"})  # drawn again, as the individual lots: the new draw counts
    assert team_standings.compute(tied).lot.seed == "noch" and TeamLotDraw.objects.count() == 2


def test_the_pages_the_pdf_and_the_worksheet_show_the_decided_order(tied, organiser, client):
    draw_team_lots(organiser, tied, seed="kirchweih")
    rows = team_standings.compute(tied).rows
    page = client.get(reverse("public:team_standings", args=[tied.slug])).content.decode()
    assert '<td class="num rank">2*</td>' in page and "kirchweih" in page
    positions = [page.index(f"<strong>{row.name}</strong>") for row in rows]
    assert positions == sorted(positions)
    client.force_login(organiser)
    pdf = client.get(reverse("organiser:team_rankings_doc", args=[tied.slug, "html"])).content.decode()
    assert '<td class="num">4*</td>' in pdf and "kirchweih" in pdf
    with translation.override("en"):
        _name, _mime, content = EXPORTERS["xlsx"].render(tied)
    sheet = list(load_workbook(io.BytesIO(content))["Teams"].iter_rows(values_only=True))
    assert sheet[0][-1] == "decided by lot"
    assert [(r[0], r[1], r[-1]) for r in sheet[1:] if r[1]] == [
        (row.rank, row.name, "yes" if row.by_lot else None) for row in rows
    ]


@pytest.fixture
def all_tied(drawn, organiser):
    """No game entered: Au, Berg, Dorf and Eck tie at 0, decided by the lot "export"."""
    make_teams(drawn, (("Au", [1, 2]), ("Berg", [3, 4]), ("Dorf", [5, 6]), ("Eck", [7, 8])))
    draw_team_lots(organiser, drawn, seed="export")
    return drawn


def test_the_lot_is_written_restored_and_written_the_same(all_tied):
    order = by_hand(["Au", "Berg", "Dorf", "Eck"], "export")
    document = export_document(all_tied)
    lots = {team["name"]: team["lot"] for team in document["teams"]}
    assert lots == {
        name: {"seed": "export", "rank": 1, "key": [0, 0, 0, 0, 0, 0], "order": order.index(name) + 1}
        for name in ("Au", "Berg", "Dorf", "Eck")
    }
    copy = import_plan(COMMAND_LINE, read_document(dumps(document), slug="kopie"))
    assert export_document(copy)["teams"] == document["teams"]
    assert [(r.rank, r.name, r.by_lot) for r in team_standings.compute(copy).rows] == [
        (index + 1, name, True) for index, name in enumerate(order)
    ]
    assert TeamLotDraw.objects.get(tournament=copy).seed == "export"


def test_a_group_with_a_deleted_team_is_not_written(all_tied):
    team_service.delete_team(COMMAND_LINE, all_tied, Team.objects.get(tournament=all_tied, name="Eck"))
    assert team_standings.compute(all_tied).stale_lot  # the three left share rank 1
    document = export_document(all_tied)
    assert all("lot" not in team for team in document["teams"])
    copy = import_plan(COMMAND_LINE, read_document(dumps(document), slug="kopie"))
    assert [(r.rank, r.name, r.by_lot) for r in team_standings.compute(copy).rows] == [
        (r.rank, r.name, r.by_lot) for r in team_standings.compute(all_tied).rows
    ]
    assert not TeamLotDraw.objects.filter(tournament=copy).exists()


def refused(document) -> list[str]:
    with pytest.raises(DocumentError) as error:
        read_document(json.dumps(document))
    return error.value.messages


def test_a_wrong_lot_is_refused_naming_the_team(all_tied):
    document = export_document(all_tied)
    teams = {team["name"]: team for team in document["teams"]}
    teams["Au"]["lot"] = {**teams["Au"]["lot"], "seed": "anders"}
    assert any("anders" in message and "export" in message for message in refused(document))
    teams["Au"]["lot"]["seed"] = "export"
    teams["Berg"]["lot"]["order"] = teams["Au"]["lot"]["order"]  # two teams on one place
    assert any("Berg" in message and "1" in message for message in refused(document))
    for order, name in enumerate(("Au", "Berg", "Dorf", "Eck"), start=1):
        teams[name]["lot"]["order"] = order
    read_document(json.dumps(document))  # another order, but a whole one
    del teams["Berg"]["lot"]
    messages = refused(document)  # places 1, 3 and 4 of three teams
    assert any(all(name in message for name in ("Au", "Dorf", "Eck")) for message in messages), messages
    teams["Berg"]["lot"] = {"seed": "export", "rank": 1, "key": [0, 0, 0, 0, 0, 0], "order": 2}
    read_document(json.dumps(document))  # whole again
    for wrong in (
        "x",
        {"seed": "export", "rank": 1, "key": ["a"], "order": 1},
        {"rank": 1, "key": [0], "order": 1},
    ):
        teams["Berg"]["lot"] = wrong
        assert any("Berg" in message for message in refused(document)), wrong
