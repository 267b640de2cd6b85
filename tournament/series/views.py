"""The register and series pages: for a tournament's organiser taking participants and adding
them to the register; for series managers the register and the series with their tournaments;
for everyone each series' standings (phone first); the PDF and the workbook."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from ..documents.views import DocumentMixin
from ..errors import ServiceError
from ..names import by_name, name_search, sort_key
from ..tournaments.access import TournamentMixin
from ..tournaments.models import StaffRole, Tournament
from ..tournaments.permissions import Perm, administrator_of, has_perm
from . import exports
from . import season as series_season
from . import services as series_service
from . import standings as series_standings
from .forms import AttachForm, SeriesForm, TakeForm, TournamentSeriesForm
from .models import Person, Series
from .permissions import can_manage_register, can_manage_series

REGISTER_PAGE = 200  # persons listed at once; a search narrows the register


def search_persons(query: str, organisations):
    """The persons of the organisations' registers (issue 29: no other's) whose name (or club)
    holds every word of the search, in either spelling ("Huber, Sepp", "sepp huber", "Muller" for
    Müller); unordered (``by_name``)."""
    return name_search(
        Person.objects.filter(organisation__in=organisations).order_by(), query, "name", "club"
    )


def editable_tournaments(user, exclude: Tournament):
    """Tournaments of the same organisation whose participants the user may copy (dates of birth
    included): those he organises, all of an organisation he administers."""
    tournaments = Tournament.objects.filter(organisation_id=exclude.organisation_id)
    tournaments = tournaments.exclude(pk=exclude.pk).order_by("-date", "name")
    if administrator_of(user).filter(pk=exclude.organisation_id).exists():
        return tournaments
    return tournaments.filter(staff__user=user, staff__role=StaffRole.Role.ORGANISER).distinct()


class TakeParticipantsView(TournamentMixin, FormView):
    """Participants from the register or an earlier tournament, without typing them again."""

    template_name = "organiser/take_participants.html"
    form_class = TakeForm
    permission = Perm.EDIT_PARTICIPANTS

    def source(self) -> Tournament | None:
        slug = self.request.GET.get("from") or self.request.POST.get("from") or ""
        if not slug:
            return None
        return get_object_or_404(editable_tournaments(self.request.user, self.tournament), slug=slug)

    def get_form_kwargs(self):
        source = self.source()
        participants = source.participants.select_related("tournament", "person") if source else None
        persons = None if source else Person.objects.filter(organisation_id=self.tournament.organisation_id)
        return {**super().get_form_kwargs(), "persons": persons, "participants": participants}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        source = self.source()
        query = self.request.GET.get("q", "").strip()
        here = self.tournament.participants
        linked = set(here.filter(person__isnull=False).values_list("person_id", flat=True))
        if source:
            ordered = sorted(source.participants.all(), key=lambda p: (sort_key(p.name), p.number))
            choices = [(p, p.person_id in linked) for p in ordered]
        else:
            found, total = by_name(search_persons(query, [self.tournament.organisation_id]), REGISTER_PAGE)
            choices = [(p, p.pk in linked) for p in found]
            context["more"] = max(total - REGISTER_PAGE, 0)
        context.update(
            source=source,
            query=query,
            choices=choices,
            sources=editable_tournaments(self.request.user, self.tournament)[:50],
            fixed=bool(self.tournament.series_id and self.tournament.series.fixed_numbers),
        )
        return context

    def form_invalid(self, form):
        self.refuse_form(form)
        return super().form_invalid(form)

    def form_valid(self, form):
        try:
            report = series_service.take_participants(
                self.request.user,
                self.tournament,
                persons=form.cleaned_data["persons"],
                participants=form.cleaned_data["participants"],
            )
        except ServiceError as error:
            self.refuse(error)
            return redirect(self.request.get_full_path())
        if report.added:
            messages.success(
                self.request,
                _("%(count)s participants taken: start numbers %(numbers)s.")
                % {
                    "count": len(report.added),
                    "numbers": ", ".join(str(p.number) for p in report.added),
                },
            )
        for skipped in report.skipped:
            messages.warning(self.request, skipped)
        return redirect("organiser:participants", self.tournament.slug)


class AddToRegisterView(TournamentMixin, View):
    """Every participant of the tournament into the register (``services.add_to_register``)."""

    permission = Perm.EDIT_PARTICIPANTS
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        if not can_manage_register(request.user, self.tournament.organisation):
            raise PermissionDenied("register")  # 403.html names whose it is
        add_to_register(request, self.tournament)
        if request.POST.get("back") == "series":
            return redirect("organiser:tournament_series", self.tournament.slug)
        return redirect("organiser:participants", self.tournament.slug)


def add_to_register(request, tournament: Tournament) -> None:
    """The tournament's players into the register (all, or the one of ``number``), and what
    became of them as messages."""
    number = request.POST.get("number", "")
    numbers = [int(number)] if number.isascii() and number.isdigit() else None
    try:
        report = series_service.add_to_register(request.user, tournament, numbers=numbers)
    except ServiceError as error:
        messages.error(request, error.message)
        return
    messages.success(
        request,
        _("Player register: %(created)s new, %(linked)s found already there, %(already)s were linked before.")
        % {"created": report.created, "linked": report.linked, "already": report.already},
    )
    if report.numbers:
        messages.success(request, _("%(n)s season start numbers given.") % {"n": report.numbers})
    for conflict in report.conflicts:
        messages.warning(request, conflict)


def missing_players(user, tournaments) -> list[tuple[Tournament, list, bool]]:
    """Per tournament its players not in the register (``standings.unregistered``), and whether
    the user may add them (register manager and the tournament's organiser: dates of birth)."""
    missing = series_standings.unregistered(tournaments)
    return [
        (
            t,
            missing[t.pk],
            can_manage_register(user, t.organisation) and has_perm(user, t, Perm.EDIT_PARTICIPANTS),
        )
        for t in tournaments
        if t.pk in missing
    ]


class TournamentSeriesView(TournamentMixin, FormView):
    """The organiser puts his tournament into a series, or takes it out."""

    template_name = "organiser/tournament_series.html"
    form_class = TournamentSeriesForm
    permission = Perm.EDIT_TOURNAMENT

    def get_initial(self):
        return {"series": self.tournament.series}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "organisation": self.tournament.organisation}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.tournament.series_id:
            context["missing"] = missing_players(self.request.user, [self.tournament])
        return context

    def form_valid(self, form):
        series = form.cleaned_data["series"]
        if series is None:
            series_service.detach(self.request.user, self.tournament)
        else:
            try:
                series_service.attach(self.request.user, series, self.tournament)
            except ServiceError as error:  # another organisation's series (the form offers none)
                self.refuse(error)
                return redirect("organiser:tournament_series", self.tournament.slug)
        messages.success(self.request, _("Saved."))
        return redirect("organiser:tournament_series", self.tournament.slug)


