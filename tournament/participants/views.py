"""The participant list, registration lists, substitutes and reserve players for the organiser,
and each participant's own public page."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.db.models import Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView
from django_tables2 import RequestConfig

from ..documents.xlsx import XLSX_MIME, workbook_bytes
from ..errors import ServiceError
from ..names import name_search
from ..tournaments.access import TournamentMixin
from ..tournaments.permissions import Perm, is_administrator
from . import registration
from . import services as participant_service
from .forms import ParticipantForm, RegistrationUploadForm, StatusChoiceForm
from .models import Participant, Substitution
from .tables import ParticipantTable, empty_text


def participant_of(tournament, number: int) -> Participant:
    """Looked up through the tournament: a number of another tournament is a 404."""
    return get_object_or_404(Participant, tournament=tournament, number=number)


def participant_queryset(tournament):
    return tournament.participants.prefetch_related(
        Prefetch("substitutions", queryset=Substitution.objects.order_by("from_match", "from_game"))
    ).select_related("tournament")


class ParticipantListView(TournamentMixin, TemplateView):
    template_name = "organiser/participants.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        queryset = participant_queryset(self.tournament)
        query = self.request.GET.get("q", "").strip()
        if query:
            found = name_search(queryset, query, "name", "club", "substitutions__name").values("pk")
            condition = Q(pk__in=found)
            if query.isascii() and query.isdigit():
                condition |= Q(number=int(query))
            queryset = queryset.filter(condition)
        status = self.request.GET.get("status", "")
        if status in Participant.Status.values:
            queryset = queryset.filter(status=status)
        # By name or club in German order: a tournament's few thousand at most, sorted in Python
        # (names.sort_key); otherwise ordered and paginated in the database.
        by_name = {part.strip().lstrip("-") for part in self.request.GET.get("sort", "").split(",")}
        table = ParticipantTable(
            list(queryset) if by_name & {"name", "club"} else queryset,
            # Birth dates for the organiser only; no "edit" link to a page the role may not open.
            exclude=(
                *(() if self.can(Perm.VIEW_BIRTH_DATES) else ("birth_date",)),
                *(() if self.can(Perm.EDIT_PARTICIPANTS) else ("edit",)),
            ),  # fmt: skip
            empty_text=empty_text(query),
        )
        RequestConfig(self.request, paginate={"per_page": 50}).configure(table)
        context.update(
            table=table,
            query=query,
            status=status,
            statuses=Participant.Status.choices,
            total=self.tournament.participants.count(),
            # The register is the organisation's (issue 29): its administrators add to it, whatever
            # Django's model permissions say (they grant nothing here since migration 0028).
            keeps_register=is_administrator(self.request.user, self.tournament.organisation),
        )
        return context


def seat_list(participant):
    """The participant's seats in the current draws, with their sheets' state."""
    return (
        participant.seats.filter(match__discarded_at__isnull=True)
        .select_related("table__scoresheet", "match")
        .order_by("match__number")
    )


class ParticipantAddView(TournamentMixin, FormView):
    template_name = "organiser/participant_form.html"
    form_class = ParticipantForm
    permission = Perm.EDIT_PARTICIPANTS

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "instance": Participant(tournament=self.tournament)}

    def form_valid(self, form):
        try:
            participant = participant_service.add_participant(
                self.request.user, self.tournament, **form.cleaned_data
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("%(name)s has start number %(number)s.")
            % {"name": participant.name, "number": participant.number},
        )
        if "another" in self.request.POST:
            return redirect("organiser:participant_add", self.tournament.slug)
        return redirect("organiser:participants", self.tournament.slug)


class ParticipantEditView(TournamentMixin, FormView):
    template_name = "organiser/participant_form.html"
    form_class = ParticipantForm
    permission = Perm.EDIT_PARTICIPANTS

    def dispatch(self, request, *args, **kwargs):
        self.number = kwargs["number"]
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        self.object = participant_of(self.tournament, self.number)
        return {**super().get_form_kwargs(), "instance": self.object}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # As stored: a refused form has written what was typed into self.object.
        context["participant"] = participant_of(self.tournament, self.number)
        context["substitutions"] = self.object.substitutions.order_by("from_match", "from_game")
        context["seats"] = seat_list(self.object)
        return context

    def form_valid(self, form):
        fields = dict(form.cleaned_data)
        if not fields.get("number"):
            fields["number"] = self.object.number
        try:
            participant_service.update_participant(self.request.user, self.object, **fields)
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Saved."))
        return redirect("organiser:participants", self.tournament.slug)


class ParticipantStatusView(TournamentMixin, FormView):
    """Several participants at once to playing, reserve or withdrawn (the draw page's offer)."""

    form_class = StatusChoiceForm
    permission = Perm.EDIT_PARTICIPANTS
    http_method_names = ["post"]

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "tournament": self.tournament}

    def form_valid(self, form):
        try:
            participant_service.set_status(
                self.request.user,
                self.tournament,
                form.cleaned_data["participants"],
                form.cleaned_data["status"],
            )
        except ServiceError as error:
            self.refuse(error)
        return redirect(self.back())

    def form_invalid(self, form):
        messages.error(self.request, _("Choose at least one participant."))
        return redirect(self.back())

    def back(self) -> str:
        return self.safe_next(reverse("organiser:participants", args=[self.tournament.slug]))


