"""What the hall server needs to know about the machine it runs on: the addresses phones on the
hall's network can reach, the size of the server for its cores, and the secret key kept in a
file of the project folder (made on first start); the configuration of Caddy, the proxy in
front of gunicorn, and when a process of the hall that stopped is started again."""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil
from cryptography import x509
from django.conf import settings
from django.core.management.utils import get_random_secret_key


def phone_address(path: str, request=None) -> str:
    """The whole address of ``path`` for a phone (a QR code, a printed card): under the hall
    server's address where one is set (the page may have been opened on the laptop itself, as
    127.0.0.1), else the request's; without either, the path alone."""
    if settings.HALL_URL:
        return settings.HALL_URL + path
    if request is not None:
        return request.build_absolute_uri(path)
    return path


# Interfaces of containers and virtual machines: never the hall's network.
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "podman", "cni", "flannel")


def hall_addresses() -> list[str]:
    """The IPv4 addresses of this machine on a network, the hall's Wi-Fi first: private ranges
    before others, virtual interfaces and loopback left out."""
    found: list[tuple[int, str]] = []
    for name, addresses in psutil.net_if_addrs().items():
        if name.startswith(VIRTUAL):
            continue
        for address in addresses:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.IPv4Address(address.address)
            if ip.is_loopback or ip.is_link_local:
                continue
            rank = 0 if ip in ipaddress.IPv4Network("192.168.0.0/16") else 1 if ip.is_private else 2
            found.append((rank, str(ip)))
    return [ip for _rank, ip in sorted(found)]


def server_size(cores: int | None = None) -> tuple[int, int]:
    """Gunicorn's worker processes and threads each for this many cores: three processes a core
    (at most 24), one thread each. Python runs one thread of a process at a time: a thread
    holding SQLite's write lock waited for the others' turns while its writes queued behind it
    (2 processes × 4 threads: entry p50 1.7 s at the table-entry bench; 6 × 1: 80 ms). Three a
    core, so that a process waiting on the database leaves its core to another; the
    standings pages are drawn once for all of them (the shared cache)."""
    cores = cores or os.cpu_count() or 1
    return min(24, max(2, 3 * cores)), 1


def secret_key_file(path: Path) -> Path:
    """The hall's secret key, made once and kept (readable by its owner only): sessions and
    log-ins survive a restart of the server."""
    if not path.exists() or not path.read_text().strip():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(get_random_secret_key() + "\n")
    return path


# Caddy's limits on a client (# issue 27.3): its request header within 10 s, the whole request
# within 60 s (a 100 MB exchange document needs about 14 Mbit/s), the answer written within 180 s
# of the header (the body's 60 s and gunicorn's 120 s), an idle kept-alive connection for 2 min.
PROXY_TIMEOUTS = {"read_header": "10s", "read_body": "60s", "write": "180s", "idle": "2m"}
# Bodies up to this size reach gunicorn only once whole (every form, scan and registration
# file): a client sending slowly holds Caddy's connection, never one of gunicorn's processes.
PROXY_BUFFER = "16MB"
UPSTREAM_KEEPALIVE = 30  # seconds gunicorn keeps Caddy's idle connection


@dataclass(frozen=True)
class Tls:
    """How the hall's Caddy serves HTTPS (issue 29; README "HTTPS in the hall and online"):
    ``acme`` a certificate from Let's Encrypt for a domain (online), ``files`` the club's own
    certificate files, ``internal`` Caddy's own certificate authority, whose root the phones
    install from /hall/ca/. ``names`` are the names and addresses the site answers to, the first
    the one phones are given; ``storage`` Caddy's data folder (certificates, the CA's keys)."""

    mode: str
    names: tuple[str, ...]
    https_port: int
    storage: str
    cert_file: str = ""
    key_file: str = ""

    def url(self) -> str:
        """The HTTPS address of the site under its first name (the port left out for 443)."""
        port = "" if self.https_port == 443 else f":{self.https_port}"
        return f"https://{self.names[0]}{port}"


def certificate_names(cert_file: str) -> tuple[str, ...]:
    """The names and addresses a certificate file is for (its subject alternative names), first
    the DNS names: the hall's site answers under these."""
    try:
        certificate = x509.load_pem_x509_certificate(Path(cert_file).read_bytes())
    except (OSError, ValueError) as error:
        raise ValueError(f"TLS_CERT_FILE {cert_file}: no readable PEM certificate ({error})") from None
    try:
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        names = x509.SubjectAlternativeName([])
    found = [*names.get_values_for_type(x509.DNSName)]
    found += [str(ip) for ip in names.get_values_for_type(x509.IPAddress)]
    if not found:
        raise ValueError(f"TLS_CERT_FILE {cert_file}: the certificate names no host (no subjectAltName)")
    return tuple(found)


def _quoted(path: str) -> str:
    """A file name as one token of the Caddyfile, whatever spaces it holds."""
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _site_address(name: str, port: int) -> str:
    host = f"[{name}]" if ":" in name else name
    return f"https://{host}:{port}"


def _balanced(upstream: str) -> str:
    """With several app servers (issue 29.3: ``upstream`` names them, separated by spaces) each
    request goes to the next in turn; one that cannot be reached is left out for 10 s and its
    request goes to another within 5 s (only a request that never reached it: a game is never
    sent twice by Caddy)."""
    if len(upstream.split()) < 2:
        return ""
    return "\n\t\tlb_policy round_robin\n\t\tlb_try_duration 5s\n\t\tfail_duration 10s"


