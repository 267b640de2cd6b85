"""Jobs that stayed "running" for ever (issue 27, item 4): a file the disk has no room for ends
the job failed with the reason and leaves nothing behind; a worker's process id taken by
another process (after a reboot) no longer keeps its job from running again; a waiting or
running job is cancelled from the downloads page and ends "abgebrochen", without a file."""

import errno
import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from tournament.jobs import runner
from tournament.jobs.models import Job
from tournament.storage import private_storage

pytestmark = pytest.mark.django_db(transaction=True)  # the worker closes its connections

CANCELLED = f"{runner.Cancelled.__module__}.{runner.Cancelled.__qualname__}"


def work():
    call_command("run_jobs", batch=True, startup_delay=False, verbosity=0, stdout=io.StringIO())


@pytest.fixture
def folder(settings, tmp_path):
    """The private files of this test alone: what a job leaves is seen here."""
    settings.PRIVATE_ROOT = tmp_path
    return tmp_path


def files(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def test_a_full_disk_fails_the_job_with_its_reason_and_leaves_no_part_of_the_file(
    played, organiser, client, folder, monkeypatch
):
    monkeypatch.setitem(
        runner.BUILDERS, Job.Kind.WORKBOOK, lambda job, progress: ("a.xlsx", "x/y", b"x" * 1000)
    )
    real = private_storage._save

    def full(name, content):
        """Half the file is written, then the disk is full."""
        path = Path(private_storage.path(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.read()[:500])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(private_storage, "_save", full)
    job = runner.start(played, Job.Kind.WORKBOOK, "Excel", user=organiser)
    work()
    job.refresh_from_db()
    assert job.status == "failed" and not job.file
    assert job.error == (
        f"Die Datei konnte nicht gespeichert werden ({os.strerror(errno.ENOSPC)}): ist der Speicher voll?"
    )
    assert files(folder) == []
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert task.status == "FAILED" and "No space left on device" in task.traceback
    client.force_login(organiser)
    page = client.get(reverse("organiser:downloads", args=[played.slug])).content.decode()
    assert "Die Datei konnte nicht gespeichert werden" in page and "hx-trigger" not in page

    # With room again, the same file is saved under the job's own name.
    monkeypatch.setattr(private_storage, "_save", real)
    again = runner.start(played, Job.Kind.WORKBOOK, "Excel", user=organiser)
    work()
    again.refresh_from_db()
    assert again.status == "done" and again.file.read() == b"x" * 1000
    assert files(folder) == [f"jobs/{again.pk}-a.xlsx"]


def test_a_worker_process_id_now_of_another_process_is_not_that_worker(played):
    """After a reboot the dead worker's process id may belong to any process: here the test's
    own, whose start time is not the worker's."""
    job = runner.start(played, Job.Kind.WORKBOOK, "Excel")
    host, pid, started = runner.worker_id().split(":")
    assert int(pid) == os.getpid()
    other = f"{host}:{pid}:{float(started) - 3600:.2f}"  # the same id, an hour earlier
    DBTaskResult.objects.filter(pk=job.task_id).update(status="RUNNING", worker_ids=[other])
    Job.objects.filter(pk=job.pk).update(status="running", heartbeat=runner.timezone.now())
    # This very worker (the same id and start time) is alive: its task is left alone.
    mine = runner.start(played, Job.Kind.WORKBOOK, "Excel 2")
    DBTaskResult.objects.filter(pk=mine.task_id).update(status="RUNNING", worker_ids=[runner.worker_id()])
    Job.objects.filter(pk=mine.pk).update(status="running")

    assert runner.requeue_interrupted() == 1
    assert Job.objects.get(pk=job.pk).status == "queued"
    assert DBTaskResult.objects.get(pk=job.task_id).status == "READY"
    assert Job.objects.get(pk=mine.pk).status == "running"


def test_a_waiting_job_cancelled_from_the_page_never_runs(played, organiser, client, monkeypatch):
    ran = []
    monkeypatch.setitem(runner.BUILDERS, Job.Kind.WORKBOOK, lambda job, progress: ran.append(job))
    job = runner.start(played, Job.Kind.WORKBOOK, "Excel", user=organiser)
    client.force_login(organiser)
    downloads = reverse("organiser:downloads", args=[played.slug])
    cancel = reverse("organiser:download_cancel", args=[played.slug, job.pk])
    assert cancel in client.get(downloads).content.decode()
    page = client.post(cancel, follow=True).content.decode()
    assert "„Excel“ wurde abgebrochen." in page or "“Excel” wurde abgebrochen." in page
    job.refresh_from_db()
    assert job.status == "cancelled" and job.finished is not None
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert (task.status, task.exception_class_path) == ("FAILED", CANCELLED)

    work()
    assert ran == [] and Job.objects.get(pk=job.pk).status == "cancelled"
    row = client.get(downloads).content.decode()
    assert "abgebrochen" in row and cancel not in row and "hx-trigger" not in row
    # Cancelled twice (a second click): said, nothing else happens.
    page = client.post(cancel, follow=True).content.decode()
    assert "nichts abzubrechen" in page


def test_a_running_job_stops_at_its_next_progress_point(played, organiser, folder, monkeypatch):
    monkeypatch.setattr(runner, "PROGRESS_EVERY", 0)
    reached = []

    def long_work(job, progress):
        progress(0, 3)
        runner.cancel(job)  # the organiser clicks "Abbrechen" while sheet 1 is laid out
        reached.append(1)
        progress(1, 3)
        reached.append(2)  # never
        return "a.pdf", "application/pdf", b"%PDF"

    monkeypatch.setitem(runner.BUILDERS, Job.Kind.SCORESHEETS, long_work)
    job = runner.start(played, Job.Kind.SCORESHEETS, "Spiellisten", user=organiser, match=1)
    work()
    job.refresh_from_db()
    assert reached == [1] and (job.status, job.file.name) == ("cancelled", "")
    assert files(folder) == []
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert (task.status, task.exception_class_path) == ("FAILED", CANCELLED)


def test_a_job_cancelled_after_its_last_progress_point_leaves_no_file(played, organiser, folder, monkeypatch):
    def cancelled_at_the_end(job, progress):
        progress(1, 1)
        runner.cancel(job)
        return "a.pdf", "application/pdf", b"%PDF"

    monkeypatch.setitem(runner.BUILDERS, Job.Kind.RANKINGS, cancelled_at_the_end)
    job = runner.start(played, Job.Kind.RANKINGS, "Rangliste", user=organiser)
    work()
    job.refresh_from_db()
    assert (job.status, job.file.name) == ("cancelled", "") and files(folder) == []


def test_a_cancelled_job_of_a_dead_worker_is_closed_not_queued_again(played):
    job = runner.start(played, Job.Kind.WORKBOOK, "Excel")
    DBTaskResult.objects.filter(pk=job.task_id).update(status="RUNNING", worker_ids=["other-host:12"])
    Job.objects.filter(pk=job.pk).update(status="running")
    runner.cancel(job)
    assert DBTaskResult.objects.get(pk=job.task_id).status == "RUNNING"  # its worker stops it
    Job.objects.filter(pk=job.pk).update(heartbeat=runner.timezone.now() - runner.STALE_AFTER * 2)
    assert runner.requeue_interrupted() == 0
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert (task.status, task.exception_class_path) == ("FAILED", CANCELLED)
    assert Job.objects.get(pk=job.pk).status == "cancelled"


def test_a_referee_does_not_cancel_the_organisers_job(played, organiser, referee, client):
    theirs = runner.start(played, Job.Kind.RANKINGS, "Rangliste", user=organiser)
    mine = runner.start(played, Job.Kind.RANKINGS, "Meine Rangliste", user=referee)
    client.force_login(referee)
    page = client.get(reverse("organiser:downloads", args=[played.slug])).content.decode()
    assert reverse("organiser:download_cancel", args=[played.slug, mine.pk]) in page
    assert reverse("organiser:download_cancel", args=[played.slug, theirs.pk]) not in page
    answer = client.post(reverse("organiser:download_cancel", args=[played.slug, theirs.pk]))
    assert answer.status_code == 403 and Job.objects.get(pk=theirs.pk).status == "queued"
    client.post(reverse("organiser:download_cancel", args=[played.slug, mine.pk]))
    assert Job.objects.get(pk=mine.pk).status == "cancelled"
    # The organiser cancels anyone's.
    client.force_login(organiser)
    client.post(reverse("organiser:download_cancel", args=[played.slug, theirs.pk]))
    assert Job.objects.get(pk=theirs.pk).status == "cancelled"
