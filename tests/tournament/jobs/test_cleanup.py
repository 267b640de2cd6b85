"""Smaller faults of issue 27 (item 13): a referee does not remove the organiser's downloads;
the scan page answers a scan file gone from the disk with a message; uploads nobody imported
go after a day (tests/tournament/tournaments/test_retention.py)."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.translation import gettext

from tournament.jobs import runner
from tournament.jobs.models import Job
from tournament.results import signing

pytestmark = pytest.mark.django_db


def test_a_referee_does_not_remove_the_organisers_downloads(played, organiser, referee, client):
    theirs = runner.start(played, Job.Kind.RANKINGS, "Rangliste", user=organiser)
    runner.run(theirs.pk)
    mine = runner.start(played, Job.Kind.RANKINGS, "Meine Rangliste", user=referee)
    runner.run(mine.pk)
    client.force_login(referee)
    page = client.get(reverse("organiser:downloads", args=[played.slug])).content.decode()
    assert reverse("organiser:download_delete", args=[played.slug, mine.pk]) in page
    assert reverse("organiser:download_delete", args=[played.slug, theirs.pk]) not in page
    answer = client.post(reverse("organiser:download_delete", args=[played.slug, theirs.pk]))
    assert answer.status_code == 403 and Job.objects.filter(pk=theirs.pk).exists()
    client.post(reverse("organiser:download_delete", args=[played.slug, mine.pk]))
    assert not Job.objects.filter(pk=mine.pk).exists()
    client.force_login(organiser)
    client.post(reverse("organiser:download_delete", args=[played.slug, theirs.pk]))
    assert not Job.objects.filter(pk=theirs.pk).exists()


def test_a_scan_gone_from_the_disk_is_answered_with_a_message(
    played, sheet_of, referee, client, settings, tmp_path
):
    settings.PRIVATE_ROOT = tmp_path
    sheet = sheet_of(played, 1, 1)
    scan = SimpleUploadedFile("liste.jpg", b"\xff\xd8\xff\xe0 scan", content_type="image/jpeg")
    signing.record_paper_signatures(referee, sheet, scan, sheet.version)
    sheet.refresh_from_db()
    Path(sheet.paper_scan.path).unlink()
    client.force_login(referee)
    answer = client.get(reverse("referee:scan", args=[played.slug, 1, 1]), follow=True)
    assert answer.status_code == 200
    assert gettext("The scan of this sheet is missing from the server's files.") in answer.content.decode()
