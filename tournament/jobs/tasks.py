"""The one task of the job queue (django-tasks, database backend): run a job by its id."""

from django_tasks import task


@task()
def run_job(job_id: int) -> None:
    from .runner import run

    run(job_id)
