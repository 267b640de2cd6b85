import pytest
from django.core.cache import caches

from tournament.results import integrity
from tournament.standings import drawn as drawn_lines
from tournament.standings import standings

# The markers `make test-fast` leaves out (pyproject lists them), given by the fixtures a test uses.
BROWSER_FIXTURES = {"desk", "phone", "live_server"}  # Selenium's Chromium on pytest-django's live server
HALL_FIXTURES = {"hall", "local_hall", "https_hall"}  # tests/tournament/test_hall*.py: make hall's server


def pytest_collection_modifyitems(config, items):
    """Browser and hall tests carry their marker by the fixtures they use; the tests that start
    app processes of their own (no fixture says so) are marked ``processes`` by hand."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & HALL_FIXTURES:
            item.add_marker(pytest.mark.hall)


@pytest.fixture(scope="session")
def _cache_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def _seal_key_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("seal")


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path_factory, _cache_folder, _seal_key_folder):
    """Every test starts in the default language, as a first visit does; passwords hash fast;
    files go to folders of its own, never the project's."""
    settings.LANGUAGE_CODE = "de"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
    settings.PRIVATE_ROOT = tmp_path_factory.mktemp("private")
    settings.SEAL_KEY_FILE = _seal_key_folder / ".seal_key"  # one key for the session, not the project's
    shared = {**settings.CACHES["default"], "LOCATION": str(_cache_folder)}
    settings.CACHES = {**settings.CACHES, "default": shared}
    standings._MEMO.clear()
    drawn_lines._MEMO.clear()
    drawn_lines._LINES.clear()
    standings._STORED.clear()
    integrity._SEEN.clear()
    standings._cache_failed_until = 0.0  # a cache failure of an earlier test forgotten
    for cache in caches.all(initialized_only=False):
        cache.clear()
