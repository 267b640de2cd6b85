import pytest


@pytest.fixture(autouse=True)
def _test_settings(settings):
    """Every test starts in the default language, as a first visit does; passwords hash fast."""
    settings.LANGUAGE_CODE = "de"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from tournament.standings import standings

    standings._CACHE.clear()
