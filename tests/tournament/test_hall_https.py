"""make hall over HTTPS (issue 29.1): with the club's own certificate files (a test CA's here)
Caddy serves the site over HTTPS and redirects plain HTTP; cookies are Secure, HSTS is sent;
and the table phone's service worker, which browsers run only in a secure context, keeps the
page and its waiting games through a reload without connection. With Caddy's internal CA the
phones fetch its root from /hall/ca/ over plain HTTP, and no HSTS is sent."""

import os
import re
import signal
import ssl
import subprocess
import sys
import types

import httpx
import pytest
from selenium.webdriver.common.by import By

from .certificates import make_certificates
from .conftest import PHONE, Browser, _chrome
from .processes import ROOT, manage, own_database
from .tablephone.test_browser_table import sauspiel
from .test_hall import free_port, wait_for


def start_hall(folder, **tls):
    """manage.py hall on 127.0.0.1 with this certificate mode; yields its addresses and env."""
    with own_database(folder) as url:
        port, https_port = free_port(), free_port()
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "SECRET_KEY_FILE": str(folder / "secret_key"),
            "PRIVATE_ROOT": str(folder / "private"),
            "CACHE_DIR": str(folder / "cache"),
            **tls,
        }
        for name in ("SECRET_KEY", "DEBUG", "HALL_URL", "HTTPS", "PROXY", "CADDY_DATA_DIR"):
            env.pop(name, None)
        output = (folder / "hall.log").open("w+")
        process = subprocess.Popen(
            [sys.executable, "manage.py", "hall", "--bind", "127.0.0.1", "--port", str(port),
             "--https-port", str(https_port), "--workers=2"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        process.stdout = output
        try:
            wait_for(f"http://127.0.0.1:{port}/", process)
            yield {
                "env": env,
                "http": f"http://127.0.0.1:{port}",
                "https": f"https://127.0.0.1:{https_port}",
                "https_port": https_port,
                "output": folder / "hall.log",
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


@pytest.fixture(scope="module")
def https_hall(tmp_path_factory):
    """The hall with the club's own certificate files: a test CA and a server certificate for
    127.0.0.1 and localhost."""
    folder = tmp_path_factory.mktemp("https-hall")
    files = make_certificates(folder)
    tls = {"TLS_CERT_FILE": str(files["cert"]), "TLS_KEY_FILE": str(files["key"])}
    for hall in start_hall(folder, **tls):
        yield {**hall, **files}


def trusting(ca) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(ca))


def count(env, model: str, code: str) -> int:
    query = f"print({model}.objects.filter(scoresheet__code='{code}').count())"
    return int(
        manage(env, "shell", "-c", f"from tournament.models import {model}; {query}").stdout.split()[-1]
    )


def table_code(env) -> str:
    slugs = "from tournament.models import Tournament; print(list(Tournament.objects.values('slug')))"
    if "handy" not in manage(env, "shell", "-c", slugs).stdout:
        manage(env, "generate_tournament", "--players", "8", "--matches", "1", "--slug", "handy")
    return manage(
        env, "shell", "-c",
        "from tournament.models import Scoresheet; print(Scoresheet.objects.order_by('pk').first().code)",
    ).stdout.split()[-1]  # fmt: skip


def test_own_certificate_serves_https_and_redirects_http(https_hall):
    with httpx.Client(verify=trusting(https_hall["ca"]), timeout=30) as client:
        login = client.get(f"{https_hall['https']}/login/")
        assert login.status_code == 200 and "Schafkopf" in login.text
        # Secure cookies, and browsers told to stay on HTTPS (a certificate every browser trusts)
        assert all("secure" in c.lower() for c in login.headers.get_list("set-cookie"))
        assert login.headers["strict-transport-security"].startswith("max-age=31536000")
        # the same certificate under its other name
        assert client.get(f"https://localhost:{https_hall['https_port']}/").status_code == 200
    # without the test CA the certificate is not trusted
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{https_hall['https']}/", timeout=30)
    # plain HTTP is redirected to the same address over HTTPS
    plain = httpx.get(f"{https_hall['http']}/t/handy/?x=1", timeout=30)
    assert plain.status_code == 308
    assert plain.headers["location"] == f"{https_hall['https']}/t/handy/?x=1"
    assert "HTTPS (files certificate) for localhost, 127.0.0.1" in https_hall["output"].read_text()


@pytest.mark.browser
def test_the_table_page_survives_a_reload_without_connection_over_https(https_hall):
    """Chromium trusts the test certificate's key (--ignore-certificate-errors-spki-list, which,
    unlike --ignore-certificate-errors, makes the origin a secure context where service workers
    run); two games typed offline wait through a reload and are stored once."""
    env = https_hall["env"]
    code = table_code(env)
    driver = _chrome(
        PHONE, mobile=True, arguments=(f"--ignore-certificate-errors-spki-list={https_hall['spki']}",)
    )
    phone = Browser(driver, types.SimpleNamespace(url=https_hall["https"]), None)
    try:
        phone.get(f"/tisch/{code}/")
        phone.wait_text("#sheet .keeper", "Schreiber")
        assert driver.execute_script("return window.isSecureContext && location.protocol") == "https:"
        # the service worker runs and the page is kept
        phone.wait_for(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), 20)
        phone.wait_for(
            lambda d: d.execute_async_script(
                "var done = arguments[0]; caches.open('tisch-v1').then(function (c) {"
                " return c.match(location.pathname); }).then(function (hit) { done(!!hit); });"
            ),
            20,
        )
        driver.set_network_conditions(offline=True, latency=0, download_throughput=-1, upload_throughput=-1)
        sauspiel(phone, "Eichel", 1, 3, True)
        sauspiel(phone, "Gras", 2, 4, False, "Schneider")
        phone.wait_text("#queue", "2 Spiele noch nicht gesendet")
        assert count(env, "GameEntry", code) == 0
        driver.refresh()  # without connection: the service worker answers with the kept page
        phone.wait_text("#queue", "2 Spiele noch nicht gesendet")
        assert "Spiel" in driver.find_element(By.ID, "entry-title").text
        driver.delete_network_conditions()
        phone.wait_for(lambda d: not d.find_element(By.ID, "queue").is_displayed(), 30)
        phone.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sheet tr[data-game]")) == 2, 30)
        phone.wait_text("#entry-title", "Spiel 3")
    finally:
        driver.quit()
    assert count(env, "GameEntry", code) == 2
    assert count(env, "PhoneReceipt", code) == 2


@pytest.fixture
def internal_hall(tmp_path):
    yield from start_hall(tmp_path, HALL_TLS="internal")


def test_internal_ca_root_for_the_phones(internal_hall):
    base, secure = internal_hall["http"], internal_hall["https"]
    page = httpx.get(f"{base}/hall/ca/", timeout=30)  # over plain HTTP: the phone does not trust HTTPS yet
    assert page.status_code == 200 and "<svg" in page.text and f"{base}/hall/ca/" in page.text
    root = httpx.get(f"{base}/hall/ca/root.crt", timeout=30)
    assert root.status_code == 200 and root.content.startswith(b"-----BEGIN CERTIFICATE-----")
    ca = internal_hall["env"]["PRIVATE_ROOT"] + "/../root.crt"
    with open(ca, "wb") as handle:
        handle.write(root.content)
    # Caddy's CA keeps its keys beside the secret key, out of the backed-up private folder
    assert not list((ROOT / internal_hall["env"]["PRIVATE_ROOT"]).rglob("*.key"))
    # everything else on plain HTTP goes to HTTPS
    assert httpx.get(f"{base}/login/", timeout=30).headers["location"] == f"{secure}/login/"
    with httpx.Client(verify=trusting(ca), timeout=30) as client:
        login = client.get(f"{secure}/login/")
        assert login.status_code == 200
        assert all("secure" in c.lower() for c in login.headers.get_list("set-cookie"))
        assert "strict-transport-security" not in login.headers  # no HSTS with the internal CA
    fingerprint = re.search(r'id="hall-ca-fingerprint">([0-9A-F:]+)<', page.text).group(1)
    assert len(fingerprint) == 95
