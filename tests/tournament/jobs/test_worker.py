"""The job worker outlasts a locked database (issue 27, item 2): a poll that finds SQLite's lock
held after its wait is logged and tried again, where django-tasks-db's worker stopped."""

import io
import logging
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.db.utils import OperationalError
from django_tasks_db.management.commands import db_worker

from tournament.jobs import worker as worker_module
from tournament.jobs.models import Job
from tournament.jobs.runner import BUILDERS, start

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
