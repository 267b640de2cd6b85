"""A large tournament document imported by the job worker (tournament/jobs), registered in
``jobs.runner.BUILDERS`` at start-up; where uploaded documents wait for it."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..jobs.models import Job
from ..jobs.runner import Builder, Progress
from ..tournaments.organisations import Organisation
from .importer import import_plan
from .reader import DocumentError, read_document


def upload_folder() -> Path:
    """Uploaded documents wait here for their import: private, like the scans."""
    folder = Path(settings.PRIVATE_ROOT) / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _import(job: Job, progress: Progress) -> None:
    """A large tournament document, checked again and written as a new tournament (all or
    nothing); the job then links to it. The uploaded file goes once the import is done."""
    path = upload_folder() / f"{job.params['token']}.json"
    if not path.exists():
        raise ServiceError(_("The uploaded document is gone: upload it again."))
    progress(0, 2)
    try:
        plan = read_document(path.read_bytes(), job.params.get("slug"))
        progress(1, 2)
        organisation = None
        if job.params.get("organisation"):
            organisation = Organisation.objects.filter(slug=job.params["organisation"]).first()
            if organisation is None:
                raise ServiceError(_("The organisation is gone: nothing was saved."))
        tournament = import_plan(job.created_by, plan, organisation)
    except DocumentError as error:
        reasons = "; ".join(str(message) for message in error.messages)
        raise ServiceError(f"{reasons} {_('Nothing was saved.')}") from None
    except PermissionDenied:
        raise ServiceError(_("You may not create tournaments.")) from None
    path.unlink(missing_ok=True)
    Job.objects.filter(pk=job.pk).update(result_tournament=tournament)
    return None


BUILDERS: dict[str, Builder] = {Job.Kind.IMPORT: _import}
