"""The tournament's own pages: the home page of the installation, the QR code of its public
pages, and for the organiser creating, editing and the staff. The pages that show what several
capabilities hold (the dashboard, the public overview) are tournament/site's."""

from __future__ import annotations

import io

import segno
from axes.utils import reset as reset_failed_logins
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django.views.generic import FormView, TemplateView

from ..errors import ServiceError
from ..hall import phone_address
from ..throttle import client_address, limit
from . import services as tournament_service
from .access import PublicMixin, TournamentMixin, tournament_at
from .forms import StaffForm, TournamentForm
from .models import StaffRole, Tournament
from .organisations import Organisation, OrganisationRequest
from .permissions import Perm, administrator_of, can_create_tournament, member_of


@require_safe
def home(request):
    """The tournaments on this installation, newest first, with links for their staff."""
    tournaments = list(Tournament.objects.select_related("organisation"))
    managed: set[int] = set()
    if request.user.is_authenticated:
        if request.user.is_superuser:
            managed = {t.pk for t in tournaments}
        else:
            managed = set(StaffRole.objects.filter(user=request.user).values_list("tournament_id", flat=True))
            # an administrator manages every tournament of his organisations (issue 29)
            administered = set(administrator_of(request.user).values_list("pk", flat=True))
            managed |= {t.pk for t in tournaments if t.organisation_id in administered}
    open_requests = 0
    if request.user.is_superuser:
        open_requests = OrganisationRequest.objects.filter(status=OrganisationRequest.Status.OPEN).count()
    return render(
        request,
        "public/home.html",
        {
            "tournaments": [(t, t.pk in managed) for t in tournaments],
            "can_create": can_create_tournament(request.user),
            # the club beside each tournament where the site has several (issue 29)
            "several": Organisation.objects.count() > 1,
            # his organisations' pages (the site administrator has the list of all under /verein/)
            "administered": [] if request.user.is_superuser else list(administrator_of(request.user)),
            # requests waiting for the site administrator: otherwise seen only on /verein/ (walk)
            "open_requests": open_requests,
        },
    )


class PasswordResetView(auth_views.PasswordResetView):
    """Reset links are sent at most a few times an hour from one address and to one e-mail
    address (``THROTTLE``): no flood of mails from the site, and no mailbox flooded."""

    def form_valid(self, form):
        address = client_address(self.request)
        email = form.cleaned_data["email"].strip().lower()
        by_address, by_email = limit("reset_address"), limit("reset_email")
        if by_address.reached(address) or by_email.reached(email):
            form.add_error(None, _("Too many requests for a new password. Please try again in an hour."))
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(max(by_address.retry_after(), by_email.retry_after()))
            return response
        by_address.add(address)
        by_email.add(email)
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """A new password from the mailed link also lifts a log-in lock (django-axes): the lock is
    for someone guessing, and the mailbox has shown this is the user."""

    def form_valid(self, form):
        response = super().form_valid(form)
        reset_failed_logins(username=self.user.get_username())
        return response


def phone_address_plain(path: str, request) -> str:
    """The hall's plain HTTP address of ``path`` (the root of its own CA is fetched there)."""
    return (settings.HALL_HTTP_URL or request.build_absolute_uri("/").rstrip("/")) + path


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
        if settings.HALL_TLS_MODE == "internal":  # the hall's own CA: phones install its root first
            context["hall_ca"] = phone_address_plain("/hall/ca/", self.request)
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
            raise PermissionDenied("organisation")  # 403.html: members of an organisation create
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "organisations": member_of(self.request.user)}

    def get_initial(self):
        # from an organisation's page ("Neues Turnier" there): that one, else nothing chosen
        found = member_of(self.request.user).filter(slug=self.request.GET.get("organisation", "")).first()
        return {**super().get_initial(), **({"organisation": found.pk} if found else {})}

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
