"""The tournament's own pages: the home page of the installation, the public overview and its
QR code, and for the organiser creating, editing, the dashboard and the staff."""

from __future__ import annotations

import io

import segno
from axes.utils import reset as reset_failed_logins
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django.views.generic import FormView, TemplateView

from ..checkin.services import door_counts
from ..draw import services as draw_service
from ..errors import ServiceError
from ..hall import phone_address
from ..participants.models import Participant
from ..results.text import log_change
from . import services as tournament_service
from .access import PublicMixin, TournamentMixin, tournament_at
from .forms import StaffForm, TournamentForm
from .models import StaffRole, Tournament
from .permissions import Perm, can_create_tournament


@require_safe
def home(request):
    """The tournaments on this installation, newest first, with links for their staff."""
    tournaments = list(Tournament.objects.all())
    managed: set[int] = set()
    if request.user.is_authenticated:
        if request.user.is_superuser:
            managed = {t.pk for t in tournaments}
        else:
            managed = set(StaffRole.objects.filter(user=request.user).values_list("tournament_id", flat=True))
    return render(
        request,
        "public/home.html",
        {
            "tournaments": [(t, t.pk in managed) for t in tournaments],
            "can_create": can_create_tournament(request.user),
        },
    )


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """A new password from the mailed link also lifts a log-in lock (django-axes): the lock is
    for someone guessing, and the mailbox has shown this is the user."""

    def form_valid(self, form):
        response = super().form_valid(form)
        reset_failed_logins(username=self.user.get_username())
        return response


class OverviewView(PublicMixin, TemplateView):
    template_name = "public/overview.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["matches"] = self.tournament.matches.all()
        context["participants"] = self.tournament.participants.exclude(
            status=Participant.Status.RESERVE
        ).count()
        return context


def public_url(request, tournament: Tournament) -> str:
    """The public pages' address for phones: under the hall server's address where one is set
    (the organiser may have opened this page on the laptop itself, as 127.0.0.1)."""
    return phone_address(reverse("public:overview", args=[tournament.slug]), request)


class QrCodeView(PublicMixin, TemplateView):
    """A page to print: the QR code of the public address, and the address itself."""

    template_name = "public/qr.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["url"] = public_url(self.request, self.tournament)
        return context


@require_safe
def qr_svg(request, slug):
    tournament = tournament_at(request, slug)
    if isinstance(tournament, HttpResponse):
        return tournament
    buffer = io.BytesIO()
    segno.make(public_url(request, tournament), error="m").save(buffer, kind="svg", scale=10, border=2)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


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


def overrides_in_words(overrides: dict) -> list[str]:
    """Where the rules differ from their profile, as the organiser reads them."""
    words = []
    numbers = {
        "matches": _("%(n)s matches"),
        "games_per_match": _("%(n)s games a match"),
        "solo_approval_from": _("approval from the %(n)sth Solo/Wenz"),
        "min_age": _("minimum age %(n)s"),
    }
    for key, text in numbers.items():
        if key in overrides:
            words.append(text % {"n": overrides[key]})
    points = overrides.get("points", {})
    pairs = {"tout": _("Tout %(values)s"), "sie": _("Sie %(values)s")}
    if "rufer" in points:
        words.append(_("Sauspiel %(values)s") % {"values": "/".join(str(v) for v in points["rufer"])})
    if "solo" in points:
        levels = ", ".join("/".join(str(v) for v in pair) for pair in points["solo"])
        words.append(_("Solo/Wenz %(values)s (plain, Schneider, Schwarz)") % {"values": levels})
    for key, text in pairs.items():
        if key in points:
            words.append(text % {"values": "/".join(str(v) for v in points[key])})
    sanctions = overrides.get("sanctions", {})
    if sanctions:
        parts = [
            f"{name} {'/'.join(str(v) for v in value) if isinstance(value, list) else value}"
            for name, value in (
                ("Sauspiel", sanctions.get("rufer")),
                ("Solo", sanctions.get("solo")),
                ("Tout", sanctions.get("tout")),
            )
            if value is not None
        ]
        words.append(_("sanctions %(values)s") % {"values": ", ".join(parts)})
    return words


def readiness(tournament) -> list[tuple[bool, str]]:
    """What the organiser still has to do before the draw, as (done, text)."""
    counts = tournament.participants.aggregate(
        active=Count("pk", filter=Q(status=Participant.Status.ACTIVE)),
        reserve=Count("pk", filter=Q(status=Participant.Status.RESERVE)),
        no_birth=Count("pk", filter=Q(birth_date__isnull=True)),
    )
    roles = set(tournament.staff.values_list("role", flat=True))
    if tournament.check_in:  # issue 17: the draw takes those checked in at the door
        door = door_counts(tournament)
        message = draw_service.tables_message(door.checked_in, tournament)
        first = (
            message is None,
            _("%(here)s of %(expected)s checked in (%(missing)s missing, %(paid)s paid): %(tables)s")
            % {
                "here": door.checked_in,
                "expected": door.registered,
                "missing": door.missing,
                "paid": door.paid,
                "tables": message or draw_service.tables_text(door.checked_in, tournament),
            },
        )
    else:
        message = draw_service.tables_message(counts["active"], tournament)
        first = (
            message is None,
            message
            or _("%(count)s active participants: %(tables)s")
            % {"count": counts["active"], "tables": draw_service.tables_text(counts["active"], tournament)},
        )
    items = [
        first,
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
        context["games_at_five"] = self.tournament.rules.games_for(5)  # tables of five
        context["matches"] = self.tournament.matches.all()
        history = self.tournament.log.select_related("scoresheet__match", "scoresheet__table")
        shown = self.request.GET.get("history") == "all"
        context["history"] = [(entry, log_change(entry)) for entry in (history if shown else history[:25])]
        context["history_all"] = shown
        context["overrides"] = overrides_in_words(self.tournament.rule_overrides or {})
        return context


class StaffView(TournamentMixin, FormView):
    template_name = "organiser/staff.html"
    form_class = StaffForm
    permission = Perm.MANAGE_STAFF

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["staff"] = self.tournament.staff.select_related("user").order_by("role")
        context["changes"] = self.tournament.log.filter(action__in=("staff.grant", "staff.revoke"))
        return context

    def post(self, request, *args, **kwargs):
        if "revoke" in request.POST:
            try:
                gone = tournament_service.revoke_role(
                    request.user, self.tournament, int(request.POST["revoke"])
                )
            except (ValueError, ServiceError) as error:
                messages.error(request, getattr(error, "message", _("Unknown role.")))
            else:
                messages.success(
                    request,
                    _("%(user)s is no longer %(role)s.")
                    % {"user": gone.user.get_username(), "role": gone.get_role_display()},
                )
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
        messages.success(
            self.request,
            _("%(user)s is now %(role)s.")
            % {
                "user": form.cleaned_data["username"],
                "role": StaffRole.Role(form.cleaned_data["role"]).label,
            },
        )
        return redirect("organiser:staff", self.tournament.slug)
