"""Moving a tournament as a document: download it (the backup) and upload one (preview first)."""

from __future__ import annotations

import datetime
import secrets
from pathlib import Path

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, View

from ..errors import ServiceError
from ..jobs import runner
from ..jobs.models import Job
from ..jobs.views import POLL_SECONDS
from ..tournaments.access import PartialMixin, TournamentMixin, swaps_part
from ..tournaments.permissions import Perm, can_create_tournament, member_of
from .importer import import_plan
from .jobs import upload_folder
from .reader import DocumentError, read_document
from .writer import dumps, export_document

MAX_UPLOAD = 100 * 1024 * 1024
AT_ONCE_GAMES = 6000  # larger documents are imported by the job worker
SESSION_KEY = "tournament-document"


class DocumentForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("tournament document (.json)"))
    slug = forms.SlugField(
        label=gettext_lazy("short name (optional)"),
        required=False,
        max_length=70,
        help_text=gettext_lazy("Empty: taken from the document."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 100 MB."))
        return upload


class ExportView(TournamentMixin, View):
    permission = Perm.EDIT_TOURNAMENT

    def get(self, request, *args, **kwargs):
        response = HttpResponse(
            dumps(export_document(self.tournament)), content_type="application/json; charset=utf-8"
        )
        stamp = datetime.date.today().isoformat()
        response["Content-Disposition"] = f'attachment; filename="{self.tournament.slug}-{stamp}.json"'
        return response


class ImportView(PartialMixin, LoginRequiredMixin, FormView):
    template_name = "organiser/import_document.html"
    partial_name = "organiser/_import_jobs.html"  # the imports running in the background
    form_class = DocumentForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournament(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def stored(self) -> tuple[Path, dict] | None:
        held = self.request.session.get(SESSION_KEY)
        if not held:
            return None
        path = upload_folder() / f"{held['token']}.json"
        return (path, held) if path.exists() else None

    def forget(self) -> None:
        held = self.stored()
        if held:
            held[0].unlink(missing_ok=True)
        self.request.session.pop(SESSION_KEY, None)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        jobs = list(Job.objects.filter(kind=Job.Kind.IMPORT, created_by=self.request.user)[:10])
        context.update(jobs=jobs, polling=any(job.active for job in jobs), poll_seconds=POLL_SECONDS)
        organisations = list(member_of(self.request.user))
        context["organisations"] = organisations if len(organisations) > 1 else []  # issue 29: which?
        if swaps_part(self.request):
            return context
        held = self.stored()
        if held and "plan" not in context and "errors" not in context:
            try:
                context["plan"] = read_document(held[0].read_bytes(), held[1].get("slug"))
            except DocumentError as error:
                context["errors"] = error.messages
            context["filename"] = held[1]["filename"]
        return context

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action == "cancel":
            self.forget()
            return redirect("organiser:import_document")
        if action == "import":
            held = self.stored()
            if held is None:
                messages.error(request, _("Upload the document again: there is nothing to import."))
                return redirect("organiser:import_document")
            try:
                plan = read_document(held[0].read_bytes(), held[1].get("slug"))
            except DocumentError:
                return redirect("organiser:import_document")  # the page shows why
            organisation = None
            if request.POST.get("organisation"):
                organisation = member_of(request.user).filter(slug=request.POST["organisation"]).first()
                if organisation is None:
                    messages.error(request, _("Choose one of your organisations."))
                    return redirect("organiser:import_document")
            if plan.games > AT_ONCE_GAMES:
                # A large document is written by the job worker; this page follows it.
                request.session.pop(SESSION_KEY, None)  # the job removes the file when done
                runner.start(
                    None,
                    Job.Kind.IMPORT,
                    _("Import of %(name)s") % {"name": held[1]["filename"]},
                    user=request.user,
                    token=held[1]["token"],
                    slug=held[1].get("slug"),
                    organisation=organisation.slug if organisation else None,
                )
                messages.info(
                    request,
                    _("The document is being imported in the background: this page shows when it is done."),
                )
                return redirect("organiser:import_document")
            try:
                tournament = import_plan(request.user, plan, organisation)
            except DocumentError as error:
                for message in error.messages:
                    messages.error(request, message)
                messages.error(request, _("Nothing was saved."))
                return redirect("organiser:import_document")
            except ServiceError as error:  # several organisations, none chosen
                messages.error(request, error.message)
                return redirect("organiser:import_document")
            self.forget()
            messages.success(request, _("%(name)s was imported.") % {"name": tournament.name})
            return redirect(tournament.get_absolute_url())
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        self.forget()
        upload = form.cleaned_data["file"]
        token = secrets.token_hex(16)
        with open(upload_folder() / f"{token}.json", "wb") as target:
            for chunk in upload.chunks():
                target.write(chunk)
        self.request.session[SESSION_KEY] = {
            "token": token,
            "filename": upload.name,
            "slug": form.cleaned_data.get("slug") or None,
        }
        return redirect("organiser:import_document")
