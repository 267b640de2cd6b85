"""The reverse proxy's headers count only from the proxy (issue 29): ``X-Forwarded-Proto``
says whether the client came over HTTPS, and Django believes it (``SECURE_PROXY_SSL_HEADER``)
for Secure cookies, CSRF's origin check and the redirect to HTTPS. A connection from anywhere
but ``PROXY_ADDRESSES`` (a client reaching gunicorn past Caddy) loses the header first. The
client's address from ``X-Forwarded-For`` is checked the same way in tournament/throttle.py."""

from __future__ import annotations

from django.conf import settings


class ProxyHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        remote = request.META.get("REMOTE_ADDR", "")
        if remote and remote not in settings.PROXY_ADDRESSES:  # a Unix socket has no address
            request.META.pop("HTTP_X_FORWARDED_PROTO", None)
        return self.get_response(request)
