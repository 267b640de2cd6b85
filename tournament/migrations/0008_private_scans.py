"""Scans of signed paper lists move out of the media folder (which a server may publish) into
private storage under unguessable names (issue 12)."""

import shutil
from pathlib import Path

from django.conf import settings
from django.db import migrations, models

import tournament.storage


def move_scans(apps, schema_editor):
    Scoresheet = apps.get_model("tournament", "Scoresheet")
    media, private = Path(settings.MEDIA_ROOT), Path(settings.PRIVATE_ROOT)
    for sheet in Scoresheet.objects.exclude(paper_scan=""):
        old = media / sheet.paper_scan.name
        new = tournament.storage.unguessable_name("scans", sheet.paper_scan.name)
        if not old.exists():
            continue  # already moved, or lost before: the name stays as the record of it
        (private / new).parent.mkdir(parents=True, exist_ok=True)
        shutil.move(old, private / new)
        Scoresheet.objects.filter(pk=sheet.pk).update(paper_scan=new)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_one_log"),
    ]

    operations = [
        migrations.AlterField(
            model_name="scoresheet",
            name="paper_scan",
            field=models.FileField(
                blank=True,
                max_length=200,
                storage=tournament.storage.PrivateStorage(),
                upload_to=tournament.storage.scan_name,
                verbose_name="scan of the signed paper list",
            ),
        ),
        # Going back leaves the scans where they are now.
        migrations.RunPython(move_scans, migrations.RunPython.noop),
    ]
