"""Tables of five in the exchange format (issue 18): five start numbers in `seats`, seats 1–5 in
the games, five numbers in `points` with the sitting-out dealer's 0, 40 games, five signatures;
the demo with a table of five; refusals that name table, game and field."""

import io
import json
import random
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Contract, Game, Result, Sanction, Suit, Transcribed
from scoring.entries import dealer, playing
from tests.tournament.exchange.documents import contents, damage, recompute, table_of
from tournament.demo import generator
from tournament.draw import services as draw_service
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import export_document
from tournament.models import GameEntry, Scoresheet, Table, Tournament
from tournament.results import services as sheet_service
from tournament.results import signing
from tournament.results.document import sheet_digest
from tournament.standings import standings
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def five_sheet(tournament, match):
    return Scoresheet.objects.select_related("table", "match__tournament").get(
        match__tournament=tournament, match__number=match, table__size=5
    )


def assert_dealer_sits_out(document):
    """At every table of five the dealer of each game scores 0 and is nobody in it."""
    fives = 0
    for match in document["matches"]:
        for table in match["tables"]:
            if len(table["seats"]) != 5:
                assert all(len(g["points"]) == 4 for g in table["games"])
                continue
            fives += 1
            for game in table["games"]:
                out = dealer(game["game"], 5)
                assert len(game["points"]) == 5 and game["points"][out - 1] == 0, game
                assert sum(game["points"]) == 0, game
                named = game.get("sanction", game)
                assert out not in {named.get(k) for k in ("declarer", "partner", "liable")}, game
    return fives


@pytest.fixture
def cup(tournament, referee, supervisor):
    """21 participants (four tables of four and one of five in each match), every sheet filled;
    at the table of five of match 1 two copied paper rows and two sanctions, at that of match 2
    five signatures and a correction."""
    rng = random.Random(18)
    generator.add_participants(tournament, 21, rng)
    draw_service.draw_all(COMMAND_LINE, tournament, seed="fuenf")
    generator.fill_results(COMMAND_LINE, tournament, rng)
    sheet = five_sheet(tournament, 1)
    stored = {e.number: e for e in sheet.entries.all()}
    rufer = [n for n, e in sorted(stored.items()) if n > 1 and e.kind == "game" and e.contract == "rufer"]
    solo = [n for n, e in sorted(stored.items()) if e.contract == "solo" and not e.struck and n > 1]
    a, b, _c, d = playing(rufer[2], 5)
    w, _x, y, _z = playing(rufer[3], 5)
    for entry in (
        Transcribed(rufer[0], stored[rufer[0]].points, None),  # an uncircled Sauspiel row
        Transcribed(solo[0], stored[solo[0]].points, stored[solo[0]].declarer),  # a circled soloist
        Sanction(rufer[2], Contract.RUFER, a, d, partner=b),
        Sanction(rufer[3], Contract.SOLO, y, w),
    ):
        sheet.refresh_from_db()
        sheet_service.save_entry(supervisor, sheet, entry, sheet.version, replace=True)
    signed = five_sheet(tournament, 2)
    return tournament, sheet, signed


def test_round_trip_with_a_table_of_five(cup, referee, supervisor, sign):
    tournament, sheet, signed = cup
    sign(referee, signed, positions=(1, 2, 3, 4, 5))
    assert signed.status == "signed"
    # game 2 is dealt by seat 2, who sits it out: seats 1 and 3 play the Sauspiel
    signing.correct(
        supervisor,
        signed,
        Game(2, Contract.RUFER, 1, suit=Suit.GRAS, partner=3, result=Result.WON),
        "Zahlendreher",
    )
    signed.refresh_from_db()
    assert sheet_digest(signed) == signed.digest

    document = json.loads(json.dumps(export_document(tournament)))  # as a file gives it
    assert assert_dealer_sits_out(document) == 2
    (table,) = [t for t in document["matches"][0]["tables"] if len(t["seats"]) == 5]
    assert table["number"] == 5 and len(table["games"]) == 40
    kinds = {("sanction" in g, "contract" in g) for g in table["games"]}
    assert {(True, False), (False, False), (False, True)} <= kinds  # sanctions, rows, games
    rows = [g for g in table["games"] if "sanction" not in g and "contract" not in g]
    assert len(rows) == 2 and all(len(g["points"]) == 5 for g in rows)
    (written,) = [t for t in document["matches"][1]["tables"] if len(t["seats"]) == 5]
    assert [s["position"] for s in written["signatures"]] == [1, 2, 3, 4, 5]
    assert len(written["signed_as"]["seats"]) == 5
    assert recompute(2, written) == written["digest"] == signed.digest

    copy = import_plan(COMMAND_LINE, read_document(json.dumps(document), slug="kopie"))
    assert table_of(copy) == table_of(tournament)
    assert contents(copy) == contents(tournament)
    assert (
        sorted(Table.objects.filter(match__tournament=copy).values_list("size", flat=True))
        == [4] * 8 + [5] * 2
    )
    restored = five_sheet(copy, 2)
    assert restored.status == "signed" and restored.digest == signed.digest
    assert sheet_digest(restored) == restored.digest  # verifies after import
    (correction,) = restored.corrections
    assert correction.reason == "Zahlendreher"
    again = export_document(copy)
    assert [m["tables"] for m in again["matches"]] == [m["tables"] for m in document["matches"]]


