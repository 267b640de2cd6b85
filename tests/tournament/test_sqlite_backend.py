"""SQLite's writers wait in a queue for the write lock (tournament/sqlite_backend)."""

import threading
import time

import pytest
from django.db import connection

from tournament.sqlite_backend.base import DatabaseWrapper


def wrapper(path, queue_timeout: float = 30) -> DatabaseWrapper:
    # No busy timeout: without the queue a second writer would fail at once ("database is locked")
    options = {"transaction_mode": "IMMEDIATE", "timeout": 0, "queue_timeout": queue_timeout}
    settings = {**connection.settings_dict, "NAME": str(path), "OPTIONS": options}
    return DatabaseWrapper(settings, alias=f"queue-{threading.get_ident()}")


def begin(db: DatabaseWrapper) -> None:
    db.ensure_connection()
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


@pytest.fixture(autouse=True)
def own_files(django_db_blocker):
    """These tests open SQLite files of their own, whatever database the suite runs on."""
    with django_db_blocker.unblock():
        yield


def test_a_writer_waits_until_the_other_commits_then_goes_on(tmp_path):
    path = tmp_path / "hall.sqlite3"
    first = wrapper(path)
    begin(first)
    first.cursor().execute("CREATE TABLE games (n integer)")
    times = {}

    def second_writer():
        second = wrapper(path)
        times["asked"] = time.monotonic()
        begin(second)  # waits here while the first holds the queue
        times["began"] = time.monotonic()
        second.cursor().execute("INSERT INTO games VALUES (2)")
        second.commit()
        second.set_autocommit(True)
        second.close()

    thread = threading.Thread(target=second_writer)
    thread.start()
    time.sleep(0.3)
    assert "began" not in times  # queued, not failing and not sleeping past the commit
    first.cursor().execute("INSERT INTO games VALUES (1)")
    committed = time.monotonic()
    first.commit()
    thread.join(timeout=10)
    assert times["began"] >= committed  # it waited in the queue, and did not fail
    first.set_autocommit(True)
    assert [row[0] for row in first.cursor().execute("SELECT n FROM games ORDER BY n")] == [1, 2]
    first.close()
    assert (tmp_path / "hall.sqlite3-writers").exists()


def test_a_rollback_leaves_the_queue_too(tmp_path):
    path = tmp_path / "hall.sqlite3"
    first = wrapper(path)
    begin(first)
    first.rollback()
    first.set_autocommit(True)
    done = threading.Event()

    def second_writer():
        second = wrapper(path)
        begin(second)
        second.commit()
        second.close()
        done.set()

    thread = threading.Thread(target=second_writer)
    thread.start()
    assert done.wait(timeout=5)
    thread.join()
    first.close()


def test_a_write_outside_a_transaction_takes_its_turn_too(tmp_path):
    """A plain write (autocommit, e.g. a phone's "last seen") waits in the same queue: it would
    otherwise find the lock passed from one queued writer to the next and fail."""
    path = tmp_path / "hall.sqlite3"
    first = wrapper(path)
    first.ensure_connection()
    first.cursor().execute("CREATE TABLE games (n integer)")
    begin(first)
    first.cursor().execute("INSERT INTO games VALUES (1)")
    done = {}

    def plain_writer():
        second = wrapper(path)
        try:
            second.cursor().execute("INSERT INTO games VALUES (2)")  # autocommit
            done["ok"] = time.monotonic()
        except Exception as error:  # noqa: BLE001 (told to the test)
            done["error"] = error
        second.close()

    thread = threading.Thread(target=plain_writer)
    thread.start()
    time.sleep(0.3)
    assert not done  # waiting in the queue (SQLite alone, with no busy timeout, fails at once)
    committed = time.monotonic()
    first.commit()
    thread.join(timeout=10)
    assert "error" not in done and done["ok"] >= committed
    first.set_autocommit(True)
    assert [row[0] for row in first.cursor().execute("SELECT n FROM games ORDER BY n")] == [1, 2]
    first.close()


def the_next_writer_gets_its_turn(path, first) -> None:
    """The holder commits, and a writer coming next begins at once: a wait given up meanwhile
    left no lock behind (its waiting thread's lock, taken at the commit, went with its file;
    kept, this writer would wait its 10 s and fail)."""
    first.commit()
    first.set_autocommit(True)
    third = wrapper(path, queue_timeout=10)
    begin(third)
    third.commit()
    third.close()
    first.close()


def test_a_writer_gives_up_after_the_timeout_and_leaves_no_lock_behind(tmp_path):
    from django.db import OperationalError

    path = tmp_path / "hall.sqlite3"
    first = wrapper(path)
    begin(first)
    second = wrapper(path, queue_timeout=0.3)
    started = time.monotonic()
    with pytest.raises(OperationalError, match="database is locked"):
        begin(second)
    assert time.monotonic() - started >= 0.3
    second.close()
    the_next_writer_gets_its_turn(path, first)


def test_without_a_queue_file_the_writers_still_write(tmp_path, caplog):
    path = tmp_path / "hall.sqlite3"
    (tmp_path / "hall.sqlite3-writers").mkdir()  # cannot be opened as the queue's file
    db = wrapper(path)
    begin(db)
    db.cursor().execute("CREATE TABLE games (n integer)")
    db.commit()
    db.close()
    assert "without a queue" in caplog.text


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the suite runs on PostgreSQL")
def test_an_in_memory_database_has_no_queue(db):
    assert connection.is_in_memory_db() and connection._queue_path() is None


def test_a_wait_cut_short_leaves_no_lock_behind(tmp_path, monkeypatch):
    """A writer interrupted while it waits (a signal's SystemExit in the job worker, say) gives
    its place up like one that timed out: the lock its waiting thread takes later goes with the
    file, and the next writer gets its turn."""
    path = tmp_path / "hall.sqlite3"
    first = wrapper(path)
    begin(first)
    second = wrapper(path, queue_timeout=30)

    def interrupted(self, timeout=None):
        raise SystemExit("stopped")

    monkeypatch.setattr(threading.Event, "wait", interrupted)
    with pytest.raises(SystemExit):
        begin(second)
    monkeypatch.undo()
    second.close()
    the_next_writer_gets_its_turn(path, first)


def test_a_process_forked_while_a_writer_waits_keeps_no_copy_of_its_wait(tmp_path):
    import os

    from tournament.sqlite_backend import base

    path = tmp_path / "hall.sqlite3"
    first = wrapper(path)
    begin(first)
    second = wrapper(path, queue_timeout=0.2)
    with pytest.raises(Exception, match="database is locked"):
        begin(second)  # its waiting thread still waits for the lock
    assert base._waiting
    child = os.fork()
    if child == 0:  # the child: every waiting descriptor closed at the fork
        os._exit(0 if not base._waiting else 1)
    _pid, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    second.close()
    first.commit()
    first.close()
