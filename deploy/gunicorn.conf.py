"""gunicorn's settings on a server (deploy/schafkopf-web.service; README "Running it for a whole
cup"), the same as make hall's: three worker processes a core with one thread each
(tournament/hall.py, server_size), gthread workers, 120 s for a request, 30 s keep-alive for
Caddy's connections. The unit names the socket to listen on."""

from tournament.hall import UPSTREAM_KEEPALIVE, server_size

wsgi_app = "tournament.wsgi"
workers, threads = server_size()
worker_class = "gthread"
timeout = 120
graceful_timeout = 20
keepalive = UPSTREAM_KEEPALIVE
# The socket readable and writable by owner and group only: user schafkopf and Caddy, which
# the README puts in the group schafkopf.
umask = 0o007
