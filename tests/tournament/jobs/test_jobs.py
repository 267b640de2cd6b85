"""Background jobs: big work is queued from its page, runs in the worker to its file with its
progress, says why it failed, and runs again after the worker was stopped in the middle."""

import io
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from tournament.errors import ServiceError
from tournament.jobs import runner
from tournament.jobs.models import Job
from tournament.printing import views as printing_views

from ..processes import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def work():
    call_command("run_jobs", batch=True, startup_delay=False, verbosity=0, stdout=io.StringIO())


@pytest.fixture
def big(monkeypatch):
    """Every match counts as big: its scoresheets go to the worker."""
    monkeypatch.setattr(printing_views, "AT_ONCE_SHEETS", {True: 1, False: 1})


def test_a_whole_match_runs_in_the_background_to_its_file(client, played, organiser, big):
    client.force_login(organiser)
    url = reverse("organiser:print_scoresheets", args=[played.slug, 1, "pdf"])
    response = client.get(url)
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"/downloads/#job-{job.pk}")
    assert (job.status, job.kind, job.params["match"], job.params["blank"]) == (
        "queued",
        "scoresheets",
        1,
        False,
    )
    # Asked for again while it waits: the same job, not a second one.
    client.get(url)
    assert Job.objects.count() == 1
    page = client.get(reverse("organiser:downloads", args=[played.slug])).content.decode()
    assert "Spiellisten mit Spielen, Durchgang 1" in page and "<progress" in page and "hx-trigger" in page

    work()

    job.refresh_from_db()
    assert (job.status, job.done, job.total, job.error) == ("done", 3, 3, "")
    page = client.get(reverse("organiser:downloads", args=[played.slug])).content.decode()
    assert f"{played.slug}-match1-filled.pdf" in page and "hx-trigger" not in page  # stops polling
    response = client.get(reverse("organiser:download_file", args=[played.slug, job.pk]))
    pdf = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    assert response["Content-Type"] == "application/pdf" and len(pdf.pages) == 3


def test_the_worker_lays_out_in_parts_and_reports_each(played, organiser, monkeypatch):
    monkeypatch.setattr("tournament.printing.pdf.PART_SHEETS_FILLED", 1)
    seen = []
    monkeypatch.setattr(runner, "PROGRESS_EVERY", 0)
    real = runner._progress

    def spy(job):
        inner = real(job)

        def progress(done, total):
            seen.append((done, total))
            inner(done, total)

        return progress

    monkeypatch.setattr(runner, "_progress", spy)
    runner.start(played, Job.Kind.SCORESHEETS, "Durchgang 2", match=2, blank=False)
    work()
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert Job.objects.get().status == "done"


def test_a_failing_job_says_why_on_the_page(client, played, organiser, monkeypatch):
    def refuse(job, progress):
        raise ServiceError("Durchgang 1 ist nicht ausgelost.")

    monkeypatch.setitem(runner.BUILDERS, Job.Kind.SCORESHEETS, refuse)
    job = runner.start(played, Job.Kind.SCORESHEETS, "Spiellisten", match=1, blank=True)
    work()
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "Durchgang 1 ist nicht ausgelost.")
    client.force_login(organiser)
    page = client.get(reverse("organiser:downloads", args=[played.slug])).content.decode()
    assert "fehlgeschlagen: Durchgang 1 ist nicht ausgelost." in page


def test_an_unexpected_error_is_named_and_kept_with_its_traceback(played, monkeypatch):
    def crash(job, progress):
        raise RuntimeError("Platte voll")

    monkeypatch.setitem(runner.BUILDERS, Job.Kind.WORKBOOK, crash)
    job = runner.start(played, Job.Kind.WORKBOOK, "Excel")
    work()
    job.refresh_from_db()
    assert job.status == "failed" and "RuntimeError: Platte voll" in job.error
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert task.status == "FAILED" and "Platte voll" in task.traceback


