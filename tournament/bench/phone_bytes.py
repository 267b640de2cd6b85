"""The bytes a phone sends and receives over the hall's plain HTTP: its first load of the table's
page and one later game."""

import gzip
import json
import re
import secrets
import socket

from django.core.management.base import CommandError

from ..models import GameEntry

# What a phone's browser sends with each request over the hall's plain HTTP (no brotli there).
PHONE_HEADERS = (
    "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Accept-Encoding: gzip, deflate",
    "Accept-Language: de-DE,de;q=0.9,en;q=0.8",
)


def http_bytes(base: str, lines: list[str], body: bytes = b"") -> tuple[int, int, bytes]:
    """One request as a phone's browser sends it over a connection of its own: the bytes sent,
    the bytes received (status line, headers and body as they came) and the body unpacked."""
    host = base.removeprefix("http://")
    address, port = host.rsplit(":", 1)
    head = [*lines, f"Host: {host}", *PHONE_HEADERS, "Connection: close"]
    head += [f"Content-Length: {len(body)}"] if body else []
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    with socket.create_connection((address, int(port)), timeout=30) as sock:
        sock.sendall(request)
        received = b"".join(iter(lambda: sock.recv(65536), b""))
    header, _blank, content = received.partition(b"\r\n\r\n")
    status = int(header.split()[1])
    headers = {
        name.strip().lower(): value.strip()
        for name, _colon, value in (
            line.decode("latin-1").partition(":") for line in header.split(b"\r\n")[1:]
        )
    }
    if status != 200:
        raise CommandError(f"{lines[0]} answered {status}")
    if headers.get("transfer-encoding") == "chunked":
        raise CommandError(f"{lines[0]} answered in chunks: the measure expects a length")
    if headers.get("content-encoding") == "gzip":
        content = gzip.decompress(content)
    return len(request), len(received), content


def first_load(base: str, code: str) -> int:
    """The bytes of a phone opening its table's page: the page, its stylesheet and its
    script, each request and answer as they travel (compressed where the phone asks)."""
    sent, received, page = http_bytes(
        base,
        [
            f"GET /tisch/{code}/ HTTP/1.1",
            "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,*/*;q=0.8",
            "Upgrade-Insecure-Requests: 1",
        ],
    )
    total = sent + received
    found = re.findall(rb'<link rel="stylesheet" href="([^"]+)"|<script src="([^"]+)"', page)
    if len(found) != 2:
        raise CommandError(f"the phone page links {len(found)} stylesheets and scripts, not 2")
    for css, js in found:
        accept = "Accept: text/css,*/*;q=0.1" if css else "Accept: */*"
        path = (css or js).decode()
        sent, received, _content = http_bytes(
            base, [f"GET {path} HTTP/1.1", accept, f"Referer: {base}/tisch/{code}/"]
        )
        total += sent + received
    return total


def later_game(base: str, code: str, games: list[str]) -> tuple[int, int]:
    """The bytes of the last game of a sheet (request and answer), the other games entered
    first, and then of the first load of the full sheet."""
    import httpx

    entered = set(GameEntry.objects.filter(scoresheet__code=code).values_list("number", flat=True))
    with httpx.Client(base_url=base, timeout=30) as client:
        for number, notation in enumerate(games[:-1], start=1):
            if number not in entered:
                payload = {
                    "key": secrets.token_hex(16),
                    "action": "game",
                    "data": {"number": number, "notation": notation},
                }
                answer = client.post(
                    f"/tisch/{code}/send", json=payload, headers={"Accept": "application/json"}
                )
                if not answer.json().get("ok"):
                    raise CommandError(f"game {number} of {code} refused: {answer.text[:300]}")
    body = json.dumps(
        {
            "key": secrets.token_hex(16),
            "action": "game",
            "data": {"number": len(games), "notation": games[-1]},
        }
    ).encode()
    sent, received, answer = http_bytes(
        base,
        [
            f"POST /tisch/{code}/send HTTP/1.1",
            "Content-Type: application/json",
            "Accept: application/json",
            f"Origin: {base}",
            f"Referer: {base}/tisch/{code}/",
        ],
        body,
    )
    if not json.loads(answer).get("ok"):
        raise CommandError(f"the last game of {code} was refused: {answer[:300]!r}")
    return sent + received, first_load(base, code)
