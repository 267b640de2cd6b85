"""SQLite's writers wait in a queue for the write lock (tournament/sqlite_backend)."""

import threading
import time

import pytest
from django.db import connection

from tournament.sqlite_backend.base import DatabaseWrapper


def wrapper(path) -> DatabaseWrapper:
    # No busy timeout: without the queue a second writer would fail at once ("database is locked")
    options = {"transaction_mode": "IMMEDIATE", "timeout": 0}
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


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the suite runs on PostgreSQL")
def test_an_in_memory_database_has_no_queue(db):
    assert connection.is_in_memory_db() and connection._queue_path() is None
