"""verify: what is stored is what was entered and signed (issue 13)."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournament.models import GameEntry, Seat

pytestmark = pytest.mark.django_db


def verify(slug):
    out = io.StringIO()
    call_command("verify", slug, stdout=out)
    return out.getvalue()


@pytest.fixture
def signed(played, referee, sheet_of, sign):
    sheet = sign(referee, sheet_of(played, 1, 2))
    return played, sheet


def test_everything_holds_after_play_and_signing(signed):
    tournament, _sheet = signed
    assert "6 Spiellisten geprüft, 1 davon unterschrieben, 1 Siegel: alles stimmt." in verify(tournament.slug)


def test_a_direct_edit_of_a_signed_game_is_found(signed, client, referee):
    tournament, sheet = signed
    entry = sheet.entries.get(number=7)
    GameEntry.objects.filter(pk=entry.pk).update(
        declarer_points=None, result="won" if entry.result != "won" else "lost"
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="Abweichungen"):
        call_command("verify", tournament.slug, stdout=out)
    assert "Durchgang 1, Tisch 2: Der Inhalt weicht vom Unterschriebenen ab" in out.getvalue()
    client.force_login(referee)
    page = client.get(reverse("referee:sheet", args=[tournament.slug, 1, 2])).content.decode()
    assert "ergibt die Prüfsumme nicht" in page
    board = client.get(reverse("referee:board", args=[tournament.slug, 1])).content.decode()
    assert "verify-failed" in board


def test_stored_totals_that_disagree_with_the_games_are_found(signed):
    tournament, _sheet = signed
    seat = Seat.objects.filter(match__tournament=tournament, table__number=3, match__number=2).first()
    Seat.objects.filter(pk=seat.pk).update(points=seat.points + 6)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 Abweichung\\."):
        call_command("verify", tournament.slug, stdout=out)
    assert f"Durchgang 2, Tisch 3: Platz {seat.position}: die Rangliste zählt" in out.getvalue()