class SeriesListView(TemplateView):
    """Every series, for everyone; the managers' links beside them."""

    template_name = "public/series_list.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["series_list"] = Series.objects.select_related("organisation").annotate(
            count=Count("tournaments")
        )
        managed = set(administrator_of(self.request.user).values_list("pk", flat=True))
        context["managed"] = managed  # the organisations whose series he manages (issue 29)
        context["can_manage"] = context["can_register"] = bool(managed)
        context["several"] = len({series.organisation_id for series in context["series_list"]}) > 1
        return context


class ManagerMixin(LoginRequiredMixin):
    """A page for series managers: the administrators of the series' organisation (of any, for
    a page of no series), and the site administrator."""

    check = staticmethod(can_manage_series)

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        organisation = None
        if "series" in kwargs:
            self.series = get_object_or_404(
                Series.objects.select_related("organisation"), slug=kwargs["series"]
            )
            organisation = self.series.organisation
        if not self.check(request.user, organisation):
            raise PermissionDenied("series")  # 403.html: the organisation's administrators
        return super().dispatch(request, *args, **kwargs)


class SeriesCreateView(ManagerMixin, FormView):
    template_name = "organiser/series_form.html"
    form_class = SeriesForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "organisations": administrator_of(self.request.user)}

    def get_initial(self):
        # from an organisation's page ("Neue Serie" there): that one, else nothing chosen
        slug = self.request.GET.get("organisation", "")
        found = administrator_of(self.request.user).filter(slug=slug).first()
        return {**super().get_initial(), **({"organisation": found.pk} if found else {})}

    def form_valid(self, form):
        try:
            series = series_service.create_series(self.request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Series created."))
        return redirect("series:manage", series.slug)


class SeriesManageView(ManagerMixin, FormView):
    """The series' rule, and its tournaments: attach, take out."""

    template_name = "organiser/series_form.html"
    form_class = SeriesForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if self.request.method == "POST" and "save" not in self.request.POST:
            kwargs.pop("data", None)
        return {**kwargs, "instance": Series.objects.get(pk=self.series.pk)}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournaments = list(self.series.tournaments.order_by("date", "pk"))
        context.update(
            series=self.series,
            tournaments=tournaments,
            attach_form=AttachForm(series=self.series),
            missing=missing_players(self.request.user, tournaments),
        )
        return context

    def post(self, request, *args, **kwargs):
        if "register" in request.POST:  # issue 28: nobody of the series' tournaments missing
            tournament = get_object_or_404(
                Tournament,
                series=self.series,
                organisation=self.series.organisation,
                slug=request.POST["register"],
            )
            try:
                add_to_register(request, tournament)
            except PermissionDenied:
                messages.error(
                    request,
                    _("Only the tournament's organiser may add its players to the register."),
                )
            return redirect("series:manage", self.series.slug)
        if "attach" in request.POST:
            form = AttachForm(request.POST, series=self.series)
            if form.is_valid():
                try:
                    series_service.attach(request.user, self.series, form.cleaned_data["tournament"])
                except ServiceError as error:  # another organisation's (the form offers none)
                    messages.error(request, error.message)
                else:
                    messages.success(request, _("Tournament added to the series."))
            else:
                messages.error(request, _("Choose a tournament."))
            return redirect("series:manage", self.series.slug)
        if "detach" in request.POST:
            tournament = get_object_or_404(Tournament, series=self.series, slug=request.POST["detach"])
            series_service.detach(request.user, tournament)
            messages.success(request, _("Tournament taken out of the series."))
            return redirect("series:manage", self.series.slug)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            series = series_service.update_series(self.request.user, self.series, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Saved."))
        return redirect("series:manage", series.slug)


class RegisterView(ManagerMixin, TemplateView):
    """The player register: who is in it, with his tournaments and season numbers."""

    template_name = "organiser/register.html"
    check = staticmethod(can_manage_register)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "").strip()
        # Issue 29: the registers of the organisations he administers, no other's.
        organisations = list(administrator_of(self.request.user))
        persons = search_persons(query, organisations).select_related("organisation")
        persons = persons.annotate(tournaments=Count("participations", distinct=True))
        shown, found = by_name(persons, REGISTER_PAGE)
        context.update(
            query=query,
            persons=shown,
            total=Person.objects.filter(organisation__in=organisations).count(),
            more=max(found - REGISTER_PAGE, 0),
            several=len(organisations) > 1,  # which organisation's register, beside each name
        )
        return context


class SeriesStandingsView(TemplateView):
    """The series' standings for everyone, phone first."""

    template_name = "public/series.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        series = get_object_or_404(Series.objects.select_related("organisation"), slug=kwargs["series"])
        standings = series_standings.compute(series)
        can_manage = can_manage_series(self.request.user, series.organisation)
        context.update(series=series, standings=standings, can_manage=can_manage)
        if series.awards:  # issue 30: the cup's awards
            season = series_season.of_series(series)
            context["awards"] = series_season.awards(series, season, user=self.request.user)
        if can_manage:  # who plays in the series' tournaments but is not counted, for its managers
            missing = series_standings.unregistered(standings.tournaments)
            context["unregistered"] = sum(len(players) for players in missing.values())
        return context


class SeriesDocumentView(DocumentMixin, ManagerMixin, TemplateView):
    """The series' standings to print: ``html`` the preview, ``pdf`` the document (WeasyPrint)."""

    template_name = "print/series.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(exports.context(self.series))
        return context

    def pdf_filename(self) -> str:
        return f"{self.series.slug}-wertung.pdf"


class SeriesXlsxView(ManagerMixin, View):
    http_method_names = ["get", "head"]

    def get(self, request, *args, **kwargs):
        filename, mime, content = exports.render_xlsx(self.series)
        response = HttpResponse(content, content_type=mime)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
