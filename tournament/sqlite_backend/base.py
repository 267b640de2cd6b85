"""Django's SQLite backend, with the writers of one database file taking turns in a queue.

SQLite lets one writer at a time hold its database, and a transaction takes the write lock at
its start (``transaction_mode`` IMMEDIATE, settings). A writer that finds the lock taken does not
wait in a queue: SQLite's busy handler sleeps and tries again, at growing intervals of up to
100 ms. With the hall's server answering many table phones at once (issue 16), the lock then
often lay free while the writers waiting for it slept, and answers queued for seconds.

Here every writer first takes an exclusive ``flock`` on a file beside the database: each
transaction from its start to its commit or rollback, and each write outside a transaction
(autocommit) for its statement, which would otherwise find the lock passed from one queued
writer to the next and never free. The kernel wakes the next waiting writer the moment the
lock is released, whichever process or thread it is in, and releases it if its holder dies.
A writer waits at most the ``timeout`` option's seconds, as long as SQLite's busy handler
would have (or ``queue_timeout``'s), and then fails as SQLite does ("database is locked").
Readers are untouched; an in-memory database (the tests') has no file and no queue, nor has a
folder where the queue's file cannot be made or opened (the writers then wait as SQLite lets
them)."""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from contextlib import contextmanager, nullcontext

from django.db.backends.sqlite3 import base
from django.db.utils import OperationalError

logger = logging.getLogger(__name__)

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


# The waiting threads' descriptors: a process forked meanwhile (the job worker lays out PDFs in
# forked processes) closes its copies, or a lock taken later would stay with the child.
_waiting: set[int] = set()


def _close_waiting_in_child() -> None:
    for duplicate in list(_waiting):
        os.close(duplicate)
    _waiting.clear()


os.register_at_fork(after_in_child=_close_waiting_in_child)


def _lock(descriptor: int, timeout: float) -> bool:
    """Take the exclusive lock on ``descriptor`` within ``timeout`` seconds. The wait is the
    kernel's (``flock`` blocks in a thread of its own); False when it was not taken in time. A
    caller that gives up (False, or an exception while it waits) closes ``descriptor``: the
    lock, if the waiting thread takes it later, then goes with the file."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        pass
    if timeout <= 0:
        return False
    taken = threading.Event()
    # The waiting thread's own descriptor of the same open file: the lock it takes is the
    # caller's, and if the caller gave up and closed his, it goes when this one is closed.
    duplicate = os.dup(descriptor)
    _waiting.add(duplicate)

    def wait() -> None:
        try:
            fcntl.flock(duplicate, fcntl.LOCK_EX)  # waits without the GIL
            taken.set()
        finally:
            _waiting.discard(duplicate)
            os.close(duplicate)

    threading.Thread(target=wait, daemon=True, name="sqlite-writers-queue").start()
    return taken.wait(timeout)


class QueuedCursor(base.SQLiteCursorWrapper):
    """A write outside a transaction takes its turn in the queue for its statement."""

    queue: DatabaseWrapper

    def _turn(self, query: str):
        if self.connection.in_transaction or not query.lstrip()[:7].upper().startswith(WRITES):
            return nullcontext()
        return self.queue.queued()

    def execute(self, query, params=None):
        with self._turn(query):
            return super().execute(query, params)

    def executemany(self, query, param_list):
        with self._turn(query):
            return super().executemany(query, param_list)


class DatabaseWrapper(base.DatabaseWrapper):
    _queue_file: int | None = None
    _in_queue = False
    _no_queue = False  # the queue's file could not be made or opened

    def get_connection_params(self):
        params = super().get_connection_params()
        params.pop("queue_timeout", None)  # the queue's, not sqlite3's
        return params

    def _queue_timeout(self) -> float:
        """How long a writer waits for its turn: the ``queue_timeout`` option, else SQLite's
        own busy ``timeout`` (5 s by default)."""
        options = self.settings_dict["OPTIONS"]
        return float(options.get("queue_timeout", options.get("timeout", 5)))

    def _queue_path(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        if self.is_in_memory_db() or not name:
            return None
        return name + "-writers"

    def _open_queue(self) -> int | None:
        if self._queue_file is None and not self._no_queue:
            path = self._queue_path()
            if path is None:
                self._no_queue = True
                return None
            try:
                # Read-only will do for flock: whoever made the file, every user of the
                # database can take turns with it.
                self._queue_file = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
            except OSError as error:
                self._no_queue = True
                logger.warning("SQLite writers wait without a queue: %s cannot be opened (%s)", path, error)
        return self._queue_file

    def _enter_queue(self) -> None:
        if self._in_queue:
            return
        descriptor = self._open_queue()
        if descriptor is None:
            return
        taken = False
        try:
            taken = _lock(descriptor, self._queue_timeout())
        finally:  # not taken in time, or interrupted while waiting (a signal's SystemExit, say)
            if not taken:
                # Closed, so that the waiting thread's lock, if it comes, goes with the file;
                # the next transaction opens it anew.
                self._queue_file = None
                os.close(descriptor)
        if not taken:
            raise OperationalError("database is locked")
        self._in_queue = True

    def _leave_queue(self) -> None:
        if self._in_queue and self._queue_file is not None:
            fcntl.flock(self._queue_file, fcntl.LOCK_UN)
        self._in_queue = False

    @contextmanager
    def queued(self):
        """The queue held for one write outside a transaction (autocommit)."""
        if self._in_queue:
            yield
            return
        self._enter_queue()
        try:
            yield
        finally:
            self._leave_queue()

    def create_cursor(self, name=None):
        cursor = self.connection.cursor(factory=QueuedCursor)
        cursor.queue = self
        return cursor

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
