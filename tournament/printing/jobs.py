"""The printed documents as background jobs (tournament/jobs): what each kind makes, registered
in ``jobs.runner.BUILDERS`` at start-up. The pages that answer at once for small work call the
same functions (one way to make each document)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from ..documents.pdf import render_pdf
from ..errors import ServiceError
from ..jobs.models import Job
from ..jobs.runner import Builder, Progress
from ..standings import standings
from ..tournaments.models import Tournament
from .pdf import render_workers, scoresheets_pdf, sheets_of
from .workbook import EXPORTERS

PDF = "application/pdf"


def rankings_context(tournament: Tournament, match: int | None) -> dict:
    """Final or per-match rankings with every 5.4.2 column (5.4.1)."""
    return {
        "tournament": tournament,
        "standings": standings.compute(tournament, match),
        "match": match,
        "metrics": standings.METRICS,
    }


def certificates_context(tournament: Tournament, places: int) -> dict:
    """Certificates (Urkunden) for the top places, one page each."""
    rows = [row for row in standings.compute(tournament).rows if row.rank <= places]
    return {"tournament": tournament, "rows": rows, "places": places}


def rankings_name(tournament: Tournament, match: int | None) -> str:
    return f"{tournament.slug}-rangliste{f'-{match}' if match else ''}.pdf"


def scoresheets_name(tournament: Tournament, match: int, blank: bool) -> str:
    return f"{tournament.slug}-match{match}-{'blank' if blank else 'filled'}.pdf"


def _scoresheets(job: Job, progress: Progress) -> tuple[str, str, bytes]:
    tournament, number, blank = job.tournament, job.params["match"], job.params.get("blank", False)
    match = tournament.matches.filter(number=number).first()
    if match is None or not match.is_drawn:
        raise ServiceError(_("Match %(n)s is not drawn (any more).") % {"n": number})
    pdf = scoresheets_pdf(sheets_of(match), blank, workers=render_workers(), progress=progress)
    return scoresheets_name(tournament, number, blank), PDF, pdf


def _rankings(job: Job, progress: Progress) -> tuple[str, str, bytes]:
    match = job.params.get("match")
    progress(0, 1)
    html = render_to_string("print/rankings.html", rankings_context(job.tournament, match))
    return rankings_name(job.tournament, match), PDF, render_pdf(html)


def _certificates(job: Job, progress: Progress) -> tuple[str, str, bytes]:
    progress(0, 1)
    html = render_to_string(
        "print/certificates.html", certificates_context(job.tournament, job.params["places"])
    )
    return f"{job.tournament.slug}-urkunden.pdf", PDF, render_pdf(html)


def _workbook(job: Job, progress: Progress) -> tuple[str, str, bytes]:
    return EXPORTERS["xlsx"].render(job.tournament, progress=progress)


BUILDERS: dict[str, Builder] = {
    Job.Kind.SCORESHEETS: _scoresheets,
    Job.Kind.RANKINGS: _rankings,
    Job.Kind.CERTIFICATES: _certificates,
    Job.Kind.WORKBOOK: _workbook,
}