def caddyfile(bind: str, port: int, upstream: str, tls: Tls | None = None) -> str:
    """Caddy's configuration for the hall: plain HTTP on ``bind``:``port`` (every interface for
    0.0.0.0), everything passed to gunicorn at ``upstream`` (127.0.0.1:PORT; several app
    servers: their addresses separated by spaces, taken in turn). No admin endpoint;
    X-Forwarded-For is the address Caddy saw (Caddy sets it and drops a client's own, as it
    trusts no proxy before it), X-Forwarded-Proto its own scheme. Caddy keeps an idle
    connection to gunicorn 20 s, less than gunicorn's 30 s (``UPSTREAM_KEEPALIVE``), so that it
    never sends a request on one gunicorn is closing.

    With ``tls`` (issue 29) the site is served over HTTPS on ``tls.https_port`` under its names,
    with the certificate its mode says, and ``port`` redirects every plain HTTP request there,
    except the page that hands out the root of Caddy's internal CA (a phone fetches it before
    it trusts the HTTPS address)."""
    listen = "" if bind in ("0.0.0.0", "::", "") else f"\n\tbind {bind}"
    timeouts = "".join(f"\n\t\t\t{name} {value}" for name, value in PROXY_TIMEOUTS.items())
    proxy = f"""reverse_proxy {upstream} {{{_balanced(upstream)}
\t\tbuffer_requests
\t\tmax_buffer_size {PROXY_BUFFER}
\t\ttransport http {{
\t\t\tkeepalive 20s
\t\t}}
\t}}"""
    if tls is None:
        https, sites = (
            "\tauto_https off",
            f"""http://:{port} {{{listen}
\t{proxy}
}}
""",
        )
    else:
        # Caddy's own redirect is left out (it would take port 80): the block below redirects.
        https = f"\tauto_https disable_redirects\n\tstorage file_system {_quoted(tls.storage)}"
        if tls.mode == "internal":
            https += "\n\tskip_install_trust"  # the laptop's own trust store is left alone
        certificate = {
            "acme": "",
            "files": f"\n\ttls {_quoted(tls.cert_file)} {_quoted(tls.key_file)}",
            "internal": "\n\ttls internal",
        }[tls.mode]
        addresses = ", ".join(_site_address(name, tls.https_port) for name in tls.names)
        to = "" if tls.https_port == 443 else f":{tls.https_port}"
        plain = (
            f"\thandle /hall/ca/* {{\n\t\t{proxy.replace(chr(10), chr(10) + chr(9))}\n\t}}\n"
            if tls.mode == "internal"
            else ""
        )
        sites = f"""{addresses} {{{listen}{certificate}
\t{proxy}
}}

http://:{port} {{{listen}
{plain}\thandle {{
\t\tredir https://{{host}}{to}{{uri}} 308
\t}}
}}
"""
    return f"""{{
\tadmin off
{https}
\tgrace_period 10s
\tlog {{
\t\tlevel ERROR
\t}}
\tservers {{
\t\ttimeouts {{{timeouts}
\t\t}}
\t}}
}}

{sites}"""


class Backoff:
    """When a process of the hall that stopped is started again: after 1 s, then twice as long
    each time it stops again, at most a minute; once it has run for a minute, 1 s again."""

    FIRST, LONGEST, STEADY = 1.0, 60.0, 60.0

    def __init__(self) -> None:
        self.delay = self.FIRST

    def after(self, ran_for: float) -> float:
        """The wait before the next start of a process that stopped after ``ran_for`` seconds."""
        if ran_for >= self.STEADY:
            self.delay = self.FIRST
        delay = self.delay
        self.delay = min(self.delay * 2, self.LONGEST)
        return delay


class Supervised:
    """One process of the hall (Caddy, gunicorn, the job worker), looked after on its own: when
    it stops, the hall says so and starts it again after the back-off, and the others go on
    (# issue 27.2). Its output goes to the hall's terminal, or to ``log`` (Caddy's JSON lines),
    whose last line is then quoted."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path | None = None):
        self.name, self.command, self.env, self.log = name, command, env, log
        self.backoff = Backoff()
        self.process: subprocess.Popen | None = None
        self.started = 0.0
        self.restart_at: float | None = None

    def start(self) -> None:
        if self.log is None:
            self.process = subprocess.Popen(self.command, env=self.env)
        else:
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(self.command, env=self.env, stdout=log, stderr=log)
        self.started, self.restart_at = time.monotonic(), None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def look_after(self, say: Callable[[str], None]) -> None:
        """Start the process again when its back-off is over; notice that it stopped."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.start()
                say(f"{self.name} started again.")
            return
        if self.process is None or (code := self.process.poll()) is None:
            return
        delay = self.backoff.after(now - self.started)
        self.restart_at = now + delay
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        say(f"{self.name} stopped ({how}){self.last_words()}; it starts again in {delay:.0f} s, "
            "the hall goes on serving.")  # fmt: skip

    def last_words(self) -> str:
        """The last error in the log, if any (Caddy: "… bind: address already in use")."""
        if self.log is None or not self.log.exists():
            return ""
        lines = [
            line for line in self.log.read_text(errors="replace").splitlines() if "error" in line.lower()
        ]
        return f": {lines[-1][-300:]}" if lines else ""

    def stop(self) -> None:
        self.restart_at = None
        if self.running():
            self.process.send_signal(signal.SIGTERM)  # type: ignore[union-attr]

    def wait(self, seconds: float) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
