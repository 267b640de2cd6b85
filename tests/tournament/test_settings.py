from django.conf import settings
from django.db import connection


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


def test_database_url_selects_the_database(monkeypatch):
    import dj_database_url

    parsed = dj_database_url.parse("postgres://postgres@127.0.0.1:5432/test")
    assert parsed["ENGINE"] == "django.db.backends.postgresql"
