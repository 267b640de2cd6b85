"""HTTPS for the hall (issue 29.1), without starting it: Caddy's configuration for each
certificate mode (checked by Caddy itself), the settings each mode gives (Secure cookies, HSTS
only with a real certificate), X-Forwarded-Proto only from the proxy, and the page that hands
the root of Caddy's internal CA to the phones."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from django.test import RequestFactory

from tournament.hall import Tls, caddyfile, certificate_names
from tournament.proxy import ProxyHeadersMiddleware

from .certificates import make_certificates
from .processes import ROOT

UPSTREAM = "127.0.0.1:5000"


def adapted(config: str, tmp_path) -> dict:
    """The configuration as Caddy reads it (its JSON), or the test fails with Caddy's words."""
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed (make install)")
    path = tmp_path / "Caddyfile"
    path.write_text(config)
    done = subprocess.run(
        ["caddy", "adapt", "--adapter", "caddyfile", "--config", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def servers(config: dict) -> dict[str, dict]:
    return {server["listen"][0]: server for server in config["apps"]["http"]["servers"].values()}


def test_plain_http_is_unchanged_without_a_certificate(tmp_path):
    config = caddyfile("0.0.0.0", 8000, UPSTREAM)
    assert "auto_https off" in config and "tls" not in config and "https://" not in config
    assert list(servers(adapted(config, tmp_path))) == [":8000"]


def test_acme_for_a_domain_and_http_redirected(tmp_path):
    tls = Tls("acme", ("turnier.example.org",), 443, str(tmp_path / "caddy data"))
    config = adapted(caddyfile("0.0.0.0", 80, UPSTREAM, tls), tmp_path)
    assert config["storage"] == {"module": "file_system", "root": str(tmp_path / "caddy data")}
    https, http = servers(config)[":443"], servers(config)[":80"]
    assert https["routes"][0]["match"] == [{"host": ["turnier.example.org"]}]
    assert "tls_connection_policies" not in json.dumps(https) or "cert0" not in json.dumps(https)
    assert "certificates" not in config["apps"].get("tls", {})  # Let's Encrypt's, none loaded
    assert '"Location": ["https://{http.request.host}{http.request.uri}"]' in json.dumps(http)
    assert '"status_code": 308' in json.dumps(http)
    assert "/hall/ca/" not in json.dumps(http)


def test_own_certificate_files(tmp_path):
    files = make_certificates(tmp_path)
    assert certificate_names(str(files["cert"])) == ("localhost", "127.0.0.1")
    tls = Tls("files", ("localhost", "127.0.0.1"), 8443, str(tmp_path), str(files["cert"]), str(files["key"]))
    config = adapted(caddyfile("127.0.0.1", 8000, UPSTREAM, tls), tmp_path)
    loaded = config["apps"]["tls"]["certificates"]["load_files"][0]
    assert (loaded["certificate"], loaded["key"]) == (str(files["cert"]), str(files["key"]))
    assert set(servers(config)) == {"127.0.0.1:8443", "127.0.0.1:8000"}
    redirect = json.dumps(servers(config)["127.0.0.1:8000"])
    assert "https://{http.request.host}:8443{http.request.uri}" in redirect


def test_a_certificate_without_names_is_refused(tmp_path):
    (tmp_path / "broken.pem").write_text("no certificate")
    with pytest.raises(ValueError, match="no readable PEM certificate"):
        certificate_names(str(tmp_path / "broken.pem"))


def test_internal_ca_serves_its_root_page_over_http(tmp_path):
    tls = Tls("internal", ("192.168.1.5", "localhost", "127.0.0.1"), 8443, str(tmp_path))
    config = adapted(caddyfile("0.0.0.0", 8000, UPSTREAM, tls), tmp_path)
    assert config["apps"]["pki"]["certificate_authorities"]["local"]["install_trust"] is False
    policies = json.dumps(config["apps"]["tls"]["automation"]["policies"])
    assert '"module": "internal"' in policies and "192.168.1.5" in policies
    http = servers(config)[":8000"]["routes"]
    assert http[0]["match"] == [{"path": ["/hall/ca/*"]}]
    assert "reverse_proxy" in json.dumps(http[0]) and "308" in json.dumps(http[1])


SETTINGS = (
    "import json; from tournament import settings as s; print(json.dumps({'mode': s.HALL_TLS_MODE, "
    "'https': s.HTTPS, 'secure': getattr(s, 'SESSION_COOKIE_SECURE', False), "
    "'hsts': getattr(s, 'SECURE_HSTS_SECONDS', 0), 'exempt': getattr(s, 'SECURE_REDIRECT_EXEMPT', []), "
    "'redirect': getattr(s, 'SECURE_SSL_REDIRECT', False), "
    "'proxy_first': s.MIDDLEWARE[0] == 'tournament.proxy.ProxyHeadersMiddleware'}))"
)
NAMES = ("HALL_DOMAIN", "TLS_CERT_FILE", "TLS_KEY_FILE", "HALL_TLS", "HTTPS", "PROXY", "SECRET_KEY", "DEBUG")


def settings_for(**environment) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    return subprocess.run(
        [sys.executable, "-c", SETTINGS], env={**env, **environment}, capture_output=True, text=True, cwd=ROOT
    )


def test_settings_per_certificate_mode():
    modes = {
        "none": {},
        "acme": {"HALL_DOMAIN": "turnier.example.org"},
        "files": {"TLS_CERT_FILE": "/etc/hall/cert.pem", "TLS_KEY_FILE": "/etc/hall/key.pem"},
        "internal": {"HALL_TLS": "internal"},
    }
    found = {mode: json.loads(settings_for(PROXY="1", **env).stdout) for mode, env in modes.items()}
    assert {mode: seen["mode"] for mode, seen in found.items()} == {mode: mode for mode in modes}
    # plain HTTP as before: nothing Secure, no redirect, no HSTS
    assert found["none"] | {"proxy_first": True} == {
        "mode": "none", "https": False, "secure": False, "hsts": 0, "exempt": [], "redirect": False,
        "proxy_first": True,
    }  # fmt: skip
    for mode in ("acme", "files", "internal"):
        assert found[mode]["https"] and found[mode]["secure"] and found[mode]["redirect"], mode
        assert found[mode]["proxy_first"]
    # HSTS only with a certificate every browser trusts
    assert found["acme"]["hsts"] == found["files"]["hsts"] == 31536000
    assert found["internal"]["hsts"] == 0
    # the root of the internal CA is fetched over plain HTTP
    assert found["internal"]["exempt"] == [r"^hall/ca/"] and found["files"]["exempt"] == []
    # the client's own X-Forwarded-Proto is dropped before Django reads it, behind a proxy only
    assert not json.loads(settings_for().stdout)["proxy_first"]


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        ({"TLS_CERT_FILE": "/etc/hall/cert.pem"}, "Set both TLS_CERT_FILE and TLS_KEY_FILE"),
        ({"HALL_TLS": "selbst"}, "the only value is 'internal'"),
        ({"HALL_TLS": "internal", "HALL_DOMAIN": "turnier.example.org"}, "goes without HALL_DOMAIN"),
    ],
)
def test_contradicting_certificate_settings_are_refused(environment, message):
    refused = settings_for(**environment)
    assert refused.returncode != 0 and message in refused.stderr


