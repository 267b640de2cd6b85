import pytest
from django.core.cache import cache

from tournament.standings import standings


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path_factory):
    """Every test starts in the default language, as a first visit does; passwords hash fast;
    files go to folders of its own, never the project's."""
    settings.LANGUAGE_CODE = "de"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
    settings.PRIVATE_ROOT = tmp_path_factory.mktemp("private")
    standings._CACHE.clear()
    cache.clear()
