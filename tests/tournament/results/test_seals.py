"""Seals (issue 27, item 5): every digest a sheet is signed or corrected with is signed with the
server's Ed25519 key as a link of the tournament's chain; rewriting a sheet with its totals and
digest, a seal, or a signature image is found by verify; a copy restored on another server keeps
its seals verifiable with the original key; the README's recipe checks an export without any of
the project's code."""

import base64
import io
import json
import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.urls import reverse

from scoring import Contract, Game, Result, Suit
from tournament import sealkey
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import read_document
from tournament.exchange.writer import dumps, export_document
from tournament.models import GameEntry, Scoresheet, Signature
from tournament.results import seals, signing
from tournament.results.document import sheet_digest
from tournament.results.models import Seal
from tournament.results.services import score
from tournament.results.store import store_scored
from tournament.tournaments.audit import record

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[3] / "README.md"


def verify(slug):
    out = io.StringIO()
    try:
        call_command("verify", slug, stdout=out)
    except CommandError as error:
        return False, out.getvalue() + str(error)
    return True, out.getvalue()


@pytest.fixture
def three(played, referee, supervisor, sheet_of, sign):
    """Three sheets of match 1 signed in turn: seals 1, 2 and 3."""
    for table in (1, 2, 3):
        sign(referee, sheet_of(played, 1, table))
    return played


def rewrite_a_game(sheet: Scoresheet) -> None:
    """What someone with the database does: a signed game changed, its points and the seats'
    totals stored as the rules give them, the digest recomputed in the documented form."""
    entry = (
        sheet.entries.filter(kind="game", declarer_points__isnull=False).exclude(declarer_points=60).first()
    )
    GameEntry.objects.filter(pk=entry.pk).update(declarer_points=120 - entry.declarer_points)
    store_scored([(sheet, score(sheet))])
    sheet.refresh_from_db()
    sheet.digest = sheet_digest(sheet)
    sheet.save(update_fields=["digest"])


def test_each_signature_seals_the_sheet_as_the_next_link(three):
    links = list(Seal.objects.filter(tournament=three).order_by("sequence"))
    assert [(link.sequence, link.table, link.kind) for link in links] == [
        (1, 1, "signed"),
        (2, 2, "signed"),
        (3, 3, "signed"),
    ]
    assert links[0].previous == "" and links[1].previous == links[0].signature
    assert links[2].previous == links[1].signature
    assert {link.key for link in links} == {sealkey.public_key()}
    assert all(link.digest == link.scoresheet.digest for link in links)
    ok, out = verify(three.slug)
    assert ok, out
    assert "3 Siegel: alles stimmt" in out


def test_the_key_file_is_made_once_for_its_owner_only(settings, tmp_path):
    settings.SEAL_KEY_FILE = tmp_path / ".seal_key"
    key = sealkey.public_key()
    assert stat.S_IMODE(os.stat(settings.SEAL_KEY_FILE).st_mode) == 0o600
    sealkey._loaded.clear()
    assert sealkey.public_key() == key  # read again, not made again
    assert ".seal_key" in (README.parent / ".gitignore").read_text()


def test_a_game_rewritten_with_its_totals_and_digest_fails_verify(three, sheet_of, client, referee):
    sheet = sheet_of(three, 1, 2)
    rewrite_a_game(sheet)
    ok, out = verify(three.slug)
    assert not ok
    assert "Durchgang 1, Tisch 2: Der Inhalt weicht von dem ab, was Siegel 2 versiegelt hat" in out
    assert "Tisch 1" not in out and "Tisch 3" not in out  # the totals and the digest hold
    # ... also when the seal's digest is rewritten too: its signature no longer fits.
    Seal.objects.filter(scoresheet=sheet).update(digest=sheet.digest)
    ok, out = verify(three.slug)
    assert not ok and "Siegel 2: Seine Unterschrift passt nicht zu dem, was es versiegelt" in out
    client.force_login(referee)
    page = client.get(reverse("referee:sheet", args=[three.slug, 1, 2])).content.decode()
    assert "verify-failed" in page and "Siegel 2" in page
    board = client.get(reverse("referee:board", args=[three.slug, 1])).content.decode()
    assert "verify-failed" in board


