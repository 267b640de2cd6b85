"""The Excel export: standings with the tie-break columns, every game, every scoresheet."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournament.helpers import written_around_the_services
from tournament.models import Participant, Scoresheet
from tournament.standings import standings

pytestmark = pytest.mark.django_db


def test_workbook_holds_standings_games_and_scoresheets(demo, tmp_path):
    target = tmp_path / "demo.xlsx"
    call_command("export_xlsx", demo.slug, "-o", str(target), stdout=io.StringIO())
    book = load_workbook(target)
    assert book.sheetnames[:4] == ["Gesamt", "Durchgang 1", "Durchgang 2", "Spiele"]
    assert len(book.sheetnames) == 4 + 8  # one worksheet per scoresheet
    overall = list(book["Gesamt"].iter_rows(values_only=True))
    assert overall[0][:10] == (
        "Rang",
        "Nr.",
        "Name",
        "Verein",
        "Punkte",
        "Sie gespielt",
        "Tout gewonnen",
        "Tout gespielt",
        "Solo/Wenz gewonnen",
        "Solo/Wenz gespielt",
    )
    expected = [(row.rank, row.number, *row.key) for row in standings.compute(demo).rows]
    assert [(r[0], r[1], *r[4:10]) for r in overall[1:]] == expected
    assert all(isinstance(v, int) for r in overall[1:] for v in r[4:10])  # values, not formulas
    games = list(book["Spiele"].iter_rows(values_only=True))
    assert len(games) == 1 + 256
    assert games[1][:5] == (
        1,
        1,
        1,
        "Gras-Solo-Tout, 2: gewonnen",
        "einfaches Solo/Wenz im ersten Spiel (5.2.15)",
    )
    sheet = list(book["D1 T1"].iter_rows(values_only=True))
    assert sheet[0][:3] == ("Spiel", "Gespielt", "Vermerk")
    assert sheet[1][2] == "einfaches Solo/Wenz im ersten Spiel (5.2.15)"  # as on the Games sheet
    assert sheet[-1][1] == "Endstand" and sum(sheet[-1][3:7]) == 0


def test_a_struck_game_says_so_on_its_tables_worksheet(played, referee, enter, sheet_of):
    """Points 0 0 0 0 alone do not tell why (issue 14, finding 14): the note says "gestrichen"."""
    from scoring import Contract, Game, Result, Suit
    from tournament.printing.workbook import TournamentWorkbook

    enter(referee, sheet_of(played, 1, 1), Game(5, Contract.SOLO_TOUT, 2, suit=Suit.GRAS, result=Result.WON),
          replace=True)  # fmt: skip
    _name, _mime, content = TournamentWorkbook().render(played)
    rows = list(load_workbook(io.BytesIO(content))["D1 T1"].iter_rows(values_only=True))
    (game,) = [row for row in rows if row[0] == 5]
    assert game[2] == "gestrichen (5.2.17)" and game[3:7] == (0, 0, 0, 0)


def test_a_formula_like_name_stays_text(demo, tmp_path):
    Participant.objects.filter(tournament=demo, number=1).update(
        name='=HYPERLINK("http://example.org","klick")', club="=1+1"
    )
    written_around_the_services(demo)
    target = tmp_path / "x.xlsx"
    call_command("export_xlsx", demo.slug, "-o", str(target), stdout=io.StringIO())
    sheet = load_workbook(target)["Gesamt"]
    cells = {row[1].value: row for row in sheet.iter_rows(min_row=2)}
    assert cells[1][2].value == '=HYPERLINK("http://example.org","klick")'
    assert cells[1][2].data_type == "s" and cells[1][3].data_type == "s"


def test_download_from_the_dashboard(demo, client, admin_user):
    client.force_login(admin_user)
    response = client.get(reverse("organiser:export_xlsx", args=[demo.slug]))
    assert response.status_code == 200
    assert load_workbook(io.BytesIO(response.content)).sheetnames[0] == "Gesamt"


def test_unknown_tournament():
    with pytest.raises(CommandError):
        call_command("export_xlsx", "nope", "-o", "/tmp/x.xlsx")


def test_control_characters_do_not_break_the_workbook(demo, tmp_path):
    Participant.objects.filter(tournament=demo, number=2).update(name="Hans\x01Maier")
    written_around_the_services(demo)
    target = tmp_path / "x.xlsx"
    call_command("export_xlsx", demo.slug, "-o", str(target), stdout=io.StringIO())
    names = [row[2] for row in load_workbook(target)["Gesamt"].iter_rows(values_only=True)]
    assert "HansMaier" in names


def test_a_void_sheet_is_marked_in_the_workbook(demo, tmp_path):
    """5.3.6: its games count for nothing in the standings, and every row of it says why."""

    sheet = Scoresheet.objects.get(match__tournament=demo, match__number=1, table__number=2)
    sheet.status, sheet.void_reason = Scoresheet.Status.VOID, "Liste unleserlich"
    sheet.save()
    written_around_the_services(demo)
    target = tmp_path / "void.xlsx"
    call_command("export_xlsx", demo.slug, "-o", str(target), stdout=io.StringIO())
    book = load_workbook(target)
    notes = {(r[0], r[1]): r[4] for r in book["Spiele"].iter_rows(min_row=2, values_only=True)}
    assert notes[(1, 2)] == "Spielliste ungültig (5.3.6)"
    assert notes[(1, 1)] != "Spielliste ungültig (5.3.6)"
    rows = list(book["D1 T2"].iter_rows(values_only=True))
    assert rows[-2][1] == "Endstand" and rows[-1][1] == "Spielliste ungültig (5.3.6): Liste unleserlich"


def test_the_workbook_reads_the_same_few_queries_whatever_the_size(
    make_tournament, django_assert_num_queries
):
    """One plain query per kind and batch of sheets, not one per sheet or seat (the workbook of
    2,000 players is measured by make bench)."""
    import random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament.demo import generator
    from tournament.draw import services as draw_service
    from tournament.models import Substitution
    from tournament.printing.workbook import TournamentWorkbook
    from tournament.tournaments.permissions import COMMAND_LINE

    counts = []
    for players in (12, 60):
        tournament = make_tournament(f"xlsx-{players}")
        generator.add_participants(tournament, players, random.Random(players))
        draw_service.draw_all(COMMAND_LINE, tournament, seed="x")
        generator.fill_results(COMMAND_LINE, tournament, random.Random(players))
        Substitution.objects.create(participant=tournament.participants.first(), name="Ersatz", from_match=2)
        with CaptureQueriesContext(connection) as queries:
            TournamentWorkbook().render(tournament)
        counts.append(len(queries))
    # 31: the standings count their unsigned sheets ("vorläufig", issue 28 item 2); 33: and read
    # the stored totals' fingerprint, two grouped queries (issue 27, item 9)
    assert counts[0] == counts[1] and counts[0] <= 33, counts


def test_progress_counts_the_worksheets_as_they_are_written(demo):
    """A background job shows a progress bar from it; without it the export is unchanged."""
    from tournament.printing.workbook import EXPORTERS, TournamentWorkbook

    calls = []
    _name, _mime, content = TournamentWorkbook().render(demo, progress=lambda *a: calls.append(a))
    total = len(load_workbook(io.BytesIO(content)).sheetnames)
    assert calls == [(done, total) for done in range(1, total + 1)]
    _name, mime, content = EXPORTERS["xlsx"].render(demo)
    assert mime.endswith("spreadsheetml.sheet")
    assert len(load_workbook(io.BytesIO(content)).sheetnames) == total
