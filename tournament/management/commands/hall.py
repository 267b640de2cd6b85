"""python manage.py hall (``make hall``): serves the app to the phones and laptops on the hall's
network. Gunicorn on every interface, DEBUG off, the secret key from a file made on first
start, static files through whitenoise, the job worker beside it; prints the address phones use
with its QR code. Ctrl+C stops both; started again, it carries on where it was."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError

from ...hall import hall_addresses, secret_key_file, server_size


def clear_pages() -> None:
    """The pages the last run kept for all processes (the cache folder) are drawn afresh: the
    database may have been restored or changed by hand since. A Redis cache (CACHE_URL) is left
    as it is: its pages go within STANDINGS_FRESH_SECONDS, and clearing it would empty the whole
    Redis database, whoever else uses it."""
    if settings.CACHES["default"]["BACKEND"] != "django.core.cache.backends.filebased.FileBasedCache":
        return
    try:
        caches["default"].clear()
    except OSError as error:
        sys.stderr.write(f"The shared cache could not be cleared: {error}\n")


class Command(BaseCommand):
    help = "Serve the app on the hall's network (gunicorn and the job worker)."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument("--bind", default="0.0.0.0", help="the address to listen on (all by default)")
        parser.add_argument("--workers", type=int, help="gunicorn worker processes (three a core)")
        parser.add_argument("--threads", type=int, help="threads per worker process (1)")

    def handle(self, port, bind, workers, threads, **options):
        default_workers, default_threads = server_size()
        workers, threads = workers or default_workers, threads or default_threads
        key_path = os.environ.get("SECRET_KEY_FILE") or Path(settings.BASE_DIR) / ".secret_key"
        key = secret_key_file(Path(key_path))
        addresses = hall_addresses() if bind in ("0.0.0.0", "::") else [bind]
        url = f"http://{addresses[0]}:{port}" if addresses else f"http://127.0.0.1:{port}"
        hostname = socket.gethostname()
        hosts = [*addresses, "localhost", "127.0.0.1", "[::1]", hostname, f"{hostname}.local"]
        extra = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
        env = {
            **os.environ,
            "SECRET_KEY_FILE": str(key),
            "DEBUG": "0",
            "ALLOWED_HOSTS": ",".join(dict.fromkeys([*hosts, *extra])),
            "HALL_URL": os.environ.get("HALL_URL") or url,
            "PYTHONUNBUFFERED": "1",
            "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE") or "600",
        }
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        if subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env).returncode:
            raise CommandError("The database could not be brought up to date (see above).")
        clear_pages()
        # Static files collected once, so that whitenoise serves them compressed and cached
        # (the phone's page is 35 KB as source files, far less compressed over the hall's Wi-Fi).
        collected = subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], env=env)
        if collected.returncode == 0:
            env["STATIC_COLLECTED"] = "1"
        worker = subprocess.Popen([*manage, "run_jobs", "-v", "1"], env=env)
        server = subprocess.Popen(
            [
                sys.executable, "-m", "gunicorn", "tournament.wsgi",
                "--bind", f"{bind}:{port}",
                "--workers", str(workers),
                "--threads", str(threads),
                "--worker-class", "gthread",
                "--timeout", "120",
                "--graceful-timeout", "20",
                "--keep-alive", "5",
                "--control-socket", os.path.join(tempfile.gettempdir(), f"schafkopf-hall-{port}.ctl"),
            ],
            env=env,
        )  # fmt: skip
        self.banner(url, addresses, port, workers, threads, env["HALL_URL"])
        stopping = []

        def stop(signum, frame):
            stopping.append(signum)

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        while not stopping and server.poll() is None and worker.poll() is None:
            time.sleep(0.2)
        for process in (server, worker):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (server, worker):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        if not stopping:
            raise CommandError("The hall server stopped (see above); start it again with make hall.")
        self.stdout.write("Hall server stopped.")

    def banner(self, url, addresses, port, workers, threads, hall_url):
        out = self.stdout
        out.write("")
        out.write(f"Schafkopf-Turnier serves the hall: {hall_url}")
        for address in addresses[1:]:
            out.write(f"  also: http://{address}:{port}")
        out.write(f"  on this laptop: http://127.0.0.1:{port}")
        out.write(f"  gunicorn {workers} processes × {threads} threads, job worker running, DEBUG off")
        if not addresses:
            out.write("  No network found: connect this laptop to the hall's Wi-Fi and start again.")
        if not get_user_model().objects.exists():
            out.write("  No user yet: python manage.py createsuperuser")
        out.write("Phones scan this code (also on each tournament's QR page):")
        qr = segno.make(hall_url, error="m")
        qr.terminal(out=sys.stdout, compact=True)
        out.write("Ctrl+C stops the server; started again, it carries on.")
        out.write("")
