"""The series' public page, PDF, workbook and command; the register and series pages."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tournament.models import LogEntry, Participant, Person, Series, StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def qualifying_cup(cup):
    cup.min_attendances, cup.qualify_top, cup.counting, cup.best_of = 2, 2, "best", 2
    cup.save()
    return cup


def test_the_public_page_shows_the_standings_without_log_in(client, qualifying_cup):
    page = client.get(reverse("series:standings", args=["cup"]))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index("Carl C") < text.index("Bert B") < text.index("Anna A") < text.index("Fritz F")
    assert text.count('class="qualified"') == 2
    assert "(-20)" in text  # Anna's third result does not count
    assert 'name="viewport"' in text and "table-container" in text
    assert client.get(reverse("series:standings", args=["nichts"])).status_code == 404
    assert "Wirtshaus-Cup" in client.get(reverse("series:list")).content.decode()


def test_the_pdf_holds_the_standings(client, manager, qualifying_cup):
    client.force_login(manager)
    response = client.get(reverse("series:document", args=["cup", "pdf"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for expected in ("Wirtshaus-Cup", "Carl C", "Bert B", "Anna A", "Dora D", "60", "(-20)"):
        assert expected in text
    assert client.get(reverse("series:document", args=["cup", "html"])).status_code == 200
    assert client.get(reverse("series:document", args=["cup", "doc"])).status_code == 404


def test_the_workbook_holds_the_standings(client, manager, qualifying_cup):
    client.force_login(manager)
    response = client.get(reverse("series:xlsx", args=["cup"]))
    book = load_workbook(io.BytesIO(response.content), read_only=True)
    rows = list(book.worksheets[0].values)
    assert rows[1][:8] == (1, None, "Carl C", "SK Au", 3, 60, 65, rows[1][7])
    assert rows[1][7] and rows[3][7] is None  # Carl qualified, Anna not
    assert rows[3][8:11] == (30, 10, -20) and rows[3][11] == "t3: -20"
    assert [row[2] for row in rows[4:]] == ["Fritz F", "Emil E", "Dora D"] and rows[4][0] is None
    assert len(book.worksheets) == 3


def test_the_command_writes_csv_and_json(qualifying_cup):
    out = io.StringIO()
    call_command("series_standings", "cup", "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert list(rows[0]) == ["rank", "number", "name", "club", "attendances", "counted", "total", "qualified"]
    assert [(r["rank"], r["name"], r["counted"], r["total"], r["qualified"]) for r in rows] == [
        ("1", "Carl C", "60", "65", "true"),
        ("2", "Bert B", "60", "60", "true"),
        ("3", "Anna A", "40", "20", "false"),
        ("", "Fritz F", "-30", "-30", "false"),
        ("", "Emil E", "-55", "-55", "false"),
        ("", "Dora D", "-60", "-60", "false"),
    ]
    out = io.StringIO()
    call_command("series_standings", "cup", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert data[2]["name"] == "Anna A" and data[2]["results"][2] == {
        "tournament": "t3",
        "points": -20,
        "counted": False,
    }
    assert data[3]["rank"] is None
    with pytest.raises(CommandError):
        call_command("series_standings", "nichts")


def test_the_organiser_takes_players_from_the_register_on_the_page(client, organiser, tournament):
    Person.objects.create(name="Anna Alt", club="SK Au")
    Person.objects.create(name="Bert Bauer")
    client.force_login(organiser)
    url = reverse("organiser:take_participants", args=[tournament.slug])
    page = client.get(url, {"q": "anna"})
    assert "Anna Alt" in page.content.decode() and "Bert Bauer" not in page.content.decode()
    ids = list(Person.objects.values_list("pk", flat=True))
    response = client.post(url, {"persons": ids})
    assert response.status_code == 302
    assert sorted(tournament.participants.values_list("name", flat=True)) == ["Anna Alt", "Bert Bauer"]
    client.post(url, {"persons": ids}, follow=True)
    assert tournament.participants.count() == 2  # the second time both are skipped


def test_the_organiser_takes_players_from_his_earlier_tournament(
    client, organiser, tournament, make_tournament
):
    earlier = make_tournament("vorjahr")
    StaffRole.objects.create(tournament=earlier, user=organiser, role=StaffRole.Role.ORGANISER)
    source = Participant.objects.create(tournament=earlier, number=4, name="Sepp Huber")
    client.force_login(organiser)
    url = reverse("organiser:take_participants", args=[tournament.slug])
    assert "Sepp Huber" in client.get(url, {"from": "vorjahr"}).content.decode()
    client.post(url, {"from": "vorjahr", "participants": [source.pk]})
    assert list(tournament.participants.values_list("number", "name")) == [(1, "Sepp Huber")]


def test_adding_to_the_register_needs_the_register_permission(
    client, organiser, manager, tournament, add_players
):
    add_players(tournament, 4)
    url = reverse("organiser:add_to_register", args=[tournament.slug])
    client.force_login(organiser)
    assert client.post(url).status_code == 403
    StaffRole.objects.create(tournament=tournament, user=manager, role=StaffRole.Role.ORGANISER)
    client.force_login(manager)
    assert client.post(url).status_code == 302
    assert Person.objects.count() == 4


def test_a_manager_creates_a_series_and_attaches_a_tournament(client, manager, tournament):
    client.force_login(manager)
    response = client.post(
        reverse("series:create"),
        {"name": "Landkreis-Cup", "slug": "lk-cup", "counting": "best", "best_of": "", "min_attendances": 0},
    )
    assert response.status_code == 200 and not Series.objects.exists()  # best of how many?
    client.post(
        reverse("series:create"),
        {"name": "Landkreis-Cup", "slug": "lk-cup", "counting": "best", "best_of": 3, "min_attendances": 2},
    )
    series = Series.objects.get(slug="lk-cup")
    client.post(reverse("series:manage", args=["lk-cup"]), {"attach": "1", "tournament": tournament.pk})
    assert Tournament.objects.get(pk=tournament.pk).series == series
    assert LogEntry.objects.filter(tournament=tournament, action="series.attach").exists()
    client.post(reverse("series:manage", args=["lk-cup"]), {"detach": tournament.slug})
    assert Tournament.objects.get(pk=tournament.pk).series is None
    assert (
        client.post(
            reverse("series:create"),
            {"name": "X", "slug": "register", "counting": "all", "min_attendances": 0},
        ).status_code
        == 200
    )


def test_a_new_series_without_a_short_name_takes_one_from_its_name(client, manager):
    """Walk: a tournament's and an organisation's short name are made from the name when left
    empty; a series' was required ("Dieses Feld ist zwingend erforderlich")."""
    client.force_login(manager)
    page = client.get(reverse("series:create")).content.decode()
    assert "Leer: aus dem Namen gebildet." in page
    fields = {"slug": "", "counting": "all", "min_attendances": 0}
    for _ in range(2):
        client.post(reverse("series:create"), {**fields, "name": "Dachauer Wirtshaus-Cup"})
    assert sorted(Series.objects.values_list("slug", flat=True)) == [
        "dachauer-wirtshaus-cup",
        "dachauer-wirtshaus-cup-2",
    ]
    client.post(reverse("series:create"), {**fields, "name": "Players"})
    assert Series.objects.filter(slug="players-2").exists()  # /series/players/ is the site's own
    series = Series.objects.get(slug="dachauer-wirtshaus-cup")
    page = client.post(reverse("series:manage", args=[series.slug]), {**fields, "name": "Cup"})
    assert page.status_code == 200 and Series.objects.filter(slug="dachauer-wirtshaus-cup").exists()  # kept


