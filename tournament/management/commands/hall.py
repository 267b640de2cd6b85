"""python manage.py hall (``make hall``): serves the app to the phones and laptops on the hall's
network. Caddy on every interface in front of gunicorn on 127.0.0.1, DEBUG off, the secret key
from a file made on first start, static files through whitenoise, the job worker beside it;
each of the three started again when it stops. Prints the address phones use with its QR code.
Ctrl+C stops them all; started again, it carries on where it was."""

from __future__ import annotations

import os
import shutil
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

from ...hall import (
    UPSTREAM_KEEPALIVE,
    Supervised,
    Tls,
    caddyfile,
    certificate_names,
    hall_addresses,
    secret_key_file,
    server_size,
)


def clear_pages() -> None:
    """The pages the last run kept for all processes (the cache folder) are drawn afresh: the
    database may have been restored or changed by hand since. A Redis cache (REDIS_URL) is left
    as it is: its pages go within STANDINGS_FRESH_SECONDS, and clearing it would empty the whole
    Redis database, whoever else uses it."""
    if settings.CACHES["default"]["BACKEND"] != "django.core.cache.backends.filebased.FileBasedCache":
        return
    try:
        caches["default"].clear()
    except OSError as error:
        sys.stderr.write(f"The shared cache could not be cleared: {error}\n")