def test_the_five_seat_demo_loads_and_keeps_its_rules():
    tournament = import_plan(COMMAND_LINE, read_document((FIXTURES / "demo-five.json").read_bytes()))
    assert tournament.participants.count() == 21 and tournament.rules.tables_of_five
    sizes = list(Table.objects.filter(match__tournament=tournament).order_by("match__number", "number"))
    assert [t.size for t in sizes] == [4, 4, 4, 4, 5] * 2  # the table of five numbered last
    for sheet in Scoresheet.objects.filter(match__tournament=tournament).select_related("table", "match"):
        score = sheet_service.score(sheet)
        assert score.complete and not score.problems, sheet
        assert len(score.rows) == (40 if sheet.size == 5 else 32)
        assert all(r.checksum == 0 and r.complete for r in score.rounds)
    entries = GameEntry.objects.filter(scoresheet__match__tournament=tournament, scoresheet__table__size=5)
    assert entries.filter(kind="transcribed").count() == 2 and entries.filter(kind="sanction").count() == 2
    signed = five_sheet(tournament, 2)
    assert signed.status == "signed" and signed.signatures.count() == 5
    assert sheet_digest(signed) == signed.digest
    document = json.loads(json.dumps(export_document(tournament)))
    assert assert_dealer_sits_out(document) == 2
    rows = standings.compute(tournament).rows
    assert sum(row.values["points"] for row in rows) == 0
    # each of the five deals 8 of the 40 games and plays the other 32, as at a table of four
    for table in (t for m in document["matches"] for t in m["tables"] if len(t["seats"]) == 5):
        dealt = [dealer(g["game"], 5) for g in table["games"]]
        assert all(dealt.count(seat) == 8 for seat in range(1, 6))
    copy = import_plan(COMMAND_LINE, read_document(json.dumps(document), slug="zurueck"))
    assert table_of(copy) == table_of(tournament)
    assert contents(copy) == contents(tournament)


def test_load_demo_loads_the_table_of_five_too():
    call_command("load_demo", stdout=io.StringIO())
    demo = Tournament.objects.get(slug="pokal-2026")
    assert Table.objects.filter(match__tournament=demo, size=5).count() == 2


@pytest.mark.parametrize(("players", "fives"), [(21, 1), (105, 1), (22, 2), (10, 2)])
def test_generated_tournaments_with_tables_of_five_are_valid(players, fives):
    out = io.StringIO()
    call_command(
        "generate_tournament",
        "--players",
        str(players),
        "--slug",
        "gen",
        "--seed",
        "5",
        "--results",
        stdout=out,
    )
    tournament = Tournament.objects.get(slug="gen")
    tables = Table.objects.filter(match__tournament=tournament)
    assert tables.filter(size=5).count() == 2 * fives
    assert tables.filter(size=4).count() == 2 * (players - 5 * fives) // 4
    sheets = Scoresheet.objects.filter(match__tournament=tournament).select_related(
        "table", "match__tournament"
    )
    for sheet in sheets:
        score = sheet_service.score(sheet)
        assert score.complete and not score.problems
        assert len(score.rows) == tournament.rules.games_for(sheet.size)
        assert all(r.checksum == 0 for r in score.rounds)
        assert sheet.status == "complete"
    document = export_document(tournament)
    assert assert_dealer_sits_out(document) == 2 * fives
    for participant in tournament.participants.all():
        assert participant.seats.count() == 2  # everyone once in each match
    assert sum(row.values["points"] for row in standings.compute(tournament).rows) == 0


def test_generator_refusals():
    for players in ("7", "11"):
        with pytest.raises(CommandError, match="tables of four and five"):
            call_command("generate_tournament", "--players", players, "--slug", "x")
    with pytest.raises(CommandError, match="do not fill tables of four"):
        call_command("generate_tournament", "--players", "21", "--slug", "x", "--only-fours")
    assert not Tournament.objects.exists()


