"""make hall (issue 15): gunicorn with the job worker on every interface, DEBUG off, the secret
key made into a file on first start, static files through whitenoise; log-in works over plain
HTTP on the hall's network; Ctrl+C stops it all."""

import os
import re
import signal
import socket
import stat
import subprocess
import time

import httpx
import pytest

from tournament.hall import hall_addresses, server_size

from .processes import ROOT, manage, own_database


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return probe.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 180) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"make hall stopped:\n{process.stdout.read()}")
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            time.sleep(0.5)
    pytest.fail(f"make hall did not answer on {url} within {seconds} s")


@pytest.fixture
def hall(tmp_path):
    with own_database(tmp_path) as url:
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "PORT": str(port),
            "SECRET_KEY_FILE": str(tmp_path / "secret_key"),
            "PRIVATE_ROOT": str(tmp_path / "private"),
            "CACHE_DIR": str(tmp_path / "cache"),
        }
        for name in (
            "SECRET_KEY",
            "DEBUG",
            "HALL_URL",
            "HTTPS",
            "HALL_DOMAIN",
            "TLS_CERT_FILE",
            "TLS_KEY_FILE",
            "HALL_TLS",
        ):
            env.pop(name, None)
        host = (hall_addresses() or ["127.0.0.1"])[0]
        started = []

        def start():
            process = subprocess.Popen(
                ["make", "hall"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, start_new_session=True,
            )  # fmt: skip
            started.append(process)
            wait_for(f"http://{host}:{port}/", process)
            return process

        try:
            yield {
                "process": start(),
                "start": start,
                "env": env,
                "base": f"http://{host}:{port}",
                "key": tmp_path / "secret_key",
            }
        finally:
            for process in started:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGINT)  # Ctrl+C in the terminal
                    try:
                        process.wait(timeout=60)
                    except subprocess.TimeoutExpired:
                        os.killpg(process.pid, signal.SIGKILL)
                        raise


def test_make_hall_serves_the_hall_and_stops(hall):
    base, env = hall["base"], hall["env"]
    home = httpx.get(f"{base}/")
    assert home.status_code == 200 and "Schafkopf" in home.text
    # DEBUG is off: a missing page is the site's own 404, not Django's debug page.
    missing = httpx.get(f"{base}/gibt-es-nicht/")
    assert missing.status_code == 404 and "Traceback" not in missing.text and "DEBUG" not in missing.text
    # Static files come through whitenoise, compressed where the phone asks for it.
    css = httpx.get(f"{base}/static/css/site.css", headers={"Accept-Encoding": "gzip"})
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert css.headers.get("content-encoding") == "gzip"  # the collected, compressed copy
    # Nothing is loaded from the internet: every script, style and image is the site's own.
    assert not re.search(r'(src|href)="https?://', home.text)
    # The secret key was made into its file, for the owner's eyes only.
    key = hall["key"]
    assert len(key.read_text().strip()) >= 50 and stat.S_IMODE(key.stat().st_mode) == 0o600

    # Log-in over plain HTTP on the hall's address: cookies are not Secure, CSRF passes.
    manage({**env, "DJANGO_SUPERUSER_PASSWORD": "Sau-Tout-2026"}, "createsuperuser", "--noinput",
           "--username", "chef", "--email", "chef@example.org")  # fmt: skip
    with httpx.Client(base_url=base) as phone:
        form = phone.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
        answer = phone.post(
            "/login/",
            data={"csrfmiddlewaretoken": token, "username": "chef", "password": "Sau-Tout-2026"},
            headers={"Origin": base, "Referer": f"{base}/login/"},
        )
        assert answer.status_code == 302, answer.text[:500]
        cookies = answer.headers.get_list("set-cookie")
        assert any(c.startswith("sessionid=") for c in cookies)
        assert not any("secure" in c.lower() for c in cookies)
        assert phone.get("/manage/new/").status_code == 200

        os.killpg(hall["process"].pid, signal.SIGINT)
        output = hall["process"].communicate(timeout=60)[0]
        assert "Schafkopf-Turnier serves the hall: http://" in output
        assert "Hall server stopped." in output
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{base}/", timeout=2)

        # Started again: the same key, the phone still logged in, nothing lost.
        secret = key.read_text()
        hall["start"]()
        assert key.read_text() == secret
        assert phone.get("/manage/new/").status_code == 200


def test_a_table_phone_resends_over_a_server_restart(hall):
    """A game whose answer was lost in a restart is sent again with its key: stored once (issue 16)."""
    base, env = hall["base"], hall["env"]
    manage(env, "generate_tournament", "--players", "8", "--matches", "1", "--slug", "handy")
    code = manage(
        env, "shell", "-c",
        "from tournament.models import Scoresheet; print(Scoresheet.objects.order_by('pk').first().code)",
    ).stdout.split()[-1]  # fmt: skip
    page = httpx.get(f"{base}/tisch/{code}/", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and "table.js" in page.text
    game = {"key": "neustart-0001", "action": "game", "data": {"number": 1, "notation": "re13+"}}
    first = httpx.post(f"{base}/tisch/{code}/send", json=game, headers={"Accept": "application/json"}).json()
    assert first["ok"], first
    os.killpg(hall["process"].pid, signal.SIGINT)
    hall["process"].communicate(timeout=60)
    hall["start"]()
    again = httpx.post(f"{base}/tisch/{code}/send", json=game, headers={"Accept": "application/json"}).json()
    assert again["ok"] and again["repeated"] and again["version"] == first["version"]
    count = manage(
        env, "shell", "-c",
        "from tournament.models import GameEntry; print(GameEntry.objects.count())",
    ).stdout.split()[-1]  # fmt: skip
    assert count == "1"


def test_the_server_is_sized_to_the_machine():
    assert server_size(2) == (6, 1)
    assert server_size(8) == (24, 1)
    assert server_size(1) == (3, 1)


@pytest.mark.django_db
def test_the_qr_page_points_phones_at_the_hall_address(client, tournament, settings):
    settings.HALL_URL = "http://192.168.178.20:8000"
    page = client.get(f"/t/{tournament.slug}/qr/", HTTP_HOST="127.0.0.1").content.decode()
    assert f"http://192.168.178.20:8000/t/{tournament.slug}/" in page


def test_no_page_loads_anything_from_the_internet():
    """A village hall has no internet: no template or static file refers to another site (XML
    namespaces are names, not addresses)."""
    found = []
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".html", ".css", ".js", ".svg", ".txt"):
                text = path.read_text(errors="replace")
                if path.suffix == ".html":  # an address shown as an example (<code>) is not loaded
                    text = re.sub(r"<code>[^<]*</code>", "<code></code>", text)
                for line in text.splitlines():
                    if re.search(r"https?://(?!www\.w3\.org/)", line):
                        found.append(f"{path.relative_to(ROOT)}: {line.strip()[:80]}")
    assert found == []
