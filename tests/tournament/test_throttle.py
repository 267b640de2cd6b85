"""Which address a request comes from (issue 27, item 12): the connection's own, or behind a
trusted reverse proxy the one the proxy adds; one answer for django-axes and the counters."""

import pytest
from axes.helpers import get_client_ip_address
from django.test import RequestFactory

from tournament import throttle


def request_from(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_without_proxy_a_forwarded_for_header_is_ignored(settings):
    settings.PROXY = False
    request = request_from("10.0.0.7", "203.0.113.5")
    assert throttle.client_address(request) == "10.0.0.7"
    assert get_client_ip_address(request) == "10.0.0.7"  # django-axes asks the same function


def test_behind_the_proxy_the_address_it_adds_counts(settings):
    settings.PROXY = True
    # The proxy appends the address it saw: what comes before is the client's own word.
    request = request_from("127.0.0.1", "198.51.100.1, 10.0.0.7")
    assert throttle.client_address(request) == "10.0.0.7"
    assert get_client_ip_address(request) == "10.0.0.7"


def test_behind_the_proxy_on_a_unix_socket_the_address_it_adds_counts(settings):
    settings.PROXY = True  # gunicorn gives a Unix socket's peer no address: only this machine's
    assert throttle.client_address(request_from("", "10.0.0.7")) == "10.0.0.7"
    settings.PROXY = False
    assert throttle.client_address(request_from("", "10.0.0.7")) == ""


@pytest.mark.parametrize(
    ("remote", "forwarded"),
    [
        ("203.0.113.9", "10.0.0.7"),  # not from the proxy: straight from the client
        ("127.0.0.1", "nonsense"),
        ("127.0.0.1", ""),
    ],
)
def test_a_forwarded_address_is_believed_only_from_the_proxy(settings, remote, forwarded):
    settings.PROXY = True
    assert throttle.client_address(request_from(remote, forwarded)) == remote


def test_the_proxys_address_is_configurable(settings):
    settings.PROXY = True
    settings.PROXY_ADDRESSES = frozenset({"10.9.9.9"})
    assert throttle.client_address(request_from("10.9.9.9", "10.0.0.7")) == "10.0.0.7"
    assert throttle.client_address(request_from("127.0.0.1", "10.0.0.7")) == "127.0.0.1"


def test_a_limit_counts_per_key_within_its_window():
    codes = throttle.Limit("test", 3, 3600)
    for _attempt in range(3):
        assert not codes.reached("10.0.0.1")
        codes.add("10.0.0.1")
    assert codes.reached("10.0.0.1")
    assert not codes.reached("10.0.0.2")
    assert 0 < codes.retry_after() <= 3600
