"""Substitutes (5.2.11): their own page, one after another in time, never into a signed sheet,
and old enough (5.2.12)."""

import datetime
import html

import pytest
from django.urls import reverse

from tournament.errors import ServiceError
from tournament.models import Participant, Substitution
from tournament.results import substitutes

pytestmark = pytest.mark.django_db


def seated(tournament, match=1, table=1, position=1) -> Participant:
    return Participant.objects.get(
        seats__match__number=match,
        seats__match__discarded_at__isnull=True,
        seats__table__number=table,
        seats__position=position,
        tournament=tournament,
    )


def test_the_substitute_page_is_headed_for_the_start_number_and_keeps_what_was_typed(
    client, played, organiser, sign, referee, sheet_of
):
    sign(referee, sheet_of(played, 1, 1))
    player = seated(played)
    client.force_login(organiser)
    url = reverse("organiser:substitute", args=[played.slug, player.number])
    page = html.unescape(client.get(url).content.decode())
    assert f"Ersatzspieler für Nr. {player.number}: {player.name}" in page
    assert "nächsten anmelden" not in page and "Teilnehmer anmelden" not in page
    assert "(unterschrieben)" in page  # the seat of match 1 is on a signed sheet
    response = client.post(
        url, {"name": "Ersatz, Xaver", "club": "SK Au", "from_match": "1", "from_game": "9"}
    )
    text = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert text.count("Durchgang 1, Tisch 1 ist unterschrieben") == 1  # once, beside the form
    assert 'value="Ersatz, Xaver"' in text and 'value="SK Au"' in text
    assert not Substitution.objects.exists()
    response = client.post(url, {"name": "Ersatz, Xaver", "from_match": "2", "from_game": "1"}, follow=True)
    assert Substitution.objects.get().from_match == 2
    assert f"Ersatz, Xaver spielt für Startnummer {player.number} ab Durchgang 2" in html.unescape(
        response.content.decode()
    )


def test_a_void_sheet_takes_no_substitute_either(played, organiser, supervisor, sheet_of):
    from tournament.results import signing

    sheet = sheet_of(played, 2, 1)
    signing.declare_void(supervisor, sheet, "Tisch gesprengt", sheet.version)
    with pytest.raises(ServiceError, match="Durchgang 2, Tisch 1 ist ungültig"):
        substitutes.substitute(organiser, seated(played, 2, 1), "Ersatz", 1, 5)


def test_substitutes_follow_one_another_in_time(drawn, organiser):
    player = seated(drawn)
    substitutes.substitute(organiser, player, "Erster", 1, 5)
    for match, game in ((1, 5), (1, 1), (1, 4)):
        with pytest.raises(
            ServiceError, match="schon einen Ersatzspieler ab Durchgang 1, Spiel 5 \\(Erster\\)"
        ):
            substitutes.substitute(organiser, player, "Zweiter", match, game)
    substitutes.substitute(organiser, player, "Zweiter", 2, 1)
    assert [s.name for s in player.substitutions.order_by("from_match", "from_game")] == ["Erster", "Zweiter"]
    assert player.player_name(1, 4) == player.name and player.player_name(1, 5) == "Erster"
    assert player.player_name(2, 1) == "Zweiter"


def test_a_substitute_too_young_is_refused_5_2_12(drawn, organiser):
    player = seated(drawn)
    young = drawn.date.replace(year=drawn.date.year - 15)
    with pytest.raises(ServiceError, match="jünger als 16"):
        substitutes.substitute(organiser, player, "Jung", 2, 1, birth_date=young)
    old = datetime.date(1960, 1, 1)
    substitutes.substitute(organiser, player, "Alt", 2, 1, birth_date=old)
    assert Substitution.objects.get().birth_date == old


def test_a_substitutes_birth_date_travels_in_the_backup_and_is_checked_on_import(drawn, organiser):
    import json

    from tournament.exchange.importer import import_plan
    from tournament.exchange.reader import DocumentError, read_document
    from tournament.exchange.writer import export_document

    substitutes.substitute(organiser, seated(drawn), "Alt", 2, 1, birth_date=datetime.date(1960, 1, 1))
    document = export_document(drawn)
    assert document["substitutions"][0]["birth_date"] == "1960-01-01"
    copy_ = import_plan(organiser, read_document(json.dumps(document), slug="kopie"))
    assert Substitution.objects.get(participant__tournament=copy_).birth_date == datetime.date(1960, 1, 1)
    document["substitutions"][0]["birth_date"] = drawn.date.replace(year=drawn.date.year - 10).isoformat()
    with pytest.raises(DocumentError) as error:
        read_document(json.dumps(document), slug="kopie2")
    assert any(m == "Ersatz 1: Am Turniertag jünger als 16 (5.2.12)." for m in error.value.messages), (
        error.value.messages
    )
