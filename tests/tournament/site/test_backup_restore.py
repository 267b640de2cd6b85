"""A backup restored in the middle of a match (issue 27, item 7): the hall laptop died, a second
one takes over from the backup, and the same phones carry on: the same table code opens the
table, a write resent after the restore gets its receipt and is not stored twice, the waiting
call is still waiting, entry times and the sheet's version are those of the backup."""

import io
import json
import os
import subprocess
import sys
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tournament.exchange.writer import export_document
from tournament.models import ApprovalCall, LogEntry, PhoneReceipt, Scoresheet, Tournament
from tournament.results.verify import verify_tournament
from tournament.site.backup import DATABASE, MANIFEST

from ..processes import ROOT, manage, own_database

# The backup reads in a transaction of its own and the restore needs an empty database: the
# test's rows are committed, and flushed as a fresh installation's would be.
pytestmark = pytest.mark.django_db(transaction=True)


def send(client, code, key, action, **data):
    response = client.post(
        reverse("table:send", args=[code]),
        json.dumps({"key": key, "action": action, "data": data}),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def backup(path) -> None:
    call_command("backup", str(path), stdout=io.StringIO())


@pytest.fixture
def mid_match(client, drawn, sheet_of, supervisor, settings, tmp_path):
    """Two games entered on table 1's phone, a Tout called for game 3 and waiting, a scan in the
    private folder; the backup taken then."""
    settings.PRIVATE_ROOT = tmp_path / "dead-laptop"
    (settings.PRIVATE_ROOT / "scans").mkdir(parents=True)
    (settings.PRIVATE_ROOT / "scans" / "tisch-2.jpg").write_bytes(b"\xff\xd8 scan")
    sheet = sheet_of(drawn, 1, 1)
    assert send(client, sheet.code, "game1-key-0001", "game", number=1, notation="re13+")["ok"]
    last = send(client, sheet.code, "game2-key-0002", "game", number=2, notation="w2+")
    assert last["ok"], last
    called = send(
        client, sheet.code, "call3-key-0003", "call", number=3, contract="solo_tout", suit="herz", declarer=2
    )
    assert called["ok"], called
    sheet.refresh_from_db()
    path = tmp_path / "backup.zip"
    backup(path)
    return {
        "path": path,
        "code": sheet.code,
        "version": sheet.version,
        "last": last,
        "times": list(sheet.entries.order_by("number").values_list("number", "created")),
        "receipts": PhoneReceipt.objects.filter(scoresheet=sheet).count(),
        "slug": drawn.slug,
    }


def test_the_backup_is_readable_by_its_owner_only(mid_match):
    assert mid_match["path"].stat().st_mode & 0o777 == 0o600
    assert not list(mid_match["path"].parent.glob("*.part"))


def test_the_same_phones_carry_on_after_a_restore_on_a_fresh_installation(
    client, mid_match, settings, tmp_path
):
    call_command("flush", interactive=False, verbosity=0)  # the second laptop: migrated, empty
    assert not Tournament.objects.exists() and not get_user_model().objects.exists()
    settings.PRIVATE_ROOT = tmp_path / "second-laptop"
    call_command("restore", str(mid_match["path"]), stdout=io.StringIO())

    sheet = Scoresheet.objects.get(code=mid_match["code"])
    assert sheet.version == mid_match["version"]
    assert LogEntry.objects.filter(action="tournament.restore").get().user_name
    assert list(sheet.entries.order_by("number").values_list("number", "created")) == mid_match["times"]
    assert (settings.PRIVATE_ROOT / "scans" / "tisch-2.jpg").read_bytes() == b"\xff\xd8 scan"

    # the printed card's code opens the same table
    assert client.get(reverse("table:sheet", args=[mid_match["code"]])).status_code == 200
    # the phone never got game 2's answer and sends it again: answered as then, stored once
    again = send(client, mid_match["code"], "game2-key-0002", "game", number=2, notation="w2+")
    assert again["repeated"] and again["version"] == mid_match["last"]["version"]
    assert sheet.entries.count() == 2
    assert PhoneReceipt.objects.filter(scoresheet=sheet).count() == mid_match["receipts"]
    # the call still waits in the supervisor's queue, and the supervisor (restored) answers it
    call = ApprovalCall.objects.get(scoresheet=sheet)
    assert call.status == ApprovalCall.Status.WAITING
    client.force_login(get_user_model().objects.get(username="aufsicht"))
    page = client.get(reverse("referee:calls", args=[mid_match["slug"]])).content.decode()
    assert "Herz-Tout" in page
    answer = reverse("referee:answer_call", args=[mid_match["slug"], call.pk])
    assert client.post(answer, {"answer": "approve"}).status_code in (200, 302)
    client.logout()
    # the next game is stored with the next version
    sheet.refresh_from_db()
    game3 = send(client, mid_match["code"], "game3-key-0004", "game", number=3, notation="th2+")
    assert game3["ok"] and not game3.get("repeated"), game3
    assert game3["version"] == sheet.version + 1 > mid_match["version"]
    assert sheet.entries.count() == 3


def test_a_restore_over_a_used_installation_is_refused_and_changes_nothing(mid_match):
    code = mid_match["code"]
    Scoresheet.objects.filter(code=code).update(version=99)
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(mid_match["path"]))
    assert Scoresheet.objects.get(code=code).version == 99


