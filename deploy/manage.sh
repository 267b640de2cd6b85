#!/bin/sh
# deploy/manage.sh COMMAND ...: manage.py with the server's settings, as the services run it.
# Run as user schafkopf: sudo -u schafkopf /srv/schafkopf/app/deploy/manage.sh migrate
set -eu
set -a
# shellcheck source=/dev/null  # the server's settings, deploy/schafkopf.env.example
. "${SCHAFKOPF_ENV:-/etc/schafkopf/schafkopf.env}"
set +a
cd "$(dirname "$0")/.."
exec .venv/bin/python manage.py "$@"
