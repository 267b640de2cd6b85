"""Django's Redis cache with one Redis client per process and server, not one per call.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache call, and
making one fills its table of about 170 reply callbacks: 0.11 ms of CPU for a ``cache.get``
against 0.02 ms for the call itself (measured on the project's 2-core machine). Every visitor's
standings request and every table phone's poll calls the cache (the kept page; the throttle's
count), so with a cup's 10,000 phones and pages on one Redis (``make bench PART=cluster``) that
was the largest part of a cache hit. A ``redis.Redis`` is safe to share between threads: it takes
a connection from its pool for each command, as Django's own does. Everything else is Django's.
``REDIS_URL`` selects this backend (``settings._cache``)."""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers, **options) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, object] = {}  # the pool's index -> its client

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)  # Django's choice of server
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(self._servers[index], **self._pool_options)
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class RedisCache(django_redis.RedisCache):
    """Django's ``RedisCache`` (same options, same keys, same values) with ``RedisCacheClient``
    above."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
