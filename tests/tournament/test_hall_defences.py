"""The hall stays up (issue 27, items 2 and 3): Caddy in front of gunicorn, so that clients
sending slowly hold Caddy's connections and not gunicorn's processes; gunicorn reached only
through Caddy, which tells it the client's address; the job worker started again when it dies,
the hall serving meanwhile."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import psutil
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournament.hall import Backoff, caddyfile, hall_addresses
from tournament.management.commands import hall as hall_command

from .processes import ROOT, own_database
from .test_hall import free_port, wait_for


@pytest.fixture
def local_hall(tmp_path):
    """manage.py hall on 127.0.0.1 only, with two gunicorn processes; gunicorn's access log
    shows what reached it (the address it saw and the forwarded headers)."""
    with own_database(tmp_path) as url:
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "SECRET_KEY_FILE": str(tmp_path / "secret_key"),
            "PRIVATE_ROOT": str(tmp_path / "private"),
            "CACHE_DIR": str(tmp_path / "cache"),
            "GUNICORN_CMD_ARGS": f"--access-logfile {tmp_path / 'access.log'} --access-logformat "
            "'%(h)s|%({x-forwarded-for}i)s|%({x-forwarded-proto}i)s|%(U)s|%(s)s'",
        }
        for name in (
            "SECRET_KEY",
            "DEBUG",
            "HALL_URL",
            "HTTPS",
            "PROXY",
            "HALL_DOMAIN",
            "TLS_CERT_FILE",
            "TLS_KEY_FILE",
            "HALL_TLS",
        ):
            env.pop(name, None)
        output = (tmp_path / "hall.log").open("w+")
        process = subprocess.Popen(
            [sys.executable, "manage.py", "hall", "--bind", "127.0.0.1", "--port", str(port), "--workers=2"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        process.stdout = output  # wait_for reads what it said if it stops
        try:
            wait_for(f"http://127.0.0.1:{port}/", process)
            config = (tmp_path / "private" / "run" / f"Caddyfile-{port}").read_text()
            upstream = int(re.search(r"reverse_proxy 127\.0\.0\.1:(\d+)", config).group(1))
            yield {
                "process": process,
                "port": port,
                "base": f"http://127.0.0.1:{port}",
                "upstream": upstream,
                "access": tmp_path / "access.log",
                "output": tmp_path / "hall.log",
            }
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    raise
            output.close()


def job_workers(process: subprocess.Popen) -> list[int]:
    """The hall's running job workers (one killed is a zombie until the hall notices)."""
    found = []
    for child in psutil.Process(process.pid).children():
        try:
            if "run_jobs" in child.cmdline():
                found.append(child.pid)
        except psutil.Error:
            continue
    return found


def test_a_killed_job_worker_is_started_again_while_the_hall_serves(local_hall):
    base, process = local_hall["base"], local_hall["process"]
    (worker,) = job_workers(process)
    os.kill(worker, signal.SIGKILL)
    assert httpx.get(f"{base}/", timeout=5).status_code == 200  # the web does not wait for it
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not [pid for pid in job_workers(process) if pid != worker]:
        time.sleep(0.2)
    (again,) = job_workers(process)
    assert again != worker and process.poll() is None
    assert httpx.get(f"{base}/", timeout=5).status_code == 200
    said = local_hall["output"].read_text()
    assert "The job worker stopped (killed by signal 9); it starts again in 1 s" in said
    assert "The job worker started again." in said


def test_slow_clients_do_not_block_a_normal_request(local_hall):
    """Thirty clients sending their request header a byte at a time hold Caddy's connections;
    gunicorn's two processes answer every normal request meanwhile, each within two seconds
    (the same clients sent to gunicorn directly make the requests time out after five)."""
    port, base = local_hall["port"], local_hall["base"]
    stop = threading.Event()

    def slow_client():
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 200:
                if stop.is_set():
                    return
                slow.send(bytes([byte]))
                time.sleep(0.1)

    slow_clients = [threading.Thread(target=slow_client, daemon=True) for _ in range(30)]
    for thread in slow_clients:
        thread.start()
    time.sleep(1)  # every slow client is connected and sending
    try:
        times = []
        for _ in range(10):
            started = time.monotonic()
            assert httpx.get(f"{base}/", timeout=5).status_code == 200
            times.append(time.monotonic() - started)
            time.sleep(0.2)
    finally:
        stop.set()
        for thread in slow_clients:
            thread.join(timeout=5)
    assert max(times) < 2.0, times


def test_a_request_reaches_the_app_through_caddy_with_the_client_address(local_hall):
    """Caddy sets X-Forwarded-For to the address it saw (a client's own is dropped) and
    X-Forwarded-Proto to its own scheme; gunicorn listens on 127.0.0.1 only."""
    base = local_hall["base"]
    guesser = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))  # not Caddy's 127.0.0.1
    with guesser:
        answer = guesser.get(
            f"{base}/", headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
        )
        assert answer.status_code == 200
        # The app counts wrong table codes by that address: a forged header escapes nothing,
        # and the guesser's lock-out is his own (issue 27, item 12).
        wrong = [
            guesser.get(f"{base}/tisch/ZZZZZZZZ{n:02d}/", headers={"X-Forwarded-For": f"203.0.113.{n}"})
            for n in range(21)
        ]
    assert [answer.status_code for answer in wrong] == [404] * 20 + [429]
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3")) as neighbour:
        assert neighbour.get(f"{base}/tisch/ZZZZZZZZ99/").status_code == 404
    deadline = time.monotonic() + 5
    lines: list[str] = []
    while time.monotonic() < deadline and not lines:
        lines = [line for line in local_hall["access"].read_text().splitlines() if "|/|" in line]
        time.sleep(0.1)
    assert "127.0.0.1|127.0.0.2|http|/|200" in lines  # the address gunicorn saw is Caddy's
    assert not any("203.0.113.9" in line or "https" in line for line in lines)
    # gunicorn answers on 127.0.0.1 only, never on the hall's network.
    for address in hall_addresses():
        with pytest.raises(OSError), socket.create_connection((address, local_hall["upstream"]), timeout=2):
            pass


def test_without_caddy_the_hall_says_to_run_make_install(monkeypatch):
    monkeypatch.setattr(hall_command.shutil, "which", lambda name: None)
    with pytest.raises(CommandError, match="Caddy.*not installed: run make install"):
        call_command("hall", "--port", "1")


def test_caddy_is_told_its_timeouts_and_never_listens_for_admin():
    config = caddyfile("0.0.0.0", 8000, "127.0.0.1:40001")
    assert "admin off" in config and "auto_https off" in config
    assert re.search(r"timeouts \{\s+read_header 10s\s+read_body 60s\s+write 180s\s+idle 2m\s+\}", config)
    assert "http://:8000 {\n\treverse_proxy 127.0.0.1:40001 {" in config  # every interface
    assert "\tbind 127.0.0.1\n" in caddyfile("127.0.0.1", 8000, "127.0.0.1:40001")


def test_a_process_that_stops_again_and_again_waits_longer_each_time():
    backoff = Backoff()
    assert [backoff.after(0.5) for _ in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert backoff.after(61) == 1  # it had run a while: from the start
    assert backoff.after(2) == 2
