"""Django's SQLite backend, with the writers of one database file taking turns in a queue.

SQLite lets one writer at a time hold its database, and a transaction takes the write lock at
its start (``transaction_mode`` IMMEDIATE, settings). A writer that finds the lock taken does not
wait in a queue: SQLite's busy handler sleeps and tries again, at growing intervals of up to
100 ms. With the hall's server answering many table phones at once (issue 16), the lock then
often lay free while the writers waiting for it slept, and answers queued for seconds.

Here each transaction first takes an exclusive ``flock`` on a file beside the database: the
kernel wakes the next waiting writer the moment the lock is released (at the commit or the
rollback), whichever process or thread it is in. Writes outside a transaction (autocommit) and
readers are untouched; an in-memory database (the tests') has no file and no queue."""

from __future__ import annotations

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _queue_file: int | None = None
    _in_queue = False

    def _queue_path(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        if self.is_in_memory_db() or not name:
            return None
        return name + "-writers"

    def _enter_queue(self) -> None:
        if self._in_queue:
            return
        if self._queue_file is None:
            path = self._queue_path()
            if path is None:
                return
            self._queue_file = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._queue_file, fcntl.LOCK_EX)  # waits without the GIL
        self._in_queue = True

    def _leave_queue(self) -> None:
        if self._in_queue and self._queue_file is not None:
            fcntl.flock(self._queue_file, fcntl.LOCK_UN)
        self._in_queue = False

    def _start_transaction_under_autocommit(self):
        self._enter_queue()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._leave_queue()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._leave_queue()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._leave_queue()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._leave_queue()
            if self._queue_file is not None:
                os.close(self._queue_file)
                self._queue_file = None
