"""One log instead of three (issue 12): the audit entries, the history of every entry and the
corrections of signed sheets become LogEntry rows, with nothing lost."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

HISTORY_ACTIONS = {
    "create": "entry.create",
    "update": "entry.update",
    "delete": "entry.delete",
    "approve": "approval.grant",
    "revoke": "approval.withdraw",
}
RENAMED = {"sheet.locked": "sheet.lock"}


def one_log(apps, schema_editor):
    AuditEntry = apps.get_model("tournament", "AuditEntry")
    EntryHistory = apps.get_model("tournament", "EntryHistory")
    Correction = apps.get_model("tournament", "Correction")
    Scoresheet = apps.get_model("tournament", "Scoresheet")
    LogEntry = apps.get_model("tournament", "LogEntry")
    sheets = {
        (tournament, match, table): pk
        for pk, tournament, match, table in Scoresheet.objects.values_list(
            "pk", "match__tournament_id", "match__number", "table__number"
        )
    }
    rows = []
    for entry in AuditEntry.objects.select_related("user").order_by("id"):
        if entry.action == "sheet.corrected":
            continue  # the same correction is its Correction row, below
        detail = entry.detail or {}
        rows.append(
            LogEntry(
                tournament_id=entry.tournament_id,
                scoresheet_id=sheets.get((entry.tournament_id, detail.get("match"), detail.get("table"))),
                action=RENAMED.get(entry.action, entry.action),
                user_id=entry.user_id,
                user_name=entry.user.username if entry.user else "",
                data=detail,
                created=entry.created,
            )
        )
    for entry in EntryHistory.objects.select_related("scoresheet__match", "scoresheet__table").order_by("id"):
        sheet = entry.scoresheet
        rows.append(
            LogEntry(
                tournament_id=sheet.match.tournament_id,
                scoresheet_id=sheet.pk,
                game=entry.number,
                action=HISTORY_ACTIONS[entry.action],
                user_id=entry.user_id,
                user_name=entry.user_name,
                data={"before": entry.before, "after": entry.after},
                created=entry.created,
            )
        )
    for correction in Correction.objects.select_related(
        "corrected_by", "scoresheet__match", "scoresheet__table"
    ).order_by("id"):
        sheet = correction.scoresheet
        rows.append(
            LogEntry(
                tournament_id=sheet.match.tournament_id,
                scoresheet_id=sheet.pk,
                game=correction.number,
                action="sheet.correct",
                user_id=correction.corrected_by_id,
                user_name=correction.corrected_by.username if correction.corrected_by else "",
                data={
                    "match": sheet.match.number,
                    "table": sheet.table.number,
                    "before": correction.before,
                    "after": correction.after,
                    "reason": correction.reason,
                    "initials": correction.initials,
                    "digest_before": correction.digest_before,
                    "digest_after": correction.digest_after,
                },
                created=correction.created,
            )
        )
    rows.sort(key=lambda row: row.created)
    LogEntry.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0006_signing_and_corrections"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LogEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="game")),
                ("action", models.CharField(max_length=60, verbose_name="action")),
                ("user_name", models.CharField(blank=True, max_length=150, verbose_name="by")),
                ("data", models.JSONField(blank=True, default=dict)),
                (
                    "created",
                    models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name="at"),
                ),
                (
                    "scoresheet",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="log",
                        to="tournament.scoresheet",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="log", to="tournament.tournament"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "log entry",
                "verbose_name_plural": "log",
                "ordering": ["-created", "-id"],
            },
        ),
        migrations.AddIndex(
            model_name="logentry",
            index=models.Index(fields=["scoresheet", "game"], name="log_sheet_game"),
        ),
        # Going back loses the log: the old tables come back empty.
        migrations.RunPython(one_log, migrations.RunPython.noop),
        migrations.DeleteModel(name="AuditEntry"),
        migrations.DeleteModel(name="Correction"),
        migrations.DeleteModel(name="EntryHistory"),
        migrations.CreateModel(
            name="Correction",
            fields=[],
            options={
                "verbose_name": "correction",
                "verbose_name_plural": "corrections",
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("tournament.logentry",),
        ),
    ]
