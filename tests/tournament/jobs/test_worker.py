"""The job worker outlasts a locked database (issue 27, item 2): a poll that finds SQLite's lock
held after its wait is logged and tried again, where django-tasks-db's worker stopped. It holds
the lease of its job and takes back those of stopped workers on other machines (issue 29.3)."""

import io
import logging
import os
import time
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.db.utils import OperationalError
from django.utils import timezone
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from tournament.jobs import runner
from tournament.jobs import worker as worker_module
from tournament.jobs.models import Job
from tournament.jobs.runner import BUILDERS, STALE_AFTER, start

pytestmark = pytest.mark.django_db(transaction=True)  # the worker closes its connections


@pytest.fixture
def locked_polls(monkeypatch):
    """The worker's first two polls find the database locked, as after 20 s of another
    process's write; the pauses between polls are counted, not slept."""
    real = db_worker.exclusive_transaction
    polls, pauses = [], []

    @contextmanager
    def exclusive_transaction(using=None):
        polls.append(using)
        if len(polls) <= 2:
            raise OperationalError("database is locked")
        with real(using):
            yield

    monkeypatch.setattr(db_worker, "exclusive_transaction", exclusive_transaction)
    monkeypatch.setattr(worker_module.time, "sleep", pauses.append)
    return polls, pauses


def test_a_locked_database_in_the_poll_is_tried_again(locked_polls, tournament, monkeypatch, caplog):
    polls, pauses = locked_polls
    monkeypatch.setitem(BUILDERS, "workbook", lambda job, progress: ("a.txt", "text/plain", b"made"))
    job = start(tournament, "workbook", "Arbeitsmappe")
    with caplog.at_level(logging.WARNING, logger="tournament.jobs.worker"):
        call_command("run_jobs", batch=True, startup_delay=False, verbosity=0, stdout=io.StringIO())
    # Two locked polls, each logged and followed by a pause; then the job ran.
    assert len(polls) >= 3 and pauses[:2] == [worker_module.LOCK_PAUSE] * 2
    assert [r.getMessage() for r in caplog.records].count(
        f"The job worker found the database locked; it polls again in {worker_module.LOCK_PAUSE} s."
    ) == 2
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.file.read() == b"made"


def test_other_database_errors_still_end_the_worker(monkeypatch):
    @contextmanager
    def broken(using=None):
        raise OperationalError("no such table: django_tasks_database_dbtaskresult")
        yield

    monkeypatch.setattr(db_worker, "exclusive_transaction", broken)
    with pytest.raises(OperationalError, match="no such table"):
        call_command("run_jobs", batch=True, startup_delay=False, verbosity=0, stdout=io.StringIO())


def test_the_worker_holds_the_lease_of_a_silent_job_and_takes_back_a_lost_one(
    tournament, settings, tmp_path, monkeypatch
):
    """Issue 29.3: a job that makes no progress for long (one large layout) keeps its lease, as
    the worker renews its heartbeat; a job of a worker on another machine whose lease ran out is
    queued again by this worker while it runs, not only at its next start."""
    settings.PRIVATE_ROOT = tmp_path
    monkeypatch.setattr(worker_module, "LEASE_BEAT", 0.05)
    monkeypatch.setattr(worker_module, "REQUEUE_EVERY", 0.1)
    old = timezone.now() - STALE_AFTER * 2
    seen = {}

    def silent(job, progress):
        Job.objects.filter(pk=job.pk).update(heartbeat=old)  # as if it had been silent for long
        # Meanwhile the worker of another machine, running a job, went down: its lease runs out.
        lost = start(tournament, "rankings", "Rangliste")
        DBTaskResult.objects.filter(pk=lost.task_id).update(
            status="RUNNING", worker_ids=["machine-b:12:1.00"]
        )
        Job.objects.filter(pk=lost.pk).update(status="running", heartbeat=old)
        seen["lost"] = lost.task_id
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (seen.get("renewed") and seen.get("requeued")):
            time.sleep(0.05)
            seen["renewed"] = Job.objects.get(pk=job.pk).heartbeat > old
            seen["requeued"] = Job.objects.get(task_id=lost.task_id).status == Job.Status.QUEUED
        return ("a.txt", "text/plain", b"made")

    monkeypatch.setitem(BUILDERS, "workbook", silent)
    job = start(tournament, "workbook", "Arbeitsmappe")
    call_command("run_jobs", batch=True, startup_delay=False, verbosity=0, stdout=io.StringIO(), max_tasks=1)
    lost = seen.pop("lost")
    assert seen == {"renewed": True, "requeued": True}
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    assert DBTaskResult.objects.get(pk=lost).status == "READY"  # for the next poll


def test_a_worker_is_named_by_its_machine(settings):
    settings.MACHINE_NAME = "maschine-b"
    assert runner.worker_id().startswith("maschine-b:")
    # A process id of another machine is never judged by this machine's process table.
    assert runner._alive(f"maschine-a:{os.getpid()}:1.00") is None
