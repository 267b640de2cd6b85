import pytest

from tournament.standings import standings


@pytest.fixture(autouse=True)
def _test_settings(settings):
    """Every test starts in the default language, as a first visit does; passwords hash fast."""
    settings.LANGUAGE_CODE = "de"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    standings._CACHE.clear()
