"""The backup is the whole tournament (issue 13): export, import into an empty database, export
again gives the same document; every signed sheet's digest can be recomputed by anybody from
the document; a changed signed sheet is refused on import."""

import datetime
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from scoring import Contract, Game, Result, Suit
from tests.tournament.exchange.documents import recompute
from tournament.draw import services as draw_service
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import DocumentError, read_document
from tournament.exchange.writer import export_document
from tournament.models import Scoresheet, Tournament
from tournament.results import services as sheet_service
from tournament.results import signing, substitutes
from tournament.results.document import digest_of, legacy_canonical
from tournament.standings import lots
from tournament.tournaments import services as tournament_service
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


def jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 200, 200)).save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.fixture
def everything(played, organiser, supervisor, referee, sheet_of, sign_and_correct, add_players):
    """A tournament holding every kind of record there is."""
    sign_and_correct(referee, supervisor, sheet_of(played, 1, 1))  # signed on the pad, corrected
    scan = SimpleUploadedFile("liste.jpg", jpeg(), content_type="image/jpeg")
    paper = sheet_of(played, 1, 2)
    signing.record_paper_signatures(referee, paper, scan, paper.version)  # the paper original
    signing.declare_void(supervisor, sheet_of(played, 1, 3), "unleserlich")
    draw_service.draw_one(COMMAND_LINE, played, 2, seed="neu", discard_results=True)  # kept, discarded
    fresh = sheet_of(played, 2, 1)
    sheet_service.approve(
        supervisor, fresh, 5, "solo_tout", hand=["EO", "GO", "HO", "EU", "HA", "H10", "SA", "GA"], suit="herz"
    )
    sheet_service.save_entry(
        referee, fresh, Game(1, Contract.RUFER, 1, Suit.EICHEL, partner=3, result=Result.WON), None
    )
    substitutes.substitute(organiser, played.participants.get(number=4), "Maier, Resi", 2, 9)
    add_players(played, 2, start=50)  # registered late: tied at 0
    lots.draw_lots(organiser, played, seed="los")
    tournament_service.update_tournament(organiser, played, retention_until=datetime.date(2030, 1, 1))
    played.refresh_from_db()
    return played


def test_export_import_export_gives_the_same_document(everything, organiser):
    first = export_document(everything)
    assert first["tournament"]["retention_until"] == "2030-01-01"
    assert {s["role"] for s in first["staff"]} == {"organiser", "supervisor", "referee"}
    (match_2,) = [m for m in first["matches"] if m["number"] == 2]
    assert match_2["draw"] == 2 and len(match_2["discarded"]) == 1
    assert match_2["tables"][0]["approvals"][0]["game"] == 5  # approved before its game
    assert match_2["tables"][0]["approvals"][0]["hand_check"]["runners"] == 3
    paper = first["matches"][0]["tables"][1]
    assert paper["scan"]["suffix"] == ".jpg" and paper["scan"]["base64"]
    everything.delete()
    assert not Tournament.objects.exists() and not Scoresheet.objects.exists()

    copy_ = import_plan(organiser, read_document(json.dumps(first)))
    second = export_document(copy_)
    *log, imported = second["log"]
    assert imported["action"] == "tournament.import" and imported["by"] == "orga"
    assert {**second, "log": log} == first


def signed_tables(document):
    return [(m["number"], t) for m in document["matches"] for t in m["tables"] if t.get("digest")]


def test_anybody_recomputes_every_digest_from_the_exported_document(everything):
    document = json.loads(json.dumps(export_document(everything)))  # as a file gives it
    tables = signed_tables(document)
    assert len(tables) == 2  # the pad (corrected since) and the paper original
    for match, table in tables:
        assert recompute(match, table) == table["digest"], (match, table["number"])


@pytest.mark.parametrize(
    "damage",
    [
        "game",  # a game changed after signing
        "seats",  # two seats swapped
        "digest",  # a made-up digest
        "signature",  # a signature missing
        "name",  # a name changed in what was signed
    ],
)
def test_a_changed_signed_sheet_is_refused_naming_the_table(everything, damage):
    document = export_document(everything)
    table = document["matches"][0]["tables"][0]
    assert table["status"] == "signed"
    if damage == "game":
        table["games"][5]["points"] = [p * -1 for p in table["games"][5]["points"]]
        table["games"][5]["declarer"] = table["games"][5].get("declarer", 1) % 4 + 1
    elif damage == "seats":
        table["seats"][0], table["seats"][1] = table["seats"][1], table["seats"][0]
    elif damage == "digest":
        table["digest"] = "0" * 64
    elif damage == "signature":
        table["signatures"].pop()
    else:
        table["signed_as"]["seats"][0]["name"] = "Jemand, Anders"
    before = Tournament.objects.count()
    with pytest.raises(DocumentError) as refused:
        import_plan(
            everything.staff.get(role="organiser").user, read_document(json.dumps(document), slug="kopie")
        )
    assert any(m.startswith("Durchgang 1, Tisch 1") for m in refused.value.messages), refused.value.messages
    assert Tournament.objects.count() == before


def test_a_sheet_sealed_in_the_earlier_form_is_checked_on_import(everything, organiser):
    """Sheets signed before digest version 2 keep their digest; the importer checks it once the
    sheet is written, and refuses the document if it does not hold."""
    sheet = Scoresheet.objects.get(match__tournament=everything, match__number=1, table__number=2)
    sheet.digest_version = 1
    sheet.digest = digest_of(legacy_canonical(sheet))
    sheet.seals.all().delete()  # signed before seals (issue 27): the last link, locked before the first
    sheet.locked_at -= datetime.timedelta(hours=2)
    sheet.save()
    document = export_document(everything)
    assert document["matches"][0]["tables"][1]["digest_version"] == 1
    restored = import_plan(organiser, read_document(json.dumps(document), slug="kopie"))
    copied = Scoresheet.objects.get(match__tournament=restored, match__number=1, table__number=2)
    assert (copied.digest_version, copied.digest) == (1, sheet.digest)
    document["matches"][0]["tables"][1]["games"][0]["declarer"] = 4
    document["matches"][0]["tables"][1]["games"][0].pop("points")
    with pytest.raises(DocumentError, match="Durchgang 1, Tisch 2"):
        import_plan(organiser, read_document(json.dumps(document), slug="kopie-2"))
    assert not Tournament.objects.filter(slug="kopie-2").exists()
