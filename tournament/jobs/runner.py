"""Starting, running and recovering jobs. A job is a row of ``Job`` (what the pages show) and a
task of the queue (django-tasks' database backend, run by ``manage.py run_jobs``).

What a kind of job makes is not known here: the capability that makes it registers its builder
in ``BUILDERS`` at start-up (tournament/apps.py), so that the queue sits below them all."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable
from datetime import timedelta

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from ..errors import ServiceError
from .models import Job

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 0.5  # seconds between two progress writes
STALE_AFTER = timedelta(minutes=10)  # a running job without a sign of life for this long is lost

Progress = Callable[[int, int], None]
# ``build(job, progress) -> (filename, mime, bytes)``, or None where the job makes no file (an
# import makes a tournament): one for each ``Job.Kind``, registered by the capability that makes it.
Builder = Callable[[Job, Progress], tuple[str, str, bytes] | None]
BUILDERS: dict[str, Builder] = {}


def start(tournament, kind: str, label: str, user=None, language: str | None = None, **params) -> Job:
    """Queue a job; the worker picks it up within a second or two."""
    params["language"] = language or translation.get_language()
    with transaction.atomic():
        job = Job.objects.create(
            tournament=tournament,
            kind=kind,
            label=label,
            params=params,
            created_by=user if getattr(user, "pk", None) else None,
        )
        result = run_job.enqueue(job.pk)
        job.task_id = str(result.id)
        job.save(update_fields=["task_id"])
    return job


def _progress(job: Job):
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        Job.objects.filter(pk=job.pk).update(done=done, total=total, heartbeat=timezone.now())

    return progress


def run(job_id: int) -> None:
    """Run one job to its file, or record why it failed. Run again after an interruption, it
    starts from the beginning: a job writes nothing but its own file."""
    job = Job.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None or job.status == Job.Status.DONE:
        return
    now = timezone.now()
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING, started=now, heartbeat=now, done=0, error=""
    )
    try:
        with translation.override(job.params.get("language")):
            made = BUILDERS[job.kind](job, _progress(job))
    except ServiceError as error:
        _fail(job, str(error.message))
        return
    except Exception as error:
        _fail(job, _("Unexpected error: %(error)s") % {"error": f"{type(error).__name__}: {error}"})
        raise  # the queue keeps the traceback
    fields = ["status", "finished", "done", "total"]
    if made is not None:  # a file to download (an import makes a tournament instead)
        filename, mime, content = made
        if job.file:
            job.file.delete(save=False)
        job.file.save(filename, ContentFile(content), save=False)
        job.filename, job.mime = filename, mime
        fields += ["file", "filename", "mime"]
    job.status, job.finished = Job.Status.DONE, timezone.now()
    job.done = job.total = max(job.total, Job.objects.get(pk=job.pk).total)
    job.save(update_fields=fields)


@task()
def run_job(job_id: int) -> None:
    """The one task of the job queue: run a job by its id."""
    run(job_id)


def _fail(job: Job, message: str) -> None:
    logger.warning("Job %s (%s) failed: %s", job.pk, job.label, message)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, error=message, finished=timezone.now())


def _host() -> str:
    return socket.gethostname()[:40]  # a worker id holds at most 64 characters


def worker_id() -> str:
    """Names this worker process by host and process id, so that a restart on the same machine
    can tell the tasks of a dead worker from those of a live one."""
    return f"{_host()}:{os.getpid()}"


def _alive(worker: str) -> bool | None:
    """Whether the worker process behind an id is running; None when it ran on another host."""
    host, _sep, pid = worker.rpartition(":")
    if host != _host() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def requeue_interrupted() -> int:
    """Tasks left running by a worker that is gone (the hall server restarted, the machine lost
    power) go back to the queue and run again: those of a dead worker on this machine at once,
    those of any machine whose job showed no sign of life for ``STALE_AFTER``."""
    stale = timezone.now() - STALE_AFTER
    count = 0
    for result in DBTaskResult.objects.running():
        worker = result.worker_ids[-1] if result.worker_ids else ""
        alive = _alive(worker)
        job = Job.objects.filter(task_id=str(result.id)).first()
        if alive is None:
            last = (job.heartbeat or job.started) if job else result.started_at
            alive = last is not None and last > stale
        if alive:
            continue
        with transaction.atomic():
            DBTaskResult.objects.filter(pk=result.pk).update(status="READY", started_at=None)
            if job is not None:
                Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED, done=0)
        logger.warning("Task %s of a stopped worker (%s) queued again.", result.id, worker)
        count += 1
    return count
