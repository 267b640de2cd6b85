"""A database made by the main branch before issue 12 migrates forward with nothing lost: the same
exported documents (new fields may be added), the same standings, every log line, every scan."""

import datetime
import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from tournament.exchange.writer import export_document
from tournament.models import Correction, LogEntry, Organisation, Scoresheet, Tournament
from tournament.results.document import sheet_digest
from tournament.tournaments.models import ACTIONS

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "main-0006"
START = ("tournament", "0006_signing_and_corrections")
OLD_LOGS = ("auditentry", "entryhistory", "correction")


def contains(new, old, where="document"):
    """Everything ``old`` holds is in ``new`` with the same value; ``new`` may add keys."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} is gone"
            contains(new[key], value, f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), where
        for index, (a, b) in enumerate(zip(new, old, strict=True)):
            contains(a, b, f"{where}[{index}]")
    else:
        assert new == old, f"{where}: {new!r} != {old!r}"


def load_at(apps, rows) -> None:
    """The dumped rows into the historical models of the migration state (not today's)."""
    by_model: dict = {}
    for row in rows:
        model = apps.get_model(row["model"])
        for field in model._meta.concrete_fields:  # the stored times as they were
            field.auto_now = field.auto_now_add = False
        fields = {}
        for name, value in row["fields"].items():
            field = model._meta.get_field(name)
            if field.many_to_many:
                continue
            fields[field.attname] = value
        by_model.setdefault(model, []).append(model(pk=row["pk"], **fields))
    with transaction.atomic():
        for model, objects in by_model.items():
            model.objects.bulk_create(objects)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(by_model)):
            cursor.execute(sql)


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_old_main_migrates_with_nothing_lost(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PRIVATE_ROOT = tmp_path / "private"
    shutil.copytree(FIXTURE / "media", settings.MEDIA_ROOT)
    rows = json.loads((FIXTURE / "data.json").read_text())
    expected = json.loads((FIXTURE / "expected.json").read_text())

    executor = MigrationExecutor(connection)
    leaf = executor.loader.graph.leaf_nodes("tournament")
    executor.migrate([START])
    executor.loader.build_graph()
    load_at(executor.loader.project_state([START]).apps, rows)
    executor = MigrationExecutor(connection)
    executor.migrate(leaf)

    # One log (0007): every audit entry, entry history and correction, the correction's audit
    # entry merged into it.
    counted = {name: sum(1 for row in rows if row["model"] == f"tournament.{name}") for name in OLD_LOGS}
    corrected = sum(1 for row in rows if row["fields"].get("action") == "sheet.corrected")
    assert LogEntry.objects.count() == sum(counted.values()) - corrected
    assert Correction.objects.count() == counted["correction"] == 1
    assert set(LogEntry.objects.values_list("action", flat=True)) <= set(ACTIONS)
    assert not LogEntry.objects.filter(scoresheet__isnull=True, action__startswith="sheet.").exists()
    for sheet in Scoresheet.objects.filter(status="signed"):
        assert sheet_digest(sheet) == sheet.digest, sheet  # signed content unchanged, corrections included

    # Private scans (0008): moved out of the media folder under an unguessable name.
    (scanned,) = Scoresheet.objects.exclude(paper_scan="")
    assert not list(settings.MEDIA_ROOT.rglob("*.jpg"))
    assert scanned.paper_scan.read() == (FIXTURE / "media/scans/kirchweih-2026-1-2.jpg").read_bytes()
    assert "kirchweih" not in scanned.paper_scan.name

    assert sorted(Tournament.objects.values_list("slug", flat=True)) == sorted(expected)
    for slug, before in expected.items():
        tournament = Tournament.objects.get(slug=slug)
        out = io.StringIO()
        call_command("standings", slug, "--format", "csv", stdout=out)
        assert out.getvalue() == before["standings"], slug
        contains(export_document(tournament), before["export"], slug)


@pytest.mark.django_db(transaction=True)
def test_existing_data_move_into_one_organisation(settings):
    """0028 (issue 29): every tournament, person and series into one organisation; the
    register's and series' managers its administrators, the organisers its members."""
    settings.DEFAULT_ORGANISATION_NAME, settings.DEFAULT_ORGANISATION_SLUG = "SK Au", "sk-au"
    before, after = ("tournament", "0027_job_cancelled"), ("tournament", "0028_organisations")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    user, permission = old.get_model("auth", "User"), old.get_model("auth", "Permission")
    manager, organiser, referee, bystander = (
        user.objects.create(username=name) for name in ("kartei", "orga", "schiri", "gast")
    )
    manager.user_permissions.add(permission.objects.get(codename="add_person"))
    tournament = old.get_model("tournament", "Tournament").objects.create(
        name="Kirchweih", slug="kirchweih", date="2026-11-21", retention_until="2027-05-21"
    )
    for who, role in ((organiser, "organiser"), (referee, "referee")):
        old.get_model("tournament", "StaffRole").objects.create(tournament=tournament, user=who, role=role)
    old.get_model("tournament", "Person").objects.create(name="Sepp Huber")
    old.get_model("tournament", "Series").objects.create(name="Cup", slug="cup")

    executor = MigrationExecutor(connection)
    executor.migrate([after])
    new = executor.loader.project_state([after]).apps
    (organisation,) = new.get_model("tournament", "Organisation").objects.all()
    assert (organisation.name, organisation.slug) == ("SK Au", "sk-au")
    for name in ("Tournament", "Person", "Series"):
        owned = new.get_model("tournament", name).objects.all()
        assert owned.count() == 1 and {o.organisation_id for o in owned} == {organisation.pk}, name
    members = dict(
        new.get_model("tournament", "OrganisationMember").objects.values_list("user__username", "is_admin")
    )
    assert members == {"kartei": True, "orga": False}  # the referee and the guest are no members
    with pytest.raises(IntegrityError), transaction.atomic():  # the organisation is required now
        new.get_model("tournament", "Person").objects.create(name="Ohne Verein", organisation_id=None)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tournament"))


@pytest.mark.django_db(transaction=True)
def test_a_fresh_database_gets_no_organisation_until_one_is_needed():
    """Empty for a restore (site/backup.py); the first tournament makes the default one."""
    assert not Organisation.objects.exists()
    Tournament.objects.create(name="Erstes", slug="erstes", date=datetime.date(2026, 11, 21))
    (organisation,) = Organisation.objects.all()
    assert organisation.slug == "verein" and Tournament.objects.get().organisation == organisation
