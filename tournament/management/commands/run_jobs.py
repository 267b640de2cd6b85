"""python manage.py run_jobs: the job worker (django-tasks' ``db_worker``), which first puts
back in the queue the jobs a stopped worker left running, and keeps polling while the database
is locked. ``make run`` and ``make hall`` start it; ``--batch`` runs what is queued and stops."""

from django.core.management.base import CommandError
from django_tasks_db.management.commands import db_worker

from ...jobs.runner import requeue_interrupted, worker_id
from ...jobs.worker import PatientWorker


class Command(db_worker.Command):
    help = "Run the background jobs (PDFs of whole matches, the workbook, large imports)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(worker_id=worker_id(), reload=False)

    def handle(self, *args, verbosity, queue_name, exclude_queues, reload, **options):
        """db_worker's ``handle`` with the patient worker (and without reloading on changes)."""
        self.configure_logging(verbosity)
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        requeued = requeue_interrupted()
        if requeued and verbosity:
            self.stdout.write(f"{requeued} interrupted job(s) queued again.")
        worker = PatientWorker(
            queue_names=queue_names,
            excluded_queue_names=excluded,
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
        )
        worker.configure_signals()
        worker.run()