def five_seats(**changes):
    """A small valid document: 5 participants at one table of five, four games. Seat 1 deals
    game 1 and sits it out, seat 2 game 2, …"""
    games = [
        {"game": 1, "contract": "rufer", "suit": "eichel", "declarer": 2, "partner": 4, "result": "won"},
        {"game": 2, "contract": "solo", "suit": "herz", "declarer": 5, "declarer_points": 95},
        {"game": 3, "points": [6, -2, 0, -2, -2], "declarer": 1},
        {"game": 4, "sanction": {"contract": "rufer", "declarer": 1, "partner": 2, "liable": 3}},
    ]
    document = {
        "format": "schafkopf-tournament/1",
        "tournament": {
            "name": "Fünf",
            "date": "2026-11-21",
            "venue": "Post",
            "rules": {"profile": "schafkopfschule-2007"},
        },
        "participants": [{"number": n, "name": f"Spieler {n}"} for n in range(1, 7)],
        "matches": [{"number": 1, "tables": [{"number": 1, "seats": [1, 2, 3, 4, 5], "games": games}]}],
    }
    for path, value in changes.items():
        target = document
        *parts, last = path.split("/")
        for part in parts:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value
    return json.dumps(document)


def test_a_table_of_five_imports_with_its_points():
    tournament = import_plan(COMMAND_LINE, read_document(five_seats()))
    sheet = Scoresheet.objects.select_related("table").get(match__tournament=tournament)
    assert sheet.table.size == 5
    points = [e.points for e in sheet.entries.order_by("number")]
    assert points == [(0, 1, -1, 1, -1), (-3, 0, -3, -3, 9), (6, -2, 0, -2, -2), (2, 2, -4, 0, 0)]
    assert [s.points for s in sheet.table.seats.order_by("position")] == [5, 1, -8, -4, 6]


GAME_3 = "matches/0/tables/0/games/2"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"matches/0/tables/0/seats": [1, 2, 3, 4, 5, 6]},
            "Match 1, table 1: a table has four or five seats, not 6.",
        ),
        (
            {GAME_3: {"game": 3, "contract": "wenz", "declarer": 6, "result": "won"}},
            "Match 1, table 1, game 3: declarer: seat 6 does not exist (seats are 1 to 5).",
        ),
        (
            {GAME_3: {"game": 3, "contract": "wenz", "declarer": 3, "result": "won"}},
            "Match 1, table 1, game 3: Seat 3 dealt game 3 and sits it out: he cannot be its declarer.",
        ),
        (
            {
                GAME_3: {
                    "game": 3,
                    "contract": "rufer",
                    "suit": "gras",
                    "declarer": 1,
                    "partner": 3,
                    "result": "won",
                }
            },
            "Match 1, table 1, game 3: Seat 3 dealt game 3 and sits it out: he cannot be its partner.",
        ),
        (
            {GAME_3: {"game": 3, "sanction": {"contract": "solo", "declarer": 1, "liable": 3}}},
            "Match 1, table 1, game 3: Seat 3 dealt game 3 and sits it out: he cannot be its liable player.",
        ),
        (
            {f"{GAME_3}/points": [6, -2, -2, -2]},
            "Match 1, table 1, game 3: Enter five whole numbers, one per seat, the dealer's 0 included.",
        ),
        (
            {f"{GAME_3}/points": [6, -2, -2, 0, -2]},
            "Match 1, table 1, game 3: Seat 3 dealt game 3 and sits it out: his number is 0, not -2.",
        ),
        (
            {f"{GAME_3}/points": [6, -2, 0, -2, -1]},
            "Match 1, table 1, game 3: The five numbers sum to 1, not 0.",
        ),
        (
            {"matches/0/tables/0/games/0/points": [0, 1, -1, 1]},
            "Match 1, table 1, game 1: Enter five whole numbers, one per seat, the dealer's 0 included.",
        ),
        (
            {"matches/0/tables/0/games/0/points": [0, 2, -2, 2, -2]},
            "Match 1, table 1, game 1: the five points [0, 2, -2, 2, -2] differ from the points of the "
            "game as described, [0, 1, -1, 1, -1].",
        ),
        (
            {f"{GAME_3}/game": 41},
            "Match 1, table 1: The game number must be a whole number 1–40, not 41.",
        ),
        (
            {f"{GAME_3}/declarer": "5"},
            'Match 1, table 1, game 3: declarer must be a seat 1–5, not "5".',
        ),
        (
            {"tournament/rules/tables_of_five": False},
            "Match 1, table 1: the table seats five, but the rules allow no tables of five",
        ),
        (
            {"matches/0/tables/0/scorekeeper": 6},
            "Match 1, table 1: The scorekeeper's seat must be a whole number 1–5, not 6.",
        ),
        (
            {GAME_3: {"game": 3}},
            "Match 1, table 1, game 3: a game needs a contract, a sanction or the five points.",
        ),
    ],
)
def test_broken_tables_of_five_are_refused_naming_table_game_and_field(change, expected):
    with translation.override("en"), pytest.raises(DocumentError) as refused:
        read_document(five_seats(**change))
    assert any(m.startswith(expected) for m in refused.value.messages), refused.value.messages