def free_address() -> tuple[str, int]:
    """A port of 127.0.0.1 nobody uses: gunicorn's, behind Caddy."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()


def local(bind: str) -> str:
    """Where this machine reaches a server listening on ``bind``."""
    return "127.0.0.1" if bind in ("0.0.0.0", "::", "") else bind


def local_or_first(addresses: list[str]) -> str:
    return addresses[0] if addresses else "127.0.0.1"


def listening(address: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(address, timeout=1):
            return True
    except OSError:
        return False


class Command(BaseCommand):
    help = "Serve the app on the hall's network (Caddy, gunicorn and the job worker)."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, help="plain HTTP (PORT; 8000, or 80 with HALL_DOMAIN)")
        parser.add_argument(
            "--https-port", type=int, help="HTTPS (HTTPS_PORT; 8443, or 443 with HALL_DOMAIN)"
        )
        parser.add_argument("--bind", default="0.0.0.0", help="the address to listen on (all by default)")
        parser.add_argument("--workers", type=int, help="gunicorn worker processes (three a core)")
        parser.add_argument("--threads", type=int, help="threads per worker process (1)")

    def handle(self, port, https_port, bind, workers, threads, **options):
        caddy = shutil.which("caddy")
        if caddy is None:  # no fall-back to gunicorn alone: slow clients would block it
            raise CommandError(
                "Caddy, the proxy in front of the hall's server, is not installed: run make install "
                "(it installs Debian's package caddy)."
            )
        default_workers, default_threads = server_size()
        workers, threads = workers or default_workers, threads or default_threads
        key_path = os.environ.get("SECRET_KEY_FILE") or Path(settings.BASE_DIR) / ".secret_key"
        key = secret_key_file(Path(key_path))
        addresses = hall_addresses() if bind in ("0.0.0.0", "::") else [bind]
        online = settings.HALL_TLS_MODE == "acme"
        port = port or int(os.environ.get("PORT") or (80 if online else 8000))
        https_port = https_port or int(os.environ.get("HTTPS_PORT") or (443 if online else 8443))
        plain = f"http://{addresses[0]}:{port}" if addresses else f"http://127.0.0.1:{port}"
        # Caddy's certificates and its CA's keys beside the secret key, out of every backup.
        caddy_data = Path(os.environ.get("CADDY_DATA_DIR") or key.parent / ".caddy")
        tls = self.tls(addresses, https_port, caddy_data)
        url = tls.url() if tls else plain
        hostname = socket.gethostname()
        names = list(tls.names) if tls else []
        hosts = [*names, *addresses, "localhost", "127.0.0.1", "[::1]", hostname, f"{hostname}.local"]
        extra = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
        env = {
            **os.environ,
            "SECRET_KEY_FILE": str(key),
            # the seal key beside it (issue 27), made by the first seal
            "SEAL_KEY_FILE": os.environ.get("SEAL_KEY_FILE") or str(key.parent / ".seal_key"),
            "DEBUG": "0",
            "ALLOWED_HOSTS": ",".join(dict.fromkeys([*hosts, *extra])),
            "HALL_URL": os.environ.get("HALL_URL") or url,
            "HALL_HTTP_URL": plain,  # where phones fetch the root of Caddy's internal CA
            "CADDY_DATA_DIR": str(caddy_data),
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
        upstream = free_address()
        web, worker = self.children(caddy, bind, port, upstream, workers, threads, env, manage, tls)
        stopping: list[int] = []

        def stop(signum, frame):
            stopping.append(signum)

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        proxy, server = web
        try:
            # Caddy last: whoever reaches the hall's port finds gunicorn ready behind it.
            server.start()
            worker.start()
            if self.wait_until_ready(upstream, server, stopping):
                proxy.start()
                if self.wait_until_ready((local(bind), port), proxy, stopping):
                    self.banner(url, addresses, port, upstream, workers, threads, env["HALL_URL"], tls)
            while not stopping:
                for child in (*web, worker):
                    if not stopping:
                        child.look_after(self.stderr.write)
                time.sleep(0.2)
        finally:
            for child in (*web, worker):  # Caddy first: no new request reaches gunicorn
                child.stop()
            for child in (*web, worker):
                child.wait(30)
        self.stdout.write("Hall server stopped.")

    def tls(self, addresses, https_port, storage: Path) -> Tls | None:
        """The hall's HTTPS from the settings (None: plain HTTP). Caddy keeps its certificates
        and its CA's keys in ``storage``."""
        mode = settings.HALL_TLS_MODE
        if mode == "none":
            return None
        storage.mkdir(parents=True, exist_ok=True, mode=0o700)
        if mode == "acme":
            return Tls(mode, (settings.HALL_DOMAIN,), https_port, str(storage))
        if mode == "files":
            try:
                names = certificate_names(settings.TLS_CERT_FILE)
            except ValueError as error:
                raise CommandError(str(error)) from None
            if settings.HALL_DOMAIN:
                names = (settings.HALL_DOMAIN, *(n for n in names if n != settings.HALL_DOMAIN))
            cert, key = (str(Path(f).resolve()) for f in (settings.TLS_CERT_FILE, settings.TLS_KEY_FILE))
            return Tls(mode, names, https_port, str(storage), cert, key)
        return Tls(
            mode, tuple(dict.fromkeys([*addresses, "localhost", "127.0.0.1"])), https_port, str(storage)
        )

    def children(self, caddy, bind, port, upstream, workers, threads, env, manage, tls=None):
        """Caddy on ``bind``:``port`` in front of gunicorn on 127.0.0.1 (a free port of its own,
        reached only through Caddy), and the job worker; each looked after on its own."""
        run = Path(settings.PRIVATE_ROOT) / "run"  # the hall's own files of this start, not kept
        run.mkdir(parents=True, exist_ok=True, mode=0o700)
        config = run / f"Caddyfile-{port}"
        config.write_text(caddyfile(bind, port, "{}:{}".format(*upstream), tls))
        proxy_env = {**os.environ, "XDG_CONFIG_HOME": str(run / "caddy"), "XDG_DATA_HOME": str(run / "caddy")}
        log = run / f"caddy-{port}.log"
        log.unlink(missing_ok=True)
        gunicorn = [
            sys.executable, "-m", "gunicorn", "tournament.wsgi",
            "--bind", "{}:{}".format(*upstream),
            "--workers", str(workers),
            "--threads", str(threads),
            "--worker-class", "gthread",
            "--timeout", "120",
            "--graceful-timeout", "20",
            "--keep-alive", str(UPSTREAM_KEEPALIVE),
            "--control-socket", os.path.join(tempfile.gettempdir(), f"schafkopf-hall-{port}.ctl"),
        ]  # fmt: skip
        proxy = [caddy, "run", "--adapter", "caddyfile", "--config", str(config)]
        web = (
            Supervised("Caddy", proxy, proxy_env, log=log),
            Supervised("gunicorn", gunicorn, {**env, "PROXY": "1"}),
        )
        return web, Supervised("The job worker", [*manage, "run_jobs", "-v", "1"], env)

    def wait_until_ready(self, address, child, stopping) -> bool:
        """Until ``child`` takes connections at ``address`` (False when the hall was stopped
        meanwhile); if it stops first (its port taken), the hall stops with what it said."""
        deadline = time.monotonic() + 120
        while not stopping and time.monotonic() < deadline:
            if not child.running():
                raise CommandError(
                    f"{child.name} did not start{child.last_words()} (see above); start the hall again "
                    "with make hall."
                )
            if listening(address):
                return True
            time.sleep(0.2)
        if not stopping:
            raise CommandError(f"{child.name} did not start within 2 minutes (see above).")
        return False

    def banner(self, url, addresses, port, upstream, workers, threads, hall_url, tls=None):
        out = self.stdout
        out.write("")
        out.write(f"Schafkopf-Turnier serves the hall: {hall_url}")
        if tls is None:
            for address in addresses[1:]:
                out.write(f"  also: http://{address}:{port}")
            out.write(f"  on this laptop: http://127.0.0.1:{port}")
        else:
            out.write(
                f"  HTTPS ({tls.mode} certificate) for {', '.join(tls.names)}; HTTP on port {port} redirects"
            )
        if tls is not None and tls.mode == "internal":
            out.write(
                f"  phones first install the hall's certificate: http://{local_or_first(addresses)}:{port}/hall/ca/"
            )
        size = f"{workers} processes × {threads} threads"
        out.write(f"  Caddy in front of gunicorn ({size}, 127.0.0.1:{upstream[1]} only)")
        out.write("  job worker running, DEBUG off; a process that stops is started again")
        if not addresses:
            out.write("  No network found: connect this laptop to the hall's Wi-Fi and start again.")
        if not get_user_model().objects.exists():
            out.write("  No user yet: python manage.py createsuperuser")
        out.write("Phones scan this code (also on each tournament's QR page):")
        qr = segno.make(hall_url, error="m")
        qr.terminal(out=sys.stdout, compact=True)
        out.write("Ctrl+C stops the server; started again, it carries on.")
        out.write("")
