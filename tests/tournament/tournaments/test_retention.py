"""Retention (5.3.5): only what is past its date is anonymised or deleted."""

import base64
import datetime
import io
import json
import os
import time

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from tournament.draw.services import draw_all
from tournament.exchange.importer import import_plan
from tournament.exchange.reader import read_document
from tournament.exchange.writer import export_document
from tournament.models import Participant, Scoresheet, Signature, Substitution, Tournament
from tournament.results import signing, substitutes
from tournament.results.models import Seal
from tournament.site.retention import purge
from tournament.tournaments.models import RETENTION_MONTHS, add_months, default_retention
from tournament.tournaments.permissions import COMMAND_LINE

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament_on(make_tournament, add_players):
    """``tournament_on(slug, date)``: drawn, with a scan and a signature on its first sheet."""

    def tournament_on(slug, date):
        # As if created before its day: retention 6 months after it (one entered later keeps
        # at least 6 months from its entry, see the last test).
        tournament = make_tournament(slug, date=date, retention_until=add_months(date, RETENTION_MONTHS))
        add_players(tournament, 4, birth_date=datetime.date(1960, 1, 1))
        draw_all(COMMAND_LINE, tournament, seed="r")
        sheet = Scoresheet.objects.filter(match__tournament=tournament).first()
        sheet.paper_scan.save(f"{slug}.jpg", ContentFile(b"scan"), save=True)
        Signature.objects.create(
            scoresheet=sheet, position=1, name="Huber, Sepp", method="pad", image="data:image/png;base64,AAAA"
        )
        return tournament

    return tournament_on


@pytest.fixture
def two(tmp_path, settings, tournament_on):
    settings.PRIVATE_ROOT = tmp_path
    today = datetime.date.today()
    old = tournament_on("alt", today - datetime.timedelta(days=400))
    young = tournament_on("jung", today - datetime.timedelta(days=30))
    return old, young


def test_only_expired_tournaments_are_anonymised(two, tmp_path, django_capture_on_commit_callbacks):
    old, young = two
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):  # files go once the data is gone
        call_command("purge_expired", stdout=out)
    assert "anonymised: 4 participants, 1 signatures, 1 scans" in out.getvalue()
    assert "jung" not in out.getvalue() and "Kirchweih-Schafkopf (kept until" in out.getvalue()
    again = io.StringIO()
    call_command("purge_expired", stdout=again)  # a second run finds nothing left to anonymise
    assert "anonymised: 0 participants, 0 signatures, 0 scans" in again.getvalue()
    assert set(Participant.objects.filter(tournament=old).values_list("name", flat=True)) == {
        "Teilnehmer 1",
        "Teilnehmer 2",
        "Teilnehmer 3",
        "Teilnehmer 4",
    }
    assert not Participant.objects.filter(tournament=old, birth_date__isnull=False).exists()
    assert Signature.objects.get(scoresheet__match__tournament=old).image == ""
    assert not (tmp_path / "scans" / "alt.jpg").exists()
    # the younger tournament is untouched
    assert Participant.objects.filter(tournament=young, name__startswith="Spieler").count() == 4
    assert Signature.objects.get(scoresheet__match__tournament=young).name == "Huber, Sepp"
    assert (
        tmp_path
        / Scoresheet.objects.filter(match__tournament=young).exclude(paper_scan="").get().paper_scan.name
    ).exists()


def test_dry_run_changes_nothing(two):
    old, _young = two
    out = io.StringIO()
    call_command("purge_expired", "--dry-run", stdout=out)
    assert "would be anonymised" in out.getvalue()
    assert Participant.objects.filter(tournament=old, name__startswith="Spieler").count() == 4


def test_delete_removes_only_expired_tournaments(two):
    old, young = two
    call_command("purge_expired", "--delete", stdout=io.StringIO())
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["jung"]


def test_the_retention_day_itself_is_kept(tmp_path, settings, tournament_on):
    settings.PRIVATE_ROOT = tmp_path
    tournament = tournament_on("heute", datetime.date.today() - datetime.timedelta(days=10))
    Tournament.objects.filter(pk=tournament.pk).update(retention_until=datetime.date.today())
    out = io.StringIO()
    call_command("purge_expired", stdout=out)
    assert out.getvalue().strip() == "Nothing is past its retention date."


def test_abandoned_uploads_are_forgotten(tmp_path, settings):

    settings.PRIVATE_ROOT = tmp_path
    folder = tmp_path / "imports"
    folder.mkdir()
    (folder / "alt.json").write_text("{}")
    (folder / "neu.json").write_text("{}")
    two_days_ago = time.time() - 48 * 3600
    os.utime(folder / "alt.json", (two_days_ago, two_days_ago))
    out = io.StringIO()
    call_command("purge_expired", stdout=out)
    assert "1 uploaded documents" in out.getvalue()
    assert not (folder / "alt.json").exists() and (folder / "neu.json").exists()


