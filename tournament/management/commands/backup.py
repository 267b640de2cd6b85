"""python manage.py backup [FILE]: the whole site (every row of the database, the private files)
in one zip file, taken while the hall goes on; ``restore`` brings it back on a second laptop.
The file holds the table codes: keep it like a key (README "Backups are keys")."""

from pathlib import Path

from django.core.management.base import BaseCommand
from django.utils import timezone

from ...site.backup import write_backup


class Command(BaseCommand):
    help = (
        "Write the whole site (database rows and private files) into one zip file, while the server "
        "runs. It holds the table codes: keep it like a key."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", help="the zip file to write (default: backup-YYYY-MM-DD-HHMMSS.zip here)"
        )

    def handle(self, file=None, **options):
        path = Path(file or f"backup-{timezone.localtime():%Y-%m-%d-%H%M%S}.zip")
        manifest = write_backup(path)
        self.stdout.write(
            f"{path}: the database as of {manifest['made_at']} and {manifest['files']} private files. "
            "It holds the table codes: keep it like a key."
        )
