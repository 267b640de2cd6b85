"""python manage.py restore FILE: a backup made by ``backup`` into this fresh installation (an
empty database of the same migrations, an empty private folder); refused over anything stored."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...site.backup import BackupRefused, restore_backup


class Command(BaseCommand):
    help = (
        "Restore a backup made by 'backup' into a fresh installation (run migrate first). "
        "Refused when the database already holds anything."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, file, **options):
        try:
            manifest = restore_backup(Path(file))
        except BackupRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(
            f"Restored {file}: the database as of {manifest['made_at']} and {manifest.get('files', 0)} "
            "private files. The table codes, waiting calls and the phones' receipts are those of then; "
            "start the server (make hall) and the phones carry on."
        )
