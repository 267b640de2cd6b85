"""The whole site in one file, and that file restored on a second laptop (issue 27, item 7).

A hall laptop that dies in the middle of a match is replaced by another one from the last backup,
and the day goes on: the backup holds every row of the database as it stood at one moment (the
same table codes, so printed cards and QR codes keep working; the waiting supervisor calls; the
phones' receipts, so a write resent after the restore is answered and not stored twice; entry
times and sheet versions, so a phone's version check still holds) and the private files (scans,
job files). The tournament export of the exchange format is no such backup: it is a public
document and carries no table codes, receipts or calls (README "Backups are keys").

The file is a zip: ``manifest.json`` (what made it, when, the migrations of its schema),
``database.json`` (Django's serialised rows, times to the microsecond, foreign keys to users,
permissions and content types by their natural keys, so a fresh installation's own numbering of
those does not matter) and ``private/…``. It reads from one snapshot of the database, without
taking SQLite's write lock: the phones keep writing while it is made. It is restored only into
a fresh installation, of the same migrations: nothing there is overwritten or mixed."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from io import TextIOWrapper
from pathlib import Path, PurePosixPath

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from ..tournaments.audit import record
from ..tournaments.models import Tournament
from ..tournaments.permissions import COMMAND_LINE

FORMAT = "schafkopf-site-backup"
VERSION = 1
MANIFEST = "manifest.json"
DATABASE = "database.json"
PRIVATE = "private"
# Made again by ``migrate`` (content types, permissions: referred to by natural key), or no part
# of the day: log-in sessions (signed with the old laptop's secret key), log-in attempts. The job
# queue is kept: a job cut off by the dead laptop runs again on the new one (run_jobs).
LEFT_OUT = ("contenttypes", "auth.permission", "sessions", "axes")


class BackupRefused(Exception):
    """The backup cannot be restored here; the message says why and what to do."""


def _left_out(model) -> bool:
    meta = model._meta
    return meta.app_label in LEFT_OUT or meta.label_lower in LEFT_OUT


class _ExactTimes(DjangoJSONEncoder):
    """Times to the microsecond (Django's encoder cuts them to milliseconds): a signature's or a
    correction's time is part of what a seal covers, and an entry's time is its order."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def _rows() -> Iterator:
    """Every row kept, models in an order in which they can be loaded, rows by primary key."""
    configs = [(config, None) for config in apps.get_app_configs()]
    for model in serializers.sort_dependencies(configs, allow_cycles=True):
        meta = model._meta
        if _left_out(model) or not meta.managed or meta.proxy or not meta.can_migrate(connection):
            continue
        yield from model._base_manager.using(connection.alias).order_by(meta.pk.name).iterator()


def _applied() -> list[str]:
    return sorted(f"{app}.{name}" for app, name in MigrationRecorder(connection).applied_migrations())


@contextmanager
def _one_snapshot() -> Iterator[None]:
    """Every read inside sees the database as it was at the first: SQLite in a deferred (read)
    transaction, which takes no write lock in WAL mode, PostgreSQL in a repeatable-read one."""
    if connection.in_atomic_block:  # inside a caller's transaction: read in it
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def write_backup(path: Path) -> dict:
    """The whole site into the zip file ``path``; returns its manifest."""
    private_root = Path(settings.PRIVATE_ROOT)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "made_at": timezone.now().isoformat(),
        "database": connection.vendor,
        "migrations": _applied(),
    }
    # Written beside and then renamed: a backup cut off half-way never takes an earlier one's place.
    part = Path(f"{path}.part")
    try:
        with open(part, "wb") as target:
            # Readable by its owner only: the file holds the table codes and the password hashes.
            os.fchmod(target.fileno(), 0o600)
            _write_archive(target, private_root, part, manifest)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return manifest


def _write_archive(target, private_root: Path, path: Path, manifest: dict) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        with (
            _one_snapshot(),
            archive.open(DATABASE, "w") as raw,
            TextIOWrapper(raw, encoding="utf-8") as text,
        ):
            serializers.serialize(
                "json", _rows(), stream=text, use_natural_foreign_keys=True, cls=_ExactTimes
            )
        files = sorted(
            file
            for file in (private_root.rglob("*") if private_root.is_dir() else [])
            if file.is_file() and file.resolve() != Path(path).resolve()
        )
        for file in files:
            archive.write(file, f"{PRIVATE}/{file.relative_to(private_root).as_posix()}")
        manifest["files"] = len(files)
        archive.writestr(MANIFEST, json.dumps(manifest, indent=2))