def test_a_tournament_entered_after_its_day_is_not_due_at_once(make_tournament):
    """A past tournament typed in today keeps 6 months from today, not from its day (the walk
    of issue 14 found one already past its retention date while in preparation)."""
    today = datetime.date.today()
    past = make_tournament("nachgetragen", date=today - datetime.timedelta(days=300))
    assert past.retention_until == add_months(today, RETENTION_MONTHS) == default_retention(past.date)
    coming = make_tournament("kommt", date=today + datetime.timedelta(days=30))
    assert coming.retention_until == add_months(coming.date, RETENTION_MONTHS)


def test_the_files_of_background_jobs_go_with_the_names(two, tmp_path, django_capture_on_commit_callbacks):
    from tournament.jobs import runner
    from tournament.jobs.models import Job

    old, young = two
    files = {}
    for tournament in two:
        job = runner.start(tournament, Job.Kind.SCORESHEETS, "Spiellisten", match=1, blank=True)
        runner.run(job.pk)
        files[tournament.slug] = tmp_path / Job.objects.get(pk=job.pk).file.name
        assert files[tournament.slug].exists()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("purge_expired", stdout=io.StringIO())
    assert not files["alt"].exists() and not Job.objects.filter(tournament=old).exists()
    assert files["jung"].exists() and Job.objects.filter(tournament=young).exists()


@pytest.fixture
def signed_then_expired(
    played, referee, supervisor, organiser, sheet_of, sign, sign_and_correct, signature_png
):
    """A played tournament with a substitute (born 1990), a sheet signed on the pad and
    corrected, one signed on paper, then past its retention date."""
    substitutes.substitute(organiser, played.participants.get(number=4), "Maier, Resi", 2, 9)
    Substitution.objects.filter(participant__tournament=played).update(birth_date=datetime.date(1990, 5, 1))
    sign_and_correct(referee, supervisor, sheet_of(played, 1, 1))
    paper = sheet_of(played, 1, 2)
    signing.record_paper_signatures(
        referee,
        paper,
        SimpleUploadedFile("liste.png", base64.b64decode(signature_png().split(",")[1])),
        paper.version,
    )
    sign(referee, sheet_of(played, 2, 1))
    day = datetime.date.today() - datetime.timedelta(days=400)  # played long ago, kept 6 months
    Tournament.objects.filter(pk=played.pk).update(
        date=day, retention_until=add_months(day, RETENTION_MONTHS)
    )
    played.refresh_from_db()
    return played


def test_anonymising_removes_every_name_and_birth_date_and_verify_still_passes(
    signed_then_expired, organiser, settings, tmp_path
):
    tournament = signed_then_expired
    names = set(tournament.participants.values_list("name", flat=True)) | {"Maier, Resi"}
    before = Seal.objects.filter(tournament=tournament).count()  # 2 signed + 1 corrected + 1 paper
    assert before == 4
    purge(tournament)
    tournament.refresh_from_db()
    assert not Substitution.objects.filter(
        participant__tournament=tournament, birth_date__isnull=False
    ).exists()
    document = export_document(tournament)
    text = json.dumps(document, ensure_ascii=False)
    assert not [name for name in names if name in text], "a name is left in the export"
    assert "1990-05-01" not in text and "1960-01-01" not in text
    for sheet in Scoresheet.objects.filter(match__tournament=tournament, digest__gt=""):
        assert all(seat["name"].startswith("Teilnehmer ") for seat in sheet.signed_as["seats"])
    # Each signed sheet sealed again, "anonymised", chained on; verify passes.
    links = list(Seal.objects.filter(tournament=tournament).order_by("sequence"))
    assert [link.kind for link in links[before:]] == ["anonymised"] * 3
    assert links[before].previous == links[before - 1].signature
    out = io.StringIO()
    call_command("verify", tournament.slug, stdout=out)
    assert "alles stimmt" in out.getvalue()
    logged = tournament.log.get(action="tournament.anonymise")
    assert logged.data["resealed"] == 3 and logged.data["differences"] == 0
    # A second run seals nothing more.
    purge(tournament)
    assert Seal.objects.filter(tournament=tournament).count() == before + 3
    # The anonymised export imports again (on another server too), and verifies there.
    settings.SEAL_KEY_FILE = tmp_path / "elsewhere"
    copy_ = import_plan(organiser, read_document(json.dumps(document), slug="kopie"))
    out = io.StringIO()
    call_command("verify", copy_.slug, stdout=out)
    assert "alles stimmt" in out.getvalue()
