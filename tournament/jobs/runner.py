"""Starting, running and recovering jobs. A job is a row of ``Job`` (what the pages show) and a
task of the queue (django-tasks' database backend, run by ``manage.py run_jobs``).

What a kind of job makes is not known here: the capability that makes it registers its builder
in ``BUILDERS`` at start-up (tournament/apps.py), so that the queue sits below them all."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from datetime import timedelta

import psutil
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from ..errors import ServiceError
from ..storage import private_storage
from .models import Job

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 0.5  # seconds between two progress writes
# A job's lease: its worker renews the heartbeat every LEASE_BEAT seconds while it runs the job
# (``jobs.worker``), whatever the job does; a running job without a sign of life for STALE_AFTER
# is lost (its worker, on whichever machine, stopped) and taken back by another worker.
LEASE_BEAT = 30.0
STALE_AFTER = timedelta(minutes=3)
SAME_START = 2.0  # seconds: start times of one process as read twice (the boot time is rounded)

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


class Cancelled(Exception):
    """The job's row is no longer this run's: cancelled from the downloads page (or taken back
    by another worker). Raised at a progress point; the run stops and leaves no file."""


def _progress(job: Job):
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        mine = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING)
        if not mine.update(done=done, total=total, heartbeat=timezone.now()):
            raise Cancelled(job.pk)

    return progress


def run(job_id: int) -> None:
    """Run one job to its file, or record why it failed. Run again after an interruption, it
    starts from the beginning: a job writes nothing but its own file. A job cancelled meanwhile
    does not start, or stops at its next progress point; every failure, saving the file too
    (a full disk), ends in the row as failed with its reason (# issue 27.4)."""
    job = Job.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None or job.status == Job.Status.DONE:
        return
    now = timezone.now()
    claimed = Job.objects.filter(pk=job.pk).exclude(status__in=[Job.Status.DONE, Job.Status.CANCELLED])
    if not claimed.update(status=Job.Status.RUNNING, started=now, heartbeat=now, done=0, error=""):
        raise Cancelled(job.pk)  # the queue records it as such; the row says so already
    stored = ""
    try:
        with translation.override(job.params.get("language")):
            made = BUILDERS[job.kind](job, _progress(job))
            if made is not None:  # a file to download (an import makes a tournament instead)
                stored = _store(job, *made)
        _finish(job, stored, made)
    except Cancelled:
        _discard(stored)
        logger.info("Job %s (%s) stopped: it was cancelled.", job.pk, job.label)
        raise
    except ServiceError as error:
        _discard(stored)
        _fail(job, str(error.message))
    except Unsaved as unsaved:
        _fail(job, unsaved.message)
        raise  # the queue keeps the traceback, the OSError's too
    except Exception as error:
        _discard(stored)
        _fail(job, _("Unexpected error: %(error)s") % {"error": f"{type(error).__name__}: {error}"})
        raise  # the queue keeps the traceback


class Unsaved(Exception):
    """The job's file could not be saved (a full disk); what is left of it is removed."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _store(job: Job, filename: str, mime: str, content: bytes) -> str:
    """Save the job's file under a name only this job uses (its id first), so that a save that
    fails half-way (a full disk) can be removed without touching another job's file."""
    name = job.file.field.generate_filename(job, f"{job.pk}-{filename}")
    try:
        if job.file:
            job.file.delete(save=False)
        private_storage.delete(name)  # left by a run of this job that was killed while saving
        stored = private_storage.save(name, ContentFile(content))
    except OSError as error:
        _discard(name)
        raise Unsaved(
            _("The file could not be saved (%(reason)s): is the disk full?")
            % {"reason": error.strerror or error}
        ) from error
    job.filename, job.mime = filename, mime
    return stored


def _discard(stored: str) -> None:
    if not stored:
        return
    try:
        private_storage.delete(stored)
    except OSError:
        logger.exception("The file %s of a failed job could not be removed.", stored)


def _finish(job: Job, stored: str, made) -> None:
    """Mark the job done, unless it was cancelled meanwhile: then its file goes (``Cancelled``).
    An import, done, stays done: its tournament exists."""
    fields = {"status": Job.Status.DONE, "finished": timezone.now()}
    if stored:
        fields.update(file=stored, filename=job.filename, mime=job.mime)
    total = Job.objects.filter(pk=job.pk).values_list("total", flat=True).first() or 0
    fields["done"] = fields["total"] = max(job.total, total)
    mine = Job.objects.filter(pk=job.pk)
    if made is not None:
        mine = mine.filter(status=Job.Status.RUNNING)
    if not mine.update(**fields):
        raise Cancelled(job.pk)


@task()
def run_job(job_id: int) -> None:
    """The one task of the job queue: run a job by its id."""
    run(job_id)


def _fail(job: Job, message: str) -> None:
    logger.warning("Job %s (%s) failed: %s", job.pk, job.label, message)
    running = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING)  # a cancelled one stays so
    running.update(status=Job.Status.FAILED, error=message, finished=timezone.now())