def test_games_33_to_40_belong_to_a_table_of_five_only():
    more = [
        {
            "game": n,
            "contract": "rufer",
            "suit": "eichel",
            "declarer": n % 5 + 1,
            "partner": (n + 1) % 5 + 1,
            "result": "won",
        }
        for n in range(33, 41)
    ]
    document = json.loads(five_seats())
    document["matches"][0]["tables"][0]["games"] += more
    plan = read_document(json.dumps(document))
    assert [len(t.entries) for t in plan.tables] == [12]
    document["matches"][0]["tables"][0]["seats"] = [1, 2, 3, 4]
    document["matches"][0]["tables"][0]["games"] = more
    with translation.override("en"), pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document))
    assert "Match 1, table 1: The game number must be a whole number 1–32, not 33." in refused.value.messages


def test_a_signed_table_of_five_needs_five_signatures(cup, referee, sign):
    tournament, _sheet, signed = cup
    sign(referee, signed, positions=(1, 2, 3, 4, 5))
    document = export_document(tournament)
    (table,) = [t for t in document["matches"][1]["tables"] if len(t["seats"]) == 5]
    where = f"Match 2, table {table['number']}: "
    fifth = table["signatures"].pop()
    with translation.override("en"), pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document))
    assert (
        where + "a signed scoresheet has the five signatures of its seats (5.3.2)." in refused.value.messages
    )
    table["signatures"].append({**fifth, "position": 6})
    with translation.override("en"), pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document))
    sixth = f"Match 2, table {table['number']}, signature 5: The seat must be a whole number 1–5, not 6."
    assert sixth in refused.value.messages
    table["signatures"][-1] = fifth
    table["games"][6]["points"] = table["games"][6]["points"][:4]  # changed after signing
    with translation.override("en"), pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document))
    assert any(
        m.startswith(f"Match 2, table {table['number']}, game 7: Enter five") for m in refused.value.messages
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 45) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_damage_to_a_table_of_five_is_refused_without_a_traceback(data):
    document = json.loads(five_seats())
    table = document["matches"][0]["tables"][0]
    table["signatures"] = [
        {"position": n, "name": f"Spieler {n}", "method": "pad", "signed_at": "2026-11-21T18:00:00+00:00"}
        for n in range(1, 6)
    ]
    damage(document, data, json_values)
    try:
        plan = read_document(json.dumps(document))
    except DocumentError as error:
        assert error.messages and all(isinstance(m, str) and m for m in error.messages)
    else:
        assert all(len(t.seats) in (4, 5) for t in plan.tables)


def test_a_late_substitute_at_a_table_of_five_survives_the_round_trip(cup, organiser):
    """A substitute may take over in games 33–40 at a table of five only (participants.services
    .substitute); the backup keeps him, and a document claiming it at a table of four is refused."""
    from tournament.results.substitutes import substitute

    tournament, sheet, _signed = cup
    late = sheet.table.seats.get(position=2).participant
    substitute(organiser, late, "Spät, Sepp", 1, 36)
    document = json.loads(json.dumps(export_document(tournament)))
    (item,) = document["substitutions"]
    assert (item["number"], item["from_match"], item["from_game"]) == (late.number, 1, 36)
    copy = import_plan(COMMAND_LINE, read_document(json.dumps(document), slug="spaet"))
    assert copy.participants.get(number=late.number).player_name(1, 36) == "Spät, Sepp"
    four = [t for t in document["matches"][0]["tables"] if len(t["seats"]) == 4][0]
    item["number"] = four["seats"][0]
    with pytest.raises(DocumentError) as refused:
        read_document(json.dumps(document))
    assert any("sitzt in Durchgang 1 an keinem Fünfertisch: Spiel 36" in m for m in refused.value.messages)