IMPORT_SESSION_KEY = "registration-import:{slug}"


class RegistrationImportView(TournamentMixin, FormView):
    template_name = "organiser/import.html"
    form_class = RegistrationUploadForm
    permission = Perm.EDIT_PARTICIPANTS

    @property
    def session_key(self):
        return IMPORT_SESSION_KEY.format(slug=self.tournament.slug)

    def stored_rows(self):
        stored = self.request.session.get(self.session_key)
        if not stored:
            return None, None
        return stored["filename"], [registration.RegistrationRow.from_dict(r) for r in stored["rows"]]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        filename, rows = self.stored_rows()
        if rows is not None:
            checked = registration.check(self.tournament, [r.copy() for r in rows])
            context.update(
                filename=filename,
                rows=checked,
                accepted=sum(r.accepted for r in checked),
                refused=sum(not r.accepted for r in checked),
            )
        return context

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action in ("import_all", "import_accepted"):
            return self.confirm(only_accepted=action == "import_accepted")
        if action == "cancel":
            request.session.pop(self.session_key, None)
            return redirect("organiser:import", self.tournament.slug)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        upload = form.cleaned_data["file"]
        try:
            rows = registration.parse(registration.read_table(upload.name, upload.read()))
        except registration.RegistrationFileError as error:
            form.add_error("file", str(error))
            return self.form_invalid(form)
        self.request.session[self.session_key] = {
            "filename": upload.name,
            "rows": [r.as_dict() for r in rows],
        }
        return redirect("organiser:import", self.tournament.slug)

    def confirm(self, only_accepted: bool):
        _filename, rows = self.stored_rows()
        if rows is None:
            messages.error(self.request, _("Upload the list again: there is nothing to import."))
            return redirect("organiser:import", self.tournament.slug)
        try:
            created = participant_service.import_participants(
                self.request.user, self.tournament, rows, only_accepted=only_accepted
            )
        except ServiceError as error:
            self.refuse(error)
            return redirect("organiser:import", self.tournament.slug)
        self.request.session.pop(self.session_key, None)
        messages.success(self.request, _("%(count)s participants were imported.") % {"count": len(created)})
        return redirect("organiser:participants", self.tournament.slug)


class ParticipantExportView(TournamentMixin, TemplateView):
    def get(self, request, *args, **kwargs):
        births = self.can(Perm.VIEW_BIRTH_DATES)  # personal data: the organiser's only
        rows = (
            (
                p.number,
                p.name,
                p.club,
                *([p.birth_date] if births else []),  # a real date in the workbook
                p.get_status_display(),
                ", ".join(
                    _("%(name)s from match %(match)s, game %(game)s")
                    % {"name": s.name, "match": s.from_match, "game": s.from_game}
                    for s in p.substitutions.all()
                ),
            )
            for p in participant_queryset(self.tournament)
        )
        header = [
            _("Start number"),
            _("Name"),
            _("Club"),
            *([_("Date of birth")] if births else []),
            _("Status"),
            _("Substitutes"),
        ]
        content = workbook_bytes([(_("Participants"), header, rows)])
        response = HttpResponse(content, content_type=XLSX_MIME)
        stamp = datetime.date.today().isoformat()
        response["Content-Disposition"] = (
            f'attachment; filename="{self.tournament.slug}-participants-{stamp}.xlsx"'
        )
        return response
