"""One number of prize places (issue 28, item 5): the prize list's declared places once there is
one, the edit page's setting otherwise; the certificates, the projector's highlight and the lots
follow it, and the pages say which it is."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from tournament.prizes import services
from tournament.prizes.reckoning import Line
from tournament.standings import lots, standings
from tournament.tournaments.prize_places import prize_places

pytestmark = pytest.mark.django_db

EIGHT_MIDDLE_LAST = [
    Line(1, "range", 1, 8, "amount", Decimal(5)),
    Line(2, "middle", kind="goods", goods="Brotzeit"),
    Line(3, "last", kind="goods", goods="Holzlöffel"),
]


def declare(user, tournament, lines):
    values = {
        "entry_fee": Decimal(10),
        "charity_per_entry": Decimal(0),
        "charity_name": "",
        "payout_percent": Decimal(100),
    }
    return services.declare(user, tournament, values, lines)


def test_without_a_prize_list_the_setting_counts(played):
    places = prize_places(played)
    assert (places.count, places.declared) == (3, False)
    assert places.touches(3, 5) and not places.touches(4, 12)
    assert "keine Preisliste" in places.source


def test_the_dashboard_line_has_no_brackets_in_brackets(played, organiser, client):
    client.force_login(organiser)
    page = client.get(reverse("organiser:dashboard", args=[played.slug])).content.decode()
    assert "(Plätze 1–3, laut „Turnier bearbeiten“, keine Preisliste erklärt)" in page


def test_the_declared_places_count_over_the_setting(played, organiser):
    declare(organiser, played, EIGHT_MIDDLE_LAST)
    places = prize_places(played)  # twelve ranked: the middle is 6, the last 12
    assert (places.count, places.declared, places.span) == (8, True, "1–8")
    assert places.touches(12, 12) and places.touches(7, 9) and not places.touches(9, 11)
    assert places.source == "laut Preisliste"


def test_declared_places_beyond_the_field_and_a_gap(played, organiser):
    declare(organiser, played, [Line(1, "range", 1, 20, "goods", goods="Urkunde")])
    assert prize_places(played).count == 12  # the field, not 20
    declare(organiser, played, [Line(1, "range", 2, 4, "goods", goods="Bier")])
    assert prize_places(played).count == 0  # place 1 without a prize: no run from 1


def test_the_certificates_follow_the_declared_places_and_say_so(played, organiser, client):
    client.force_login(organiser)
    url = reverse("organiser:certificates_doc", args=[played.slug, "html"])
    page = client.get(url).content.decode()
    assert "Preisränge 1–3, laut „Turnier bearbeiten“" in page
    declare(organiser, played, EIGHT_MIDDLE_LAST)
    page = client.get(url).content.decode()
    expected = sum(1 for row in standings.compute(played).rows if row.rank <= 8)
    assert page.count('<section class="certificate">') == expected >= 8
    assert "Urkunden für die Preisränge 1–8, laut Preisliste." in page
    dashboard = client.get(reverse("organiser:dashboard", args=[played.slug])).content.decode()
    assert "Plätze 1–8, laut Preisliste" in dashboard


def test_the_projector_highlights_the_declared_places_and_says_so(played, organiser, client):
    url = reverse("public:projector", args=[played.slug])
    page = client.get(url).content.decode()
    assert "Preisränge 1–3" in page and "(Preisliste)" not in page
    declare(organiser, played, EIGHT_MIDDLE_LAST)
    page = client.get(url).content.decode()
    assert "Preisränge 1–8 (Preisliste)" in page
    highlighted = [int(rank) for rank in re.findall(r'<tr data-rank="(\d+)" class="prize">', page)]
    plain = [int(rank) for rank in re.findall(r'<tr data-rank="(\d+)">', page)]
    assert highlighted and max(highlighted) <= 8 < min(plain)


def test_the_edit_page_says_which_number_counts(played, organiser, client):
    client.force_login(organiser)
    url = reverse("organiser:edit", args=[played.slug])
    assert "bis eine Preisliste erklärt ist" in client.get(url).content.decode()
    declare(organiser, played, EIGHT_MIDDLE_LAST)
    assert "Nicht verwendet: die Preisliste bestimmt die Preisränge (1–8)" in client.get(url).content.decode()


def test_lots_touching_the_prize_places_take_the_declared_last_place(
    drawn, organiser, supervisor, enter, client
):
    """Two Rufer won at both tables: four tied at rank 1, four at rank 5 (the last places)."""
    for table in (1, 2):
        sheet = drawn.matches.get(number=1).scoresheets.get(table__number=table)
        enter(supervisor, sheet, Game(1, Contract.RUFER, 1, suit=Suit.GRAS, partner=2, result=Result.WON))
    drawn.prize_places = 2
    drawn.save()
    client.force_login(organiser)
    standings_page = reverse("organiser:standings", args=[drawn.slug])
    assert "Preisränge 1–2, laut „Turnier bearbeiten“" in client.get(standings_page).content.decode()
    assert len(lots.draw_lots(organiser, drawn, prize_places_only=True, seed="p").groups) == 1
    declare(
        organiser,
        drawn,
        [Line(1, "range", 1, 2, "amount", Decimal(5)), Line(2, "last", kind="goods", goods="Löffel")],
    )
    assert "Preisränge 1–2, laut Preisliste" in client.get(standings_page).content.decode()
    assert len(lots.draw_lots(organiser, drawn, prize_places_only=True, seed="p").groups) == 2
