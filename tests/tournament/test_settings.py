import json
import os
import re
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def test_language_and_time_zone():
    assert settings.LANGUAGE_CODE == "de"
    assert [code for code, _ in settings.LANGUAGES] == ["de", "en"]
    assert settings.TIME_ZONE == "Europe/Berlin"
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


def test_sqlite_is_set_up_for_several_writers(django_db_blocker):
    if connection.vendor != "sqlite":
        assert connection.vendor == "postgresql"
        return
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    assert "journal_mode=WAL" in options["init_command"]


def settings_with(**environment) -> subprocess.CompletedProcess:
    """The project's settings as a fresh process reads them from this environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "DEBUG")}
    code = (
        "import json; from tournament import settings as s; d = s.DATABASES['default']; "
        "print(json.dumps({'engine': d['ENGINE'], 'name': str(d['NAME']), 'debug': s.DEBUG, "
        "'options': d.get('OPTIONS', {})}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env={**env, **environment}, capture_output=True, text=True, cwd=ROOT
    )


def test_database_url_selects_the_database():
    postgres = json.loads(settings_with(DATABASE_URL="postgres://postgres@127.0.0.1:5432/test").stdout)
    assert (postgres["engine"], postgres["name"]) == ("django.db.backends.postgresql", "test")
    # the phones' queries kept planned by PostgreSQL (server-side parameters, prepared)
    assert postgres["options"] == {"server_side_binding": True, "prepare_threshold": 5}
    for unset in ({}, {"DATABASE_URL": ""}):
        sqlite = json.loads(settings_with(**unset).stdout)
        assert (sqlite["engine"], sqlite["name"]) == ("tournament.sqlite_backend", str(ROOT / "db.sqlite3"))


def test_debug_follows_the_secret_key():
    assert json.loads(settings_with().stdout)["debug"] is True
    assert json.loads(settings_with(SECRET_KEY="x" * 50).stdout)["debug"] is False
    refused = settings_with(DEBUG="0")
    assert refused.returncode != 0 and "set SECRET_KEY" in refused.stderr


def deploy_check(**environment) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "HTTPS", "PROXY")}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={**env, "SECRET_KEY": "k" * 30 + "-Hall-2026-" + "z" * 30, **environment},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_https_behind_a_proxy_passes_the_deploy_check():
    behind_proxy = deploy_check(HTTPS="1", PROXY="1", ALLOWED_HOSTS="turnier.example.org")
    assert behind_proxy.returncode == 0, behind_proxy.stderr
    # On the hall's plain HTTP the check names exactly the HTTPS settings, and nothing else.
    hall = deploy_check()
    warned = set(re.findall(r"security\.W\d+", hall.stderr))
    assert warned == {"security.W004", "security.W008", "security.W012", "security.W016"}


def test_cookies_are_secure_only_over_https():
    code = (
        "import json; from tournament import settings as s; "
        "print(json.dumps([getattr(s, 'SESSION_COOKIE_SECURE', False), "
        "getattr(s, 'CSRF_COOKIE_SECURE', False), getattr(s, 'SECURE_PROXY_SSL_HEADER', None)]))"
    )

    def read(**environment):
        env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "HTTPS", "PROXY")}
        done = subprocess.run(
            [sys.executable, "-c", code], env={**env, "SECRET_KEY": "x" * 50, **environment},
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        return json.loads(done.stdout)

    assert read() == [False, False, None]
    assert read(HTTPS="1", PROXY="1") == [True, True, ["HTTP_X_FORWARDED_PROTO", "https"]]


def test_the_secret_key_comes_from_its_file(tmp_path):
    key = tmp_path / "key"
    key.write_text("aus-der-datei-" * 4 + "\n")
    code = "from tournament import settings as s; print(s.SECRET_KEY, s.DEBUG)"
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "SECRET_KEY_FILE": str(key)},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.stdout.split() == ["aus-der-datei-" * 4, "False"]


def cache_with(**environment) -> subprocess.CompletedProcess:
    """The shared cache's settings as a fresh process reads them from this environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "REDIS_URL", "CACHE_DIR")}
    code = "import json; from tournament import settings as s; print(json.dumps(s.CACHES['default']))"
    return subprocess.run(
        [sys.executable, "-c", code], env={**env, **environment}, capture_output=True, text=True, cwd=ROOT
    )


def test_cache_url_selects_the_cache_the_processes_share():
    folder = json.loads(cache_with().stdout)
    assert folder["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    assert folder["LOCATION"] == str(ROOT / ".cache")
    assert json.loads(cache_with(CACHE_DIR="/srv/cache").stdout)["LOCATION"] == "/srv/cache"
    redis = json.loads(cache_with(CACHE_URL="redis://10.0.0.5:6379/2").stdout)
    assert (redis["BACKEND"], redis["LOCATION"]) == (
        "tournament.redis_cache.RedisCache",  # Django's, one client per process
        "redis://10.0.0.5:6379/2",
    )
    assert redis["OPTIONS"]["socket_connect_timeout"] <= 1  # a Redis that is down costs no wait
    refused = cache_with(REDIS_URL="memcached://10.0.0.5:11211")
    assert refused.returncode != 0 and "REDIS_URL" in refused.stderr and "redis://" in refused.stderr


def test_redis_url_is_the_name_and_cache_url_its_alias():
    given = json.loads(cache_with(REDIS_URL="redis://10.0.0.6:6379/1").stdout)
    assert given["LOCATION"] == "redis://10.0.0.6:6379/1"
    both = json.loads(
        cache_with(REDIS_URL="redis://10.0.0.6:6379/1", CACHE_URL="redis://10.0.0.6:6379/1").stdout
    )
    assert both["LOCATION"] == "redis://10.0.0.6:6379/1"
    differ = cache_with(REDIS_URL="redis://10.0.0.6:6379/1", CACHE_URL="redis://10.0.0.7:6379/1")
    assert differ.returncode != 0 and "REDIS_URL" in differ.stderr and "CACHE_URL" in differ.stderr