def test_a_job_interrupted_by_a_stopped_worker_runs_again(played):
    job = runner.start(played, Job.Kind.SCORESHEETS, "Spiellisten", match=1, blank=True)
    # A worker on this machine claimed it, got half-way and was killed: its process is gone.
    gone = subprocess.Popen(["true"])
    gone.wait()
    # (An id as written before start times were recorded: host and process id.)
    host = runner.worker_id().split(":")[0]
    DBTaskResult.objects.filter(pk=job.task_id).update(status="RUNNING", worker_ids=[f"{host}:{gone.pid}"])
    Job.objects.filter(pk=job.pk).update(status="running", done=1, total=3)
    # A running worker's task is left alone.
    alive = runner.start(played, Job.Kind.SCORESHEETS, "Spiellisten 2", match=2, blank=True)
    DBTaskResult.objects.filter(pk=alive.task_id).update(status="RUNNING", worker_ids=[runner.worker_id()])

    assert runner.requeue_interrupted() == 1
    assert Job.objects.get(pk=job.pk).status == "queued"
    work()
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 3, 3)
    assert Job.objects.get(pk=alive.pk).status == "queued"  # still its live worker's


def test_a_job_of_another_machine_is_taken_back_only_when_it_went_silent(played):
    job = runner.start(played, Job.Kind.WORKBOOK, "Excel")
    DBTaskResult.objects.filter(pk=job.task_id).update(status="RUNNING", worker_ids=["other-host:12"])
    Job.objects.filter(pk=job.pk).update(status="running", heartbeat=runner.timezone.now())
    assert runner.requeue_interrupted() == 0
    Job.objects.filter(pk=job.pk).update(heartbeat=runner.timezone.now() - runner.STALE_AFTER * 2)
    assert runner.requeue_interrupted() == 1


def test_downloads_belong_to_their_tournament(client, played, organiser, foreign_organiser, big):
    job = runner.start(played, Job.Kind.SCORESHEETS, "Spiellisten", match=1, blank=True)
    work()
    client.force_login(foreign_organiser)
    assert client.get(reverse("organiser:download_file", args=[played.slug, job.pk])).status_code == 403
    assert client.get(reverse("organiser:downloads", args=[played.slug])).status_code == 403
    client.force_login(organiser)
    response = client.post(reverse("organiser:download_delete", args=[played.slug, job.pk]))
    assert response.status_code == 302 and not Job.objects.exists()


def test_small_work_still_answers_at_once(client, played, organiser):
    client.force_login(organiser)
    response = client.get(reverse("organiser:print_scoresheets", args=[played.slug, 1, "pdf"]))
    assert response["Content-Type"] == "application/pdf" and not Job.objects.exists()
    response = client.get(reverse("organiser:export_xlsx", args=[played.slug]))
    assert response["Content-Disposition"].startswith("attachment") and not Job.objects.exists()


def test_a_large_document_is_imported_by_the_worker(client, organiser, tournament, monkeypatch):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournament.exchange import views as exchange_views
    from tournament.models import Tournament

    monkeypatch.setattr(exchange_views, "AT_ONCE_GAMES", 100)  # the demo's 256 games count as large
    client.force_login(organiser)
    url = reverse("organiser:import_document")
    demo = (ROOT / "fixtures" / "demo.json").read_bytes()
    client.post(url, {"file": SimpleUploadedFile("demo.json", demo)})
    page = client.post(url, {"action": "import"}, follow=True).content.decode()
    assert "im Hintergrund" in page and "<progress" in page and "hx-trigger" in page
    assert not Tournament.objects.filter(name="Kirchweih-Schafkopf 2026").exists()
    # the page polls its part while the job waits
    assert 'id="import-jobs"' in client.get(url, HTTP_HX_REQUEST="true").content.decode()

    work()

    imported = Tournament.objects.get(name="Kirchweih-Schafkopf 2026")
    job = Job.objects.get(kind="import")
    assert (job.status, job.result_tournament, job.created_by) == ("done", imported, organiser)
    assert imported.staff.filter(user=organiser, role="organiser").exists()
    page = client.get(url).content.decode()
    assert "Kirchweih-Schafkopf 2026</a> wurde importiert." in page and "hx-trigger" not in page
    assert not list(exchange_views.upload_folder().iterdir())  # the upload went with the import
    # Queued again, and its upload lost meanwhile: the job says so, and nothing is saved.
    client.post(url, {"file": SimpleUploadedFile("demo.json", demo)})
    client.post(url, {"action": "import"})
    for upload in exchange_views.upload_folder().iterdir():
        upload.unlink()
    work()
    failed = Job.objects.filter(kind="import").order_by("-pk").first()
    assert (
        failed.status == "failed"
        and failed.error == "Die hochgeladene Datei ist nicht mehr da: bitte noch einmal hochladen."
    )
    assert Tournament.objects.filter(name="Kirchweih-Schafkopf 2026").count() == 1
