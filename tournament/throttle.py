"""Who is asking, and how often they may get it wrong (issue 27, item 12).

``client_address`` is the one answer to "which address sent this request": django-axes asks it
(``AXES_CLIENT_IP_CALLABLE``) and so do the counters here. Behind a reverse proxy (``PROXY=1``)
the proxy's own address is every visitor's, so the visitor's is taken from the
``X-Forwarded-For`` the proxy adds, but only from a proxy at one of ``PROXY_ADDRESSES``; without
``PROXY`` the header is the client's own word and is ignored.

The counters live in Django's cache, which the server's processes share (``CACHES``): a fixed
window per limit and address. With Redis (``REDIS_URL``) a count is exact; the file cache (the
default) adds without a lock, so parallel requests of one client may be counted somewhat fewer
(sequential ones are counted exactly). A counter that cannot be read or written lets the request
through: a broken cache must not stop the hall."""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import time
from dataclasses import dataclass

from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.utils import timezone

log = logging.getLogger(__name__)


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request) -> str:
    """The address of the client that sent ``request``: the connection's own, or behind a
    trusted proxy (``PROXY=1``, the connection from one of ``PROXY_ADDRESSES`` or through a
    Unix socket, which gunicorn gives no address) the last address of its ``X-Forwarded-For``
    (the one the proxy added: those before it are the client's own word)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    if settings.PROXY and (remote in settings.PROXY_ADDRESSES or not remote):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1]
        address = _address(forwarded)
        if address is not None:
            return address
    return remote


@dataclass(frozen=True)
class Limit:
    """At most ``count`` within ``seconds`` (a fixed window), counted per ``name`` and key."""

    name: str
    count: int
    seconds: int

    def _key(self, who: str) -> str:
        # hashed: an e-mail address is no cache key's business
        digest = hashlib.sha256(who.encode()).hexdigest()[:32]
        return f"throttle:{self.name}:{digest}:{int(time.time()) // self.seconds}"

    def reached(self, who: str) -> bool:
        """Whether ``who`` has used up this window's count: refuse before doing anything."""
        try:
            return (cache.get(self._key(who)) or 0) >= self.count
        except Exception as error:  # whatever the backend raises (OSError, redis' own errors)
            log.warning("throttle %s not read: %s", self.name, error)
            return False

    def retry_after(self) -> int:
        """Seconds until this window ends (the ``Retry-After`` of a refusal)."""
        return self.seconds - int(time.time()) % self.seconds

    def add(self, who: str) -> None:
        """One more for ``who`` in this window."""
        key = self._key(who)
        try:
            if not cache.add(key, 1, self.seconds + 5):
                cache.incr(key)
        except ValueError:  # expired between add and incr: a new window
            cache.set(key, 1, self.seconds + 5)
        except Exception as error:  # whatever the backend raises (OSError, redis' own errors)
            log.warning("throttle %s not counted: %s", self.name, error)


def limit(name: str) -> Limit:
    """The limit ``settings.THROTTLE[name]`` declares: (count, seconds)."""
    count, seconds = settings.THROTTLE[name]
    return Limit(name, count, seconds)


def login_lockout_parameters(request_or_attempt, credentials=None) -> list:
    """django-axes' ``AXES_LOCKOUT_PARAMETERS``: a user is locked out from one address after
    ``AXES_FAILURE_LIMIT`` wrong passwords (never for everybody: nobody else's address counts),
    and an address that has given ``AXES_ADDRESS_FAILURE_LIMIT`` wrong passwords for any users
    within ``AXES_COOLOFF_TIME`` (one password tried on many users) is locked out as a whole."""
    address = getattr(request_or_attempt, "axes_ip_address", None) or getattr(
        request_or_attempt, "ip_address", None
    )
    if address is None and hasattr(request_or_attempt, "META"):
        address = client_address(request_or_attempt)
    if address:
        since = timezone.now() - settings.AXES_COOLOFF_TIME
        failures = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since).aggregate(
            n=Sum("failures_since_start")
        )["n"]
        if (failures or 0) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return ["ip_address"]
    return [["username", "ip_address"]]
