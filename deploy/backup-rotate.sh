#!/bin/sh
# deploy/backup-rotate.sh DIR: one backup of Schafkopf-Turnier into the folder DIR, then all but
# the KEEP newest removed (14 by default: two weeks of nightly backups; by count, not by date,
# so that a machine that was off for weeks keeps its last good ones). Run nightly by
# schafkopf-backup.service, with the settings of /etc/schafkopf/schafkopf.env.
#
#   schafkopf-TIME.dump  pg_dump --format=custom of DATABASE_URL (a PostgreSQL database),
#                        restored with pg_restore into an empty database of any later version;
#   schafkopf-TIME.zip   manage.py backup of the project in APP (when APP is set): every row and
#                        the private files (scans, job files), restored with manage.py restore
#                        into a fresh installation of the same version.
#
# TIME is UTC (2026-11-26T031500Z), so the names sort by age. Each file is written under another
# name and renamed when whole: a backup that fails leaves the earlier ones as they were, and
# nothing is removed (the service fails and says why). Files are readable by their owner only.
set -eu
export LC_ALL=C
dir=${1:?usage: backup-rotate.sh DIR}
keep=${KEEP:-14}
case $keep in
'' | *[!0-9]* | 0)
	echo "KEEP must be a number of backups, at least 1 (it is '$keep')" >&2
	exit 2
	;;
esac
if [ ! -d "$dir" ]; then
	echo "$dir: no such folder" >&2
	exit 2
fi
umask 077
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
dump="$dir/schafkopf-$stamp.dump"
trap 'rm -f "$dump.part"' EXIT

case ${DATABASE_URL:-} in
postgres://* | postgresql://*)
	pg_dump --format=custom --file="$dump.part" "$DATABASE_URL"
	mv "$dump.part" "$dump"
	;;
*)
	echo "DATABASE_URL names no PostgreSQL database: no pg_dump" >&2
	;;
esac
if [ -n "${APP:-}" ]; then
	"$APP/.venv/bin/python" "$APP/manage.py" backup "$dir/schafkopf-$stamp.zip"
fi

# prune SUFFIX: remove all but the $keep newest schafkopf-TIME.SUFFIX (the glob sorts by name)
prune() {
	set -- "$dir"/schafkopf-[0-9]*Z"$1"
	[ -e "$1" ] || return 0
	while [ "$#" -gt "$keep" ]; do
		rm -f -- "$1"
		shift
	done
}
prune .dump
prune .zip
