"""python manage.py run_jobs: the job worker (django-tasks' ``db_worker``), which first puts
back in the queue the jobs a stopped worker left running. ``make run`` and ``make hall`` start
it; ``--batch`` runs what is queued and stops."""

from django_tasks_db.management.commands import db_worker

from ...jobs.runner import requeue_interrupted, worker_id


class Command(db_worker.Command):
    help = "Run the background jobs (PDFs of whole matches, the workbook, large imports)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(worker_id=worker_id(), reload=False)

    def handle(self, *args, **options):
        requeued = requeue_interrupted()
        if requeued and options["verbosity"]:
            self.stdout.write(f"{requeued} interrupted job(s) queued again.")
        super().handle(*args, **options)
