"""The job worker's loop (``manage.py run_jobs``): django-tasks-db's worker, which keeps polling
while another process holds SQLite's lock."""

from __future__ import annotations

import logging
import time

from django.db import connections
from django.db.utils import OperationalError
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.utils import is_locked_database_exception

logger = logging.getLogger(__name__)

LOCK_PAUSE = 2.0  # seconds between a poll that found the database locked and the next


class PatientWorker(Worker):
    """A poll that waited for SQLite's lock as long as the database allows (20 s, settings) and
    still found it held stops django-tasks-db's worker ("database is locked" outside its own
    ``try``, when it opens its exclusive transaction). This one logs it, pauses and polls again
    (# issue 27.2): a long write elsewhere delays the jobs, it does not end the worker. Other
    errors still end it, and the hall starts it again."""

    def run(self) -> None:
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