def test_the_organiser_puts_his_tournament_into_a_series(client, organiser, tournament, foreign_organiser):
    series = Series.objects.create(name="Cup", slug="cup")
    url = reverse("organiser:tournament_series", args=[tournament.slug])
    client.force_login(foreign_organiser)
    assert client.post(url, {"series": series.pk}).status_code == 403
    client.force_login(organiser)
    client.post(url, {"series": series.pk})
    assert Tournament.objects.get(pk=tournament.pk).series == series
    assert client.get(reverse("series:manage", args=["cup"])).status_code == 403  # not a manager


def test_a_manager_changes_the_rule_and_sees_the_register(client, manager, cup):
    client.force_login(manager)
    fields = {"name": "Wirtshaus-Cup", "slug": "cup", "counting": "best", "best_of": 2, "min_attendances": 2}
    response = client.post(reverse("series:manage", args=["cup"]), {**fields, "save": "1", "qualify_top": 1})
    assert response.status_code == 302
    cup.refresh_from_db()
    assert (cup.counting, cup.best_of, cup.min_attendances, cup.qualify_top) == ("best", 2, 2, 1)
    page = client.get(reverse("series:register"), {"q": "carl"}).content.decode()
    assert "Carl C" in page and "Anna A" not in page
    manage = client.get(reverse("series:manage", args=["cup"])).content.decode()
    assert "Turnier t1" in manage and "Turnier t3" in manage
