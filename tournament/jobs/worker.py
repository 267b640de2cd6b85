"""The job worker's loop (``manage.py run_jobs``): django-tasks-db's worker, which keeps polling
while another process holds SQLite's lock, holds the lease of the job it runs, and takes back
the jobs of workers that stopped, on whichever machine."""

from __future__ import annotations

import logging
import threading
import time

from django.db import connections
from django.db.utils import OperationalError
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.utils import is_locked_database_exception

from .runner import LEASE_BEAT, renew_lease, requeue_interrupted

logger = logging.getLogger(__name__)

LOCK_PAUSE = 2.0  # seconds between a poll that found the database locked and the next
REQUEUE_EVERY = 60.0  # seconds between two looks for the jobs of stopped workers


class PatientWorker(Worker):
    """A poll that waited for SQLite's lock as long as the database allows (20 s, settings) and
    still found it held stops django-tasks-db's worker ("database is locked" outside its own
    ``try``, when it opens its exclusive transaction). This one logs it, pauses and polls again
    (# issue 27.2): a long write elsewhere delays the jobs, it does not end the worker. Other
    errors still end it, and the hall starts it again.

    Beside the loop a thread (its own database connection) renews the lease of the job being
    run every ``LEASE_BEAT`` seconds and looks for the jobs of stopped workers every
    ``REQUEUE_EVERY`` (# issue 29.3: several machines, each with its worker; a worker on a
    machine that went down is noticed by the others, not only by its own restart)."""

    current_task = None  # the id of the task being run, for the lease thread

    def run_task(self, db_task_result) -> None:
        self.current_task = db_task_result.id
        try:
            super().run_task(db_task_result)
        finally:
            self.current_task = None

    def run(self) -> None:
        stop = threading.Event()
        lease = threading.Thread(target=self._lease, args=(stop,), name="job-lease", daemon=True)
        lease.start()
        try:
            self._run()
        finally:
            stop.set()
            lease.join(timeout=10)

    def _lease(self, stop: threading.Event) -> None:
        next_look = time.monotonic() + REQUEUE_EVERY
        while not stop.wait(LEASE_BEAT):
            try:
                if self.current_task is not None:
                    renew_lease(self.current_task)
                if time.monotonic() >= next_look:
                    next_look = time.monotonic() + REQUEUE_EVERY
                    if requeued := requeue_interrupted():
                        logger.warning("%s job(s) of stopped workers queued again.", requeued)
            except Exception:  # the next beat tries again; the jobs go on meanwhile
                logger.exception("The job worker could not renew its lease.")
            finally:
                connections.close_all()  # this thread's own connection

    def _run(self) -> None:
        while True:
            try:
                super().run()
                return
            except OperationalError as error:
                if not is_locked_database_exception(error) or not self.running:
                    raise
                logger.warning(
                    "The job worker found the database locked; it polls again in %s s.", LOCK_PAUSE
                )
            connections.close_all()  # the next poll starts on a fresh connection
            self.startup_delay = False
            time.sleep(LOCK_PAUSE)