def test_forwarded_proto_counts_only_from_the_proxy(settings):
    settings.PROXY_ADDRESSES = frozenset({"127.0.0.1"})
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    seen = []
    middleware = ProxyHeadersMiddleware(lambda request: seen.append(request.is_secure()))
    for remote in ("127.0.0.1", "192.168.1.23"):
        middleware(RequestFactory().get("/", HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR=remote))
    assert seen == [True, False]


def test_the_phones_install_page_of_the_internal_ca(client, settings, tmp_path):
    files = make_certificates(tmp_path)
    settings.HALL_CA_ROOT = files["ca"]
    settings.HALL_HTTP_URL = "http://192.168.1.5:8000"
    settings.HALL_URL = "https://192.168.1.5:8443"
    for mode in ("none", "acme", "files"):  # nothing to install
        settings.HALL_TLS_MODE = mode
        assert client.get("/hall/ca/").status_code == 404
        assert client.get("/hall/ca/root.crt").status_code == 404
    settings.HALL_TLS_MODE = "internal"
    page = client.get("/hall/ca/")
    assert page.status_code == 200
    text = page.content.decode()
    assert (
        "<svg" in text and "http://192.168.1.5:8000/hall/ca/" in text and "https://192.168.1.5:8443" in text
    )
    for german in (
        "Das Zertifikat der Halle",
        "Zertifikat herunterladen",
        "Einstellungen → Sicherheit",
        "Zertifikatsvertrauenseinstellungen",
        "Fingerabdruck",
        "Weiter zum Turnier",
    ):
        assert german in text  # German first
    root = client.get("/hall/ca/root.crt")
    assert root["Content-Type"] == "application/x-x509-ca-cert"
    assert root.content == files["ca"].read_bytes()
    fingerprint = subprocess.run(
        ["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", str(files["ca"])],
        capture_output=True, text=True,
    ).stdout.strip().split("=", 1)[1]  # fmt: skip
    assert fingerprint in text
    settings.HALL_CA_ROOT = tmp_path / "not-yet.crt"  # Caddy has not made its CA yet
    assert client.get("/hall/ca/").status_code == 404


def test_the_qr_page_names_the_install_page_with_the_internal_ca(client, settings, tournament):
    settings.HALL_URL, settings.HALL_HTTP_URL = "https://192.168.1.5:8443", "http://192.168.1.5:8000"
    settings.HALL_TLS_MODE = "files"
    assert "/hall/ca/" not in client.get(f"/t/{tournament.slug}/qr/").content.decode()
    settings.HALL_TLS_MODE = "internal"
    page = client.get(f"/t/{tournament.slug}/qr/").content.decode()
    assert "Zuerst das Zertifikat der Halle installieren: http://192.168.1.5:8000/hall/ca/" in page
    assert "https://192.168.1.5:8443/t/" in page


def test_several_app_servers_are_taken_in_turn(tmp_path):
    """Issue 29.3: Caddy in front of two app servers takes them in turn and leaves one that
    cannot be reached out for a while."""
    config = adapted(caddyfile("127.0.0.1", 8000, "127.0.0.1:40001 127.0.0.1:40002"), tmp_path)
    route = servers(config)["127.0.0.1:8000"]["routes"][0]
    handler = next(h for h in json.dumps(route).split('"handler"') if "reverse_proxy" in h)
    assert '"127.0.0.1:40001"' in handler and '"127.0.0.1:40002"' in handler
    assert '"round_robin"' in handler and '"fail_duration": 10000000000' in handler
    assert "lb_policy" not in caddyfile("127.0.0.1", 8000, "127.0.0.1:40001")  # one: nothing to balance
