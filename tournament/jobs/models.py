"""A background job: long work (the PDFs of a whole match, big rankings, the workbook, a large
import) run by the job worker, with its progress, its file when done, and why it failed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..storage import private_storage


class Job(models.Model):
    class Kind(models.TextChoices):
        SCORESHEETS = "scoresheets", _("scoresheets of a match")
        RANKINGS = "rankings", _("rankings")
        CERTIFICATES = "certificates", _("certificates")
        WORKBOOK = "workbook", _("Excel workbook")
        IMPORT = "import", _("import of a tournament document")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    # Null only for an import, whose tournament the job itself creates.
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="jobs", null=True, blank=True
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    label = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.FileField(storage=private_storage, upload_to="jobs", blank=True)
    filename = models.CharField(max_length=200, blank=True)
    mime = models.CharField(max_length=100, blank=True)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    # An import's result: the tournament it created.
    result_tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return self.label

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return round(100 * self.done / self.total) if self.total else 0
