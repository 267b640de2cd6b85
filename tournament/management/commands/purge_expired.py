"""python manage.py purge_expired [--delete] [--dry-run]"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from ...site.retention import expired, forget_uploads, purge


class Command(BaseCommand):
    help = (
        "Anonymise (or with --delete remove) the tournaments whose scoresheets are past their "
        "retention date (5.3.5: 6 months after the tournament). Nothing younger is touched."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--delete", action="store_true", help="delete the tournaments instead of anonymising them"
        )
        parser.add_argument("--dry-run", action="store_true", help="only report what would happen")

    def handle(self, delete=False, dry_run=False, **options):
        if not dry_run:
            forgotten = forget_uploads(Path(settings.PRIVATE_ROOT) / "imports")
            if forgotten:
                self.stdout.write(f"{forgotten} uploaded documents nobody imported were deleted.")
        tournaments = list(expired())
        if not tournaments:
            self.stdout.write("Nothing is past its retention date.")
            return
        for tournament in tournaments:
            report = purge(tournament, delete=delete, dry_run=dry_run)
            action = "deleted" if delete else "anonymised"
            prefix = "would be " if dry_run else ""
            self.stdout.write(
                f"{report.tournament} (kept until {report.retention_until}): {prefix}{action}: "
                f"{report.participants} participants, {report.signatures} signatures, "
                f"{report.scans} scans"
            )
