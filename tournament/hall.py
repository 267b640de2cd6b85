"""What the hall server needs to know about the machine it runs on: the addresses phones on the
hall's network can reach, the size of the server for its cores, and the secret key kept in a
file of the project folder (made on first start)."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import psutil
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