def _read_manifest(archive: zipfile.ZipFile) -> dict:
    try:
        manifest = json.loads(archive.read(MANIFEST))
    except (KeyError, ValueError) as error:
        raise BackupRefused(f"This is no backup of this app (no readable {MANIFEST}).") from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupRefused("This is no backup of this app (its manifest names another format).")
    if manifest.get("version") != VERSION:
        raise BackupRefused(f"This backup has version {manifest.get('version')!r}; this app reads {VERSION}.")
    if DATABASE not in archive.namelist():
        raise BackupRefused(f"The backup holds no {DATABASE}.")
    return manifest


def _check_schema(manifest: dict) -> None:
    theirs, ours = set(manifest.get("migrations") or []), set(_applied())
    if theirs == ours:
        return
    missing, extra = sorted(theirs - ours), sorted(ours - theirs)
    raise BackupRefused(
        "The backup was made by another version of the app: "
        + "; ".join(
            part
            for part in (
                f"migrations here but not in the backup: {', '.join(extra)}" if extra else "",
                f"in the backup but not here: {', '.join(missing)}" if missing else "",
            )
            if part
        )
        + ". Install the version that made it (the same git commit), run migrate, and restore again."
    )


def _check_empty() -> None:
    """Refused over anything already stored: a restore never overwrites nor mixes."""
    held = []
    for model in apps.get_models():
        if not _left_out(model) and model._meta.managed and not model._meta.proxy:
            count = model._default_manager.using(connection.alias).count()
            if count:
                held.append(f"{model._meta.label}: {count}")
    if held:
        raise BackupRefused(
            "This installation is not empty ("
            + ", ".join(held[:5])
            + (", …" if len(held) > 5 else "")
            + "). A backup is restored only into a fresh installation, so that nothing is "
            "overwritten or mixed: start from an empty database (SQLite: move db.sqlite3 away; "
            "PostgreSQL: a new database), run migrate, and restore again."
        )


def _private_members(archive: zipfile.ZipFile) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    members = []
    for info in archive.infolist():
        name = PurePosixPath(info.filename)
        if info.is_dir() or not name.parts or name.parts[0] != PRIVATE:
            continue
        inside = PurePosixPath(*name.parts[1:])
        if not inside.parts or name.is_absolute() or ".." in inside.parts or "\\" in info.filename:
            raise BackupRefused(f"The backup names a file outside the private folder: {info.filename!r}.")
        members.append((info, inside))
    return members


def restore_backup(path: Path) -> dict:
    """Restores the zip file ``path`` into this (fresh) installation; returns its manifest.
    Raises ``BackupRefused`` with what to do, having changed nothing."""
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise BackupRefused(f"{path} cannot be read as a backup: {error}") from error
    private_root = Path(settings.PRIVATE_ROOT)
    with archive, tempfile.TemporaryDirectory() as folder:
        manifest = _read_manifest(archive)
        _check_schema(manifest)
        members = _private_members(archive)
        rows = Path(folder) / DATABASE
        with archive.open(DATABASE) as source, open(rows, "wb") as copy:
            shutil.copyfileobj(source, copy)
        with transaction.atomic():
            _check_empty()
            clashes = [str(inside) for _info, inside in members if (private_root / inside).exists()]
            if clashes:
                raise BackupRefused(
                    f"The private folder {private_root} already holds {', '.join(clashes[:3])}: "
                    "restore into a fresh installation with an empty private folder."
                )
            call_command("loaddata", str(rows), verbosity=0)
            # Each tournament's history says so: what was stored after the backup is not here.
            for tournament in Tournament.objects.all():
                record(tournament, COMMAND_LINE, "tournament.restore", backup_made_at=manifest.get("made_at"))
            for info, inside in members:
                target = private_root.joinpath(*inside.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as source, open(target, "wb") as copy:
                    shutil.copyfileobj(source, copy)
    return manifest