def test_a_digest_in_the_older_plain_form_fails_too(three, sheet_of):
    sheet = sheet_of(three, 1, 2)
    rewrite_a_game(sheet)
    sheet.digest_version = 2  # "signed before seals": the plain SHA-256 the old README taught
    sheet.digest = sheet_digest(sheet)
    sheet.save()
    Seal.objects.filter(scoresheet=sheet).delete()  # and its seal removed
    ok, out = verify(three.slug)
    assert not ok
    assert "Tisch 2: Die Liste ist unterschrieben, aber ihr Siegel fehlt" in out
    assert "Tisch 3: Siegel 3: Siegel 2 davor fehlt" in out


def test_rewriting_seal_2_of_3_breaks_seal_3(three, sheet_of, settings, tmp_path):
    sheet = sheet_of(three, 1, 2)
    rewrite_a_game(sheet)
    # Sealed anew with a key of one's own: seal 2 is valid for that key, seal 3 no longer follows.
    link = Seal.objects.get(tournament=three, sequence=2)
    server = settings.SEAL_KEY_FILE
    settings.SEAL_KEY_FILE = tmp_path / "forger"
    link.digest, link.key = sheet.digest, sealkey.public_key()
    link.signature = sealkey.sign(seals.message(link.link()))
    link.save()
    settings.SEAL_KEY_FILE = server  # verify on the server, with its own key
    ok, out = verify(three.slug)
    assert not ok
    assert "Tisch 3: Siegel 3 folgt nicht auf Siegel 2" in out
    assert f"Siegel 2 wurden mit dem Schlüssel {sealkey.spaced(link.key)}" in out


def test_a_changed_seal_signature_breaks_it_and_the_next(three):
    link = Seal.objects.get(tournament=three, sequence=2)
    Seal.objects.filter(pk=link.pk).update(
        signature=("0" if link.signature[0] != "0" else "1") + link.signature[1:]
    )
    ok, out = verify(three.slug)
    assert not ok
    assert "Tisch 2: Siegel 2: Seine Unterschrift passt nicht" in out
    assert "Tisch 3: Siegel 3 folgt nicht auf Siegel 2" in out


def test_changed_image_bytes_fail_verify(three, sheet_of):
    sheet = sheet_of(three, 1, 1)
    signature = sheet.signatures.get(position=1)
    data = base64.b64decode(signature.image.split(",")[1])
    changed = data[:-12] + bytes([data[-12] ^ 1]) + data[-11:]  # one bit of the PNG's trailer
    Signature.objects.filter(pk=signature.pk).update(
        image="data:image/png;base64," + base64.b64encode(changed).decode()
    )
    ok, out = verify(three.slug)
    assert not ok and "Durchgang 1, Tisch 1: Der Inhalt weicht vom Unterschriebenen ab" in out


def test_a_sheet_signed_before_seals_is_old_digest_only(three, sheet_of):
    sheet = sheet_of(three, 1, 3)
    Seal.objects.filter(scoresheet=sheet).delete()  # the last link: as if signed before seals
    sheet.digest_version = 2
    sheet.digest = sheet_digest(sheet)
    sheet.locked_at = sheet.locked_at.replace(year=sheet.locked_at.year - 1)
    sheet.save()
    ok, out = verify(three.slug)
    assert ok, out
    assert "Durchgang 1, Tisch 3: nur die alte Prüfsumme (vor den Siegeln unterschrieben)" in out


def test_a_copy_restored_elsewhere_keeps_its_seals(three, organiser, settings, tmp_path, client):
    original = sealkey.public_key()
    document = json.loads(dumps(export_document(three)))
    assert document["seals"]["key"] == original and len(document["seals"]["chain"]) == 3
    settings.SEAL_KEY_FILE = tmp_path / "second-laptop"  # another server, another key
    assert sealkey.public_key() != original
    copy_ = import_plan(organiser, read_document(json.dumps(document), slug="kopie"))
    ok, out = verify(copy_.slug)
    assert ok, out
    assert f"Siegel 1–3 wurden mit dem Schlüssel {sealkey.spaced(original)}" in out
    assert "nicht mit dem Schlüssel dieses Servers" in out
    client.force_login(organiser)
    page = client.get(reverse("referee:sheet", args=[copy_.slug, 1, 2])).content.decode()
    assert "foreign-key" in page and original in page and "verify-failed" not in page


def test_a_tampered_document_is_refused_on_import(three, organiser):
    document = export_document(three)
    document["seals"]["chain"][1]["digest"] = "0" * 64
    with pytest.raises(Exception, match="Siegel 2"):
        import_plan(organiser, read_document(json.dumps(document), slug="kopie"))