def test_a_backup_of_another_schema_is_refused_with_what_to_do(mid_match, tmp_path):
    call_command("flush", interactive=False, verbosity=0)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(mid_match["path"]) as old, zipfile.ZipFile(other, "w") as new:
        for info in old.infolist():
            content = old.read(info)
            if info.filename == MANIFEST:
                manifest = json.loads(content)
                manifest["migrations"] = manifest["migrations"][:-1]
                content = json.dumps(manifest).encode()
            new.writestr(info, content)
    with pytest.raises(CommandError, match="another version of the app"):
        call_command("restore", str(other))
    assert not Tournament.objects.exists()


def test_a_file_that_is_no_backup_is_refused(db, tmp_path):
    path = tmp_path / "turnier.json"
    path.write_text("{}")
    with pytest.raises(CommandError, match="cannot be read as a backup"):
        call_command("restore", str(path))


def test_signed_and_corrected_sheets_restore_whole_and_verified(
    played, referee, supervisor, sheet_of, sign_and_correct, settings, tmp_path
):
    settings.PRIVATE_ROOT = tmp_path / "dead-laptop"
    sign_and_correct(referee, supervisor, sheet_of(played, 1, 1))
    before = export_document(played)
    backup(tmp_path / "backup.zip")
    call_command("flush", interactive=False, verbosity=0)
    settings.PRIVATE_ROOT = tmp_path / "second-laptop"
    call_command("restore", str(tmp_path / "backup.zip"), stdout=io.StringIO())
    restored = Tournament.objects.get(slug=played.slug)
    after = export_document(restored)
    assert after["log"].pop()["action"] == "tournament.restore"  # the history says so
    assert after == before  # signatures' and corrections' times to the microsecond
    out = io.StringIO()
    call_command("verify", played.slug, stdout=out)  # non-zero exit (CommandError) on any difference
    assert verify_tournament(restored)[2] == []


def rows_but_the_restore(backup_file: zipfile.ZipFile) -> list[dict]:
    """The backup's rows without the restore's log lines and the results version it raised."""
    rows = json.loads(backup_file.read(DATABASE))
    for row in rows:
        if row["model"] == "tournament.tournament":
            del row["fields"]["results_version"]
    return [row for row in rows if row["fields"].get("action") != "tournament.restore"]


@pytest.mark.processes
def test_a_fresh_installation_of_its_own_takes_the_backup_and_gives_it_back_the_same(mid_match, tmp_path):
    """The second laptop as it is: its own database migrated by its own process (its own
    numbering of content types and permissions), restored by `manage.py restore`; a backup made
    there holds the same rows; a second restore is refused with a non-zero exit."""
    with own_database(tmp_path) as url:
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "PRIVATE_ROOT": str(tmp_path / "own-private"),
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
        }
        manage(env, "migrate", "--noinput", "-v", "0")
        restored = manage(env, "restore", str(mid_match["path"]))
        assert "Restored" in restored.stdout
        codes = manage(env, "table_codes", mid_match["slug"], "--match", "1").stdout
        assert mid_match["code"] in codes.replace("-", "")
        again = tmp_path / "again.zip"
        manage(env, "backup", str(again))
        with zipfile.ZipFile(mid_match["path"]) as first, zipfile.ZipFile(again) as second:
            assert rows_but_the_restore(second) == rows_but_the_restore(first)
        refused = subprocess.run(
            [sys.executable, "manage.py", "restore", str(mid_match["path"])],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert refused.returncode == 1 and "not empty" in refused.stderr, refused.stderr
