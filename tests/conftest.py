import pytest


@pytest.fixture(autouse=True)
def _german_default(settings):
    """Every test starts in the default language, as a first visit does."""
    settings.LANGUAGE_CODE = "de"