def recipe() -> str:
    """The README's script, exactly as written there."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"```python\n(# check_seals\.py.*?)```", text, re.S)
    assert found, "the recipe is in the README"
    return found.group(1)


def run_recipe(tmp_path, document, *keys):
    script = tmp_path / "check_seals.py"
    script.write_text(recipe(), encoding="utf-8")
    exported = tmp_path / "export.json"
    exported.write_text(dumps(document), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(script), str(exported), *keys],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def test_the_readme_recipe_checks_an_export_without_the_project(three, sheet_of, tmp_path):
    key = sealkey.public_key()
    code, out = run_recipe(tmp_path, export_document(three), key)
    assert code == 0 and "3 seals checked: all hold" in out, out
    # Rewritten in the database with totals and digest: the recipe finds it too.
    rewrite_a_game(sheet_of(three, 1, 2))
    code, out = run_recipe(tmp_path, export_document(three), key)
    assert code == 1 and "match 1, draw 1, table 2: the content differs from what seal 2 sealed" in out, out
    # A seal made with another key is named unless that key is given.
    code, out = run_recipe(tmp_path, export_document(three), "0" * 64)
    assert "made with the key" in out


def test_the_public_key_is_on_the_site_and_in_every_export(three, client, organiser):
    key = sealkey.public_key()
    page = client.get(reverse("seal_key")).content.decode()
    assert key in page and sealkey.spaced(key) in page
    assert client.get(reverse("seal_key") + "?format=text").content.decode().strip() == key
    overview = client.get(reverse("public:overview", args=[three.slug])).content.decode()
    assert reverse("seal_key") in overview  # the footer of every tournament page
    assert export_document(three)["seals"]["key"] == key


def test_a_correction_seals_again_chained_on(three, sheet_of, supervisor):
    sheet = sheet_of(three, 1, 1)
    signing.correct(
        supervisor,
        sheet,
        Game(2, Contract.RUFER, 1, suit=Suit.GRAS, partner=3, result=Result.WON),
        "Zahlendreher",
    )
    sheet.refresh_from_db()
    last = Seal.objects.filter(tournament=three).order_by("sequence").last()
    assert (last.sequence, last.table, last.kind, last.digest) == (4, 1, "corrected", sheet.digest)
    assert last.previous == Seal.objects.get(tournament=three, sequence=3).signature
    ok, out = verify(three.slug)  # seal 1, superseded, is still checked in the chain
    assert ok, out
    Seal.objects.filter(tournament=three, sequence=1).update(at="2020-01-01T00:00:00+00:00")
    ok, out = verify(three.slug)
    assert not ok and "Tisch 1: Siegel 1: Seine Unterschrift passt nicht" in out


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_two_tables_sealing_at_once_both_seal_in_turn(played):
    """Two tables whose last signatures arrive together, each having written its log line: the
    second sealer waits for the first and chains on (no duplicate number, no deadlock)."""
    sheets = list(
        Scoresheet.objects.filter(match__tournament=played, match__number=1).order_by("table__number")
    )[:2]
    Scoresheet.objects.filter(pk__in=[s.pk for s in sheets]).update(digest="a" * 64)
    ready = [threading.Event(), threading.Event()]
    results = {}

    def sealer(index):
        try:
            with transaction.atomic():
                record(played, None, "tournament.anonymise")  # a log line, as signing writes one
                ready[index].set()
                ready[1 - index].wait(5)
                sheet = Scoresheet.objects.select_related("match", "table").get(pk=sheets[index].pk)
                results[index] = seals.seal(sheet, Seal.Kind.SIGNED).sequence
        except Exception as error:  # the test inspects what each met
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=sealer, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert sorted(results.values()) == [1, 2], results
    chain = seals.Chain.of(played.pk)
    assert chain.links[1].previous == chain.links[0].signature


def test_a_seal_made_with_another_key_than_the_one_before_is_logged(
    played, referee, sheet_of, sign, settings, tmp_path, caplog
):
    """Issue 29.3: a second machine without the shared seal key makes its own; its seals still
    verify (each names its key), but the site no longer has one key: said in the log."""
    sign(referee, sheet_of(played, 1, 1))
    assert "SEAL_KEY_FILE" not in caplog.text
    settings.SEAL_KEY_FILE = tmp_path / "machine-b-seal-key"
    sign(referee, sheet_of(played, 1, 2))
    assert "is SEAL_KEY_FILE the same on every machine?" in caplog.text
    assert verify(played.slug)[0]
