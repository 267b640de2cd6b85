"""The hall server of the hall-standings and table-entry parts."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from django.core.management.base import CommandError

WARM_SECONDS = 10  # the same load before the measured seconds: each process draws the pages once


@contextlib.contextmanager
def hall_server(ready: str):
    """The hall server as make hall starts it (Caddy in front of gunicorn, and the worker) on
    127.0.0.1 only, on the database in use, until the block ends; yields Caddy's address once
    ``ready`` answers, so that every figure is measured through the proxy."""
    import httpx  # a test extra (pyproject), like aiohttp: the other parts run without them

    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        env = {
            **os.environ,
            "SECRET_KEY_FILE": os.path.join(folder, "key"),
            "PORT": str(port),
            "CACHE_DIR": os.path.join(folder, "cache"),  # never the hall's own pages
        }
        env.pop("HALL_URL", None)
        server = subprocess.Popen(
            [sys.executable, "manage.py", "hall", "--bind", "127.0.0.1", "--port", str(port)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    httpx.get(f"{base}{ready}", timeout=30).raise_for_status()
                    break
                except httpx.TransportError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise CommandError("The hall server did not start.") from None
                    time.sleep(0.5)
            yield base
        finally:
            os.killpg(server.pid, signal.SIGINT)
            server.wait(timeout=60)
