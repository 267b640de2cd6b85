"""The organiser's pages: tournament, staff, participants, registration lists, the draw."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView
from django_tables2 import RequestConfig

from .. import registration
from ..forms import (
    DrawForm,
    LotForm,
    ParticipantForm,
    RegistrationUploadForm,
    StaffForm,
    StatusChoiceForm,
    SubstitutionForm,
    TournamentForm,
)
from ..models import Participant, StaffRole, Substitution
from ..permissions import Perm, can_create_tournament
from ..services import ServiceError
from ..services import draw as draw_service
from ..services import lots as lots_service
from ..services import participants as participant_service
from ..services import tournaments as tournament_service
from ..tables import ParticipantTable
from ..xlsx import XLSX_MIME, workbook_bytes
from .base import TournamentMixin
from .documents import DocumentMixin
from .public import StandingsMixin


class TournamentCreateView(LoginRequiredMixin, FormView):
    template_name = "organiser/tournament_form.html"
    form_class = TournamentForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournament(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            tournament = tournament_service.create_tournament(self.request.user, **form.service_fields())
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("The tournament was created."))
        return redirect(tournament.get_absolute_url())


class TournamentEditView(TournamentMixin, FormView):
    template_name = "organiser/tournament_form.html"
    form_class = TournamentForm
    permission = Perm.EDIT_TOURNAMENT

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "instance": self.tournament}

    def form_valid(self, form):
        try:
            tournament_service.update_tournament(self.request.user, self.tournament, **form.service_fields())
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("The tournament was saved."))
        return redirect(self.tournament.get_absolute_url())


def readiness(tournament) -> list[tuple[bool, str]]:
    """What the organiser still has to do before the draw, as (done, text)."""
    counts = tournament.participants.aggregate(
        active=Count("pk", filter=Q(status=Participant.Status.ACTIVE)),
        reserve=Count("pk", filter=Q(status=Participant.Status.RESERVE)),
        no_birth=Count("pk", filter=Q(birth_date__isnull=True)),
    )
    roles = set(tournament.staff.values_list("role", flat=True))
    message = draw_service.tables_message(counts["active"])
    items = [
        (
            message is None,
            message
            or _("%(count)s active participants fill %(tables)s tables.")
            % {"count": counts["active"], "tables": counts["active"] // 4},
        ),
        (
            StaffRole.Role.SUPERVISOR in roles,
            _("A supervisor is assigned.")
            if StaffRole.Role.SUPERVISOR in roles
            else _("No supervisor yet: approvals and sanctions need one (5.1.3, 5.2.14)."),
        ),
        (
            StaffRole.Role.REFEREE in roles,
            _("A referee is assigned.")
            if StaffRole.Role.REFEREE in roles
            else _("No referee yet to enter the results."),
        ),
    ]
    if counts["no_birth"]:
        items.append(
            (
                False,
                _(
                    "%(count)s participants have no date of birth: the minimum age "
                    "(5.2.12) cannot be checked for them."
                )
                % {"count": counts["no_birth"]},
            )
        )
    drawn = tournament.matches.filter(drawn_at__isnull=False).count()
    total = tournament.matches.count()
    items.append(
        (
            drawn == total and total > 0,
            _("%(drawn)s of %(total)s matches drawn.") % {"drawn": drawn, "total": total},
        )
    )
    return items


class DashboardView(TournamentMixin, TemplateView):
    template_name = "organiser/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["readiness"] = readiness(self.tournament)
        context["rules"] = self.tournament.rules
        context["matches"] = self.tournament.matches.all()
        context["history"] = self.tournament.audit.select_related("user")[:15]
        return context


class StaffView(TournamentMixin, FormView):
    template_name = "organiser/staff.html"
    form_class = StaffForm
    permission = Perm.MANAGE_STAFF

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["staff"] = self.tournament.staff.select_related("user").order_by("role")
        return context

    def post(self, request, *args, **kwargs):
        if "revoke" in request.POST:
            try:
                tournament_service.revoke_role(request.user, self.tournament, int(request.POST["revoke"]))
            except (ValueError, ServiceError) as error:
                messages.error(request, getattr(error, "message", _("Unknown role.")))
            return redirect("organiser:staff", self.tournament.slug)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            tournament_service.grant_role(
                self.request.user, self.tournament, form.cleaned_data["username"], form.cleaned_data["role"]
            )
        except ServiceError as error:
            form.add_error("username", error.message)
            return self.form_invalid(form)
        return redirect("organiser:staff", self.tournament.slug)


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
            condition = (
                Q(name__icontains=query) | Q(club__icontains=query) | Q(substitutions__name__icontains=query)
            )
            if query.isascii() and query.isdigit():
                condition |= Q(number=int(query))
            queryset = queryset.filter(condition).distinct()
        status = self.request.GET.get("status", "")
        if status in Participant.Status.values:
            queryset = queryset.filter(status=status)
        table = ParticipantTable(queryset)
        RequestConfig(self.request, paginate={"per_page": 50}).configure(table)
        context.update(
            table=table,
            query=query,
            status=status,
            statuses=Participant.Status.choices,
            total=self.tournament.participants.count(),
        )
        return context


class ParticipantAddView(TournamentMixin, FormView):
    template_name = "organiser/participant_form.html"
    form_class = ParticipantForm
    permission = Perm.EDIT_PARTICIPANTS

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
        self.object = self.participant(self.number)
        return {**super().get_form_kwargs(), "instance": self.object}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["participant"] = self.object
        context["substitution_form"] = SubstitutionForm()
        context["substitutions"] = self.object.substitutions.order_by("from_match", "from_game")
        context["seats"] = self.object.seats.select_related("table", "match").order_by("match__number")
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


class SubstituteView(TournamentMixin, FormView):
    template_name = "organiser/participant_form.html"
    form_class = SubstitutionForm
    permission = Perm.EDIT_PARTICIPANTS

    def form_valid(self, form):
        participant = self.participant(self.kwargs["number"])
        try:
            participant_service.substitute(self.request.user, participant, **form.cleaned_data)
        except ServiceError as error:
            self.refuse(error)
        else:
            messages.success(
                self.request,
                _("%(name)s plays for start number %(number)s from match %(match)s, game %(game)s.")
                % {
                    "name": form.cleaned_data["name"],
                    "number": participant.number,
                    "match": form.cleaned_data["from_match"],
                    "game": form.cleaned_data["from_game"],
                },
            )
        return redirect("organiser:participant", self.tournament.slug, participant.number)

    def form_invalid(self, form):
        self.refuse_form(form)
        return redirect("organiser:participant", self.tournament.slug, self.kwargs["number"])


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
        rows = (
            (
                p.number,
                p.name,
                p.club,
                p.birth_date.strftime("%d.%m.%Y") if p.birth_date else "",
                p.get_status_display(),
                ", ".join(f"{s.name} ({s.from_match}/{s.from_game})" for s in p.substitutions.all()),
            )
            for p in participant_queryset(self.tournament)
        )
        header = [_("Start number"), _("Name"), _("Club"), _("Date of birth"), _("Status"), _("Substitutes")]
        content = workbook_bytes([(_("Participants"), header, rows)])
        response = HttpResponse(content, content_type=XLSX_MIME)
        stamp = datetime.date.today().isoformat()
        response["Content-Disposition"] = (
            f'attachment; filename="{self.tournament.slug}-participants-{stamp}.xlsx"'
        )
        return response


class DrawView(TournamentMixin, FormView):
    template_name = "organiser/draw.html"
    form_class = DrawForm
    permission = Perm.DRAW

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        participants = self.tournament.participants
        active_players = participants.filter(status=Participant.Status.ACTIVE)
        active = active_players.count()
        annotated = self.tournament.matches.annotate(results=Count("scoresheets__entries"))
        matches = [(m, m.results) for m in annotated]
        context.update(
            matches=matches,
            any_drawn=any(m.is_drawn for m, _results in matches),
            any_results=any(results for _m, results in matches),
            active=active,
            message=draw_service.tables_message(active),
            reserves=participants.filter(status=Participant.Status.RESERVE),
            # The latest registered are offered for the reserve when there are too many.
            latest_active=active_players.order_by("-number")[: active % 4],
            repeats=draw_service.repeated_table_mates(self.tournament),
        )
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        try:
            if data.get("match"):
                draw_service.draw_one(
                    self.request.user,
                    self.tournament,
                    data["match"],
                    seed=data["seed"],
                    discard_results=data["discard_results"],
                )
                messages.success(self.request, _("Match %(match)s was drawn.") % {"match": data["match"]})
            else:
                draw_service.draw_all(
                    self.request.user,
                    self.tournament,
                    seed=data["seed"],
                    discard_results=data["discard_results"],
                )
                messages.success(self.request, _("All matches were drawn."))
        except ServiceError as error:
            self.refuse(error)
        return redirect("organiser:draw", self.tournament.slug)


class TableListView(DocumentMixin, TournamentMixin, TemplateView):
    """Print-friendly: the tables of one match with their four players (5.2.2)."""

    template_name = "print/tables.html"
    filename = "tische"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        match = self.tournament.matches.filter(number=kwargs["match"]).first()
        if match is None:
            from django.http import Http404

            raise Http404
        tables = match.tables.prefetch_related(
            Prefetch("seats__participant__substitutions"), "seats__participant"
        )
        context["match"] = match
        context["tables"] = [
            (table, [(seat, seat.participant.player_name(match.number)) for seat in table.seats.all()])
            for table in tables
        ]
        return context


class SeatListView(DocumentMixin, TournamentMixin, TemplateView):
    """Print-friendly, alphabetical: name → table and seat in every match."""

    template_name = "print/seats.html"
    filename = "sitzplaetze"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        matches = list(self.tournament.matches.filter(drawn_at__isnull=False))
        places: dict[int, dict[int, tuple[int, int]]] = {}
        from ..models import Seat

        for seat in Seat.objects.filter(match__in=matches).select_related("table", "match"):
            places.setdefault(seat.participant_id, {})[seat.match.number] = (seat.table.number, seat.position)
        rows = []
        for participant in participant_queryset(self.tournament):
            if participant.pk not in places:
                continue
            names = {participant.name} | {s.name for s in participant.substitutions.all()}
            for name in names:
                rows.append(
                    (name, participant.number, [places[participant.pk].get(m.number) for m in matches])
                )
        rows.sort(key=lambda row: (row[0].casefold(), row[1]))
        context.update(matches=matches, rows=rows)
        return context


class StaffStandingsView(TournamentMixin, StandingsMixin, FormView):
    """The standings as the public sees them, with the lots for ties (5.4.2, RULINGS 13)."""

    template_name = "organiser/standings.html"
    form_class = LotForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(self.standings_context())
        context["can_draw_lots"] = self.can(Perm.DRAW_LOTS)
        return context

    def form_valid(self, form):
        if not self.can(Perm.DRAW_LOTS):
            raise PermissionDenied
        try:
            lot = lots_service.draw_lots(
                self.request.user,
                self.tournament,
                self.match_number(),
                prize_places_only=form.cleaned_data["prize_places_only"],
                seed=form.cleaned_data["seed"],
            )
        except ServiceError as error:
            self.refuse(error)
        else:
            messages.success(self.request, _("Lots were drawn with the seed %(seed)s.") % {"seed": lot.seed})
        return redirect(self.request.path)