def cancel(job: Job) -> bool:
    """Cancel a waiting or running job (the downloads page, # issue 27.4): its row says so at
    once; a waiting task leaves the queue as failed with ``Cancelled`` and never runs, a running
    one stops at its next progress point, leaving no file. False when it was no longer active
    (it finished meanwhile)."""
    now = timezone.now()
    with transaction.atomic():
        active = Job.objects.filter(pk=job.pk, status__in=[Job.Status.QUEUED, Job.Status.RUNNING])
        if not active.update(status=Job.Status.CANCELLED, finished=now):
            return False
        if job.task_id:
            _drop_task(DBTaskResult.objects.filter(pk=job.task_id, status="READY"), now)
    logger.info("Job %s (%s) cancelled.", job.pk, job.label)
    return True


def _drop_task(tasks, now) -> None:
    """The queue's record of a task that will not run (its job was cancelled): failed, by
    ``Cancelled``, as a task stopped while running ends."""
    tasks.update(
        status="FAILED",
        finished_at=now,
        return_value=None,
        exception_class_path=f"{Cancelled.__module__}.{Cancelled.__qualname__}",
        traceback=f"{Cancelled.__qualname__}: cancelled on the downloads page",
    )


def _host() -> str:
    return settings.MACHINE_NAME[:40]  # a worker id holds at most 64 characters


def worker_id() -> str:
    """Names this worker process by host, process id and the process's start time, so that a
    restart on the same machine can tell the tasks of a dead worker from those of a live one,
    even when another process has the dead one's id since (after a reboot, # issue 27.4)."""
    return f"{_host()}:{os.getpid()}:{psutil.Process().create_time():.2f}"


def _alive(worker: str) -> bool | None:
    """Whether the worker process behind an id is running; None when it ran on another host.
    A process with its id but another start time is not it. (Ids without a start time were
    written before it was recorded: there the process id decides, as then.)"""
    host, _sep, rest = worker.partition(":")
    pid, _sep, started = rest.partition(":")
    if host != _host() or not pid.isdigit():
        return None
    try:
        process = psutil.Process(int(pid))
        return not started or abs(process.create_time() - float(started)) < SAME_START
    except psutil.NoSuchProcess:  # a zombie too: the worker exited
        return False
    except psutil.AccessDenied:
        return True  # its start time cannot be read: it exists, and is left alone as before
    except ValueError:
        return None  # not an id this worker writes: its heartbeat decides


def renew_lease(task_id) -> None:
    """The sign of life of the job a worker runs (its task's id), written by the worker beside
    the job's own progress: a job that makes none for minutes (one large layout) still holds."""
    Job.objects.filter(task_id=str(task_id), status=Job.Status.RUNNING).update(heartbeat=timezone.now())


def requeue_interrupted() -> int:
    """Tasks left running by a worker that is gone (the hall server restarted, the machine lost
    power) go back to the queue and run again: those of a dead worker on this machine at once,
    those of any machine whose job showed no sign of life for ``STALE_AFTER`` (its lease ran
    out: a live worker renews it every ``LEASE_BEAT``). A process id is judged by this machine's
    process table only where the worker's id names this machine. A cancelled job's task is
    closed instead. Every worker calls it at start and then once a minute, so that the jobs of
    a machine that went down run elsewhere."""
    now = timezone.now()
    stale = now - STALE_AFTER
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
        if job is not None and job.status == Job.Status.CANCELLED:
            _drop_task(DBTaskResult.objects.filter(pk=result.pk), now)
            continue
        with transaction.atomic():
            # Only while still running as read: a worker elsewhere may have finished it since.
            if not DBTaskResult.objects.filter(pk=result.pk, status="RUNNING").update(
                status="READY", started_at=None
            ):
                continue
            if job is not None:
                Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
                    status=Job.Status.QUEUED, done=0
                )
        logger.warning("Task %s of a stopped worker (%s) queued again.", result.id, worker)
        count += 1
    return count
