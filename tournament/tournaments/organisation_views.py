"""The organisations' pages (issue 29, item 2) under /verein/: the list of them for everyone;
for the site administrator creating one and answering the requests; for a signed-in user asking
for one; for an organisation's administrators its members. Its public page, with its
tournaments and series, is tournament/site's (it shows what the series hold)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView, TemplateView

from ..errors import ServiceError
from . import organisation_services as services
from .organisations import Organisation, OrganisationLogEntry, OrganisationRequest
from .permissions import administrator_of, is_administrator, member_of


class OrganisationForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=200)
    slug = forms.SlugField(
        label=gettext_lazy("short name"),
        max_length=80,
        required=False,
        # No angle brackets: Django's form templates print a help text unescaped (|safe), so
        # "<short name>" would be taken for a tag and vanish ("/verein//").
        help_text=gettext_lazy("Its address: /verein/ and the short name; empty: made from the name."),
    )
    admin = forms.CharField(
        label=gettext_lazy("first administrator (user name)"),
        max_length=150,
        help_text=gettext_lazy("He gives the roles of its tournaments and keeps its register and series."),
    )


class RequestForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name of the club or organiser"), max_length=200)
    reason = forms.CharField(
        label=gettext_lazy("what it is for"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("E.g. the club's tournaments of the season; the site administrator reads it."),
    )


class RenameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=200)


class MemberForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("user name"), max_length=150)
    is_admin = forms.BooleanField(
        label=gettext_lazy("administrator"),
        required=False,
        help_text=gettext_lazy(
            "Administrators manage all the organisation's tournaments, its register, series and "
            "members; members create tournaments for it."
        ),
    )


class SiteAdminMixin(LoginRequiredMixin):
    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not request.user.is_superuser:
            raise PermissionDenied("site administrator")  # 403.html says so
        return super().dispatch(request, *args, **kwargs)


class OrganisationListView(TemplateView):
    """Every organisation of the site, with its page; what the visitor may do with them."""

    template_name = "public/organisations.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context.update(
            organisations=Organisation.objects.annotate(count=Count("tournaments")),
            administered=set(administrator_of(user).values_list("pk", flat=True)),
            member=set(member_of(user).values_list("pk", flat=True)) if not user.is_superuser else set(),
            open_requests=(
                OrganisationRequest.objects.filter(status=OrganisationRequest.Status.OPEN).count()
                if user.is_superuser
                else 0
            ),
        )
        return context


class OrganisationCreateView(SiteAdminMixin, FormView):
    template_name = "organiser/organisation_form.html"
    form_class = OrganisationForm

    def form_valid(self, form):
        data = form.cleaned_data
        try:
            organisation = services.create_organisation(
                self.request.user, data["name"], data["slug"], data["admin"]
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("The organisation was created."))
        return redirect("organisation:members", organisation.slug)


class OrganisationRequestView(LoginRequiredMixin, FormView):
    """A signed-in user asks the site administrator for an organisation; his requests' answers."""

    template_name = "organiser/organisation_request.html"
    form_class = RequestForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["requests"] = OrganisationRequest.objects.filter(user=self.request.user).select_related(
            "organisation"
        )
        return context

    def form_valid(self, form):
        try:
            services.request_organisation(
                self.request.user, form.cleaned_data["name"], form.cleaned_data["reason"]
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Your request was sent to the site administrator."))
        return redirect("organisation:request")


class OrganisationRequestsView(SiteAdminMixin, TemplateView):
    """The site administrator approves or declines the requests."""

    template_name = "organiser/organisation_requests.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        requests = OrganisationRequest.objects.select_related("user", "organisation", "decided_by")
        context.update(
            open=requests.filter(status=OrganisationRequest.Status.OPEN),
            answered=requests.exclude(status=OrganisationRequest.Status.OPEN)[:50],
            log=OrganisationLogEntry.objects.filter(action__startswith="organisation.")[:50],
        )
        return context

    def post(self, request, *args, **kwargs):
        try:
            if "approve" in request.POST:
                organisation = services.approve_request(
                    request.user,
                    int(request.POST["approve"]),
                    request.POST.get("slug", "").strip(),
                    site=request.build_absolute_uri("/"),
                )
                messages.success(request, _("%(name)s was created.") % {"name": organisation.name})
            elif "decline" in request.POST:
                site = request.build_absolute_uri("/")
                services.decline_request(request.user, int(request.POST["decline"]), site=site)
                messages.success(request, _("The request was declined."))
        except ValueError:
            messages.error(request, _("Unknown request."))
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect("organisation:requests")


class MembersView(LoginRequiredMixin, FormView):
    """An organisation's administrators take in members, make them administrators, remove them."""

    template_name = "organiser/organisation_members.html"
    form_class = MemberForm

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.organisation = get_object_or_404(Organisation, slug=kwargs["organisation"])
        if not is_administrator(request.user, self.organisation):
            raise PermissionDenied("organisation administrator")  # 403.html says so
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            organisation=self.organisation,
            members=self.organisation.members.select_related("user"),
            log=self.organisation.log.all()[:50],
            rename_form=kwargs.get("rename_form") or RenameForm(initial={"name": self.organisation.name}),
        )
        return context

    def post(self, request, *args, **kwargs):
        if "remove" in request.POST:
            try:
                gone = services.remove_member(request.user, self.organisation, int(request.POST["remove"]))
            except (ValueError, ServiceError) as error:
                messages.error(request, getattr(error, "message", _("Unknown member.")))
            else:
                messages.success(
                    request, _("%(user)s is no longer a member.") % {"user": gone.user.get_username()}
                )
            return redirect("organisation:members", self.organisation.slug)
        if "rename" in request.POST:
            rename_form = RenameForm(request.POST)
            if not rename_form.is_valid():
                return self.render_to_response(self.get_context_data(rename_form=rename_form))
            services.rename_organisation(request.user, self.organisation, rename_form.cleaned_data["name"])
            messages.success(request, _("Saved."))
            return redirect("organisation:members", self.organisation.slug)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        try:
            services.add_member(
                self.request.user,
                self.organisation,
                form.cleaned_data["username"],
                form.cleaned_data["is_admin"],
            )
        except ServiceError as error:
            form.add_error("username", error.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Saved."))
        return redirect("organisation:members", self.organisation.slug)
