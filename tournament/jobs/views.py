"""The tournament's downloads: every background job with its progress, its file when ready and
why it failed; the page refreshes itself while a job runs."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from ..tournaments.access import PartialMixin, TournamentMixin
from ..tournaments.permissions import Perm
from . import runner
from .models import Job

POLL_SECONDS = 2


def may_remove(view, job: Job) -> bool:
    """A download is removed, or cancelled while it is made, by whoever asked for it or by the
    organiser; a referee does not remove the organiser's files (issue 27)."""
    return view.can(Perm.EDIT_TOURNAMENT) or (
        job.created_by_id is not None and job.created_by_id == view.request.user.pk
    )


def start_or_follow(view, kind: str, label: str, **params):
    """Queue a job for work too big for one page, or follow the same job already queued or
    running; then show it on the downloads page."""
    same = next(
        (
            job
            for job in view.tournament.jobs.filter(
                kind=kind, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]
            )
            if all(job.params.get(key) == value for key, value in params.items())
        ),
        None,
    )
    if same is None:
        same = runner.start(view.tournament, kind, label, user=view.request.user, **params)
        messages.info(
            view.request,
            _(
                "“%(label)s” is being made in the background: it appears here when it is "
                "ready, and you may leave this page."
            )
            % {"label": label},
        )
    return redirect(f"{reverse('organiser:downloads', args=[view.tournament.slug])}#job-{same.pk}")


class DownloadsView(PartialMixin, TournamentMixin, TemplateView):
    template_name = "organiser/downloads.html"
    partial_name = "organiser/_jobs.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        jobs = list(self.tournament.jobs.select_related("created_by")[:50])
        for job in jobs:
            job.removable = may_remove(self, job)
        context.update(jobs=jobs, polling=any(job.active for job in jobs), poll_seconds=POLL_SECONDS)
        return context


class DownloadFileView(TournamentMixin, View):
    def get(self, request, *args, **kwargs):
        job = get_object_or_404(Job, tournament=self.tournament, pk=kwargs["pk"])
        if job.status != Job.Status.DONE or not job.file:
            raise Http404
        try:
            handle = job.file.open("rb")
        except FileNotFoundError:
            raise Http404 from None
        inline = job.mime == "application/pdf"
        return FileResponse(handle, as_attachment=not inline, filename=job.filename, content_type=job.mime)


class DeleteDownloadView(TournamentMixin, View):
    def post(self, request, *args, **kwargs):
        job = Job.objects.filter(tournament=self.tournament, pk=kwargs["pk"]).first()
        if job is None:  # removed already (twice clicked, or by someone else)
            pass
        elif not may_remove(self, job):
            raise PermissionDenied
        elif job.active:
            messages.error(
                request,
                _("“%(label)s” is still being made: it can be removed when it is ready or has failed.")
                % {"label": job.label},
            )
        else:
            if job.file:
                job.file.delete(save=False)
            job.delete()
            messages.success(request, _("“%(label)s” was removed.") % {"label": job.label})
        return redirect("organiser:downloads", self.tournament.slug)


class CancelDownloadView(TournamentMixin, View):
    """Stops a job that waits or runs (# issue 27.4): it ends "cancelled", without a file."""

    def post(self, request, *args, **kwargs):
        job = Job.objects.filter(tournament=self.tournament, pk=kwargs["pk"]).first()
        if job is None:  # removed meanwhile
            return redirect("organiser:downloads", self.tournament.slug)
        if not may_remove(self, job):
            raise PermissionDenied
        if runner.cancel(job):
            messages.success(request, _("“%(label)s” was cancelled.") % {"label": job.label})
        else:  # it finished (or was cancelled) meanwhile
            messages.info(
                request,
                _("“%(label)s” was no longer being made: nothing to cancel.") % {"label": job.label},
            )
        return redirect(f"{reverse('organiser:downloads', args=[self.tournament.slug])}#job-{job.pk}")
