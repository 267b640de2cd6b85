"""Tests run both ways: with the hot paths' queries compiled once (``PREPARED_QUERIES`` on, the
default) and through the plain ORM (off). A package's conftest takes both names:

    from ..prepared_ways import prepared_queries, pytest_generate_tests  # noqa: F401

Tests with a live server (browsers, several processes) run once, the default way: they are the
slow ones, and the way a query goes does not change what a browser sees."""

import pytest


@pytest.fixture(autouse=True)
def prepared_queries(request, settings):
    """PREPARED_QUERIES as the test is parametrised (first: also the other fixtures' writes)."""
    settings.PREPARED_QUERIES = getattr(request, "param", True)
    return settings.PREPARED_QUERIES


def pytest_generate_tests(metafunc):
    if "live_server" in metafunc.fixturenames:
        return
    metafunc.parametrize("prepared_queries", [True, False], ids=["prepared", "orm"], indirect=True)
