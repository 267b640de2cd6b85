"""What every page of a tournament shares: the tournament looked up by its slug; for the staff
the permission checked for it and the permissions handed to the template."""

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from ..errors import ServiceError
from ..prepared import Prepared
from .models import OldSlug, Tournament, status_facts
from .permissions import Perm, permissions

POLL_SECONDS = 30


def swaps_part(request) -> bool:
    """Whether htmx asks for a part of the page to swap in (polling, a change link), rather than
    a whole page (a boosted link or a plain request)."""
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


class PartialMixin:
    """A page whose part ``partial_name`` htmx swaps on its own: such a request gets that part."""

    partial_name: str

    def get_template_names(self):
        if swaps_part(self.request):
            return [self.partial_name]
        return super().get_template_names()


# The public pages' lookup (the players' phones poll the standings): with what its status needs,
# in one query compiled once (tournament.prepared).
_PUBLIC = Prepared(
    lambda slug: Tournament.objects.filter(slug=slug).annotate(**status_facts()).order_by(), str
)


def tournament_at(request, slug: str, public: bool = False) -> Tournament | HttpResponse:
    """The tournament of an address; under a short name it had before, a permanent redirect to
    the same page under its name now (printed QR codes and links keep working). ``public``:
    a visitor's page, which reads the tournament's status with it (``status_facts``)."""
    if public:
        found = _PUBLIC.first(slug)
        if found is not None:
            return found
    else:
        try:  # get(), not first(): no ORDER BY
            return Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            pass
    renamed = OldSlug.renamed(slug)
    if renamed is None:
        raise Http404
    match = request.resolver_match
    url = reverse(
        f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name,
        kwargs={**match.kwargs, "slug": renamed.slug},
    )
    query = request.META.get("QUERY_STRING")
    return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


class TournamentMixin(LoginRequiredMixin):
    permission: Perm = Perm.VIEW_STAFF_PAGES

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        found = tournament_at(request, kwargs["slug"])
        if isinstance(found, HttpResponse):
            return found
        self.tournament = found
        self.allowed = permissions(request.user, self.tournament)  # one query per request
        if self.permission not in self.allowed:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def can(self, perm: Perm) -> bool:
        return perm in self.allowed

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["allowed"] = {perm.value for perm in self.allowed}
        return context

    def refuse(self, error: ServiceError) -> None:
        messages.error(self.request, error.message)
        for detail in error.details:
            messages.error(self.request, detail)

    def refuse_form(self, form: forms.Form) -> None:
        """Each error of a form as a message naming its field."""
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for error in errors:
                messages.error(self.request, f"{label}: {error}" if label else error)

    def safe_next(self, fallback: str) -> str:
        target = self.request.POST.get("next", "")
        if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={self.request.get_host()}, require_https=self.request.is_secure()
        ):
            return target
        return fallback


class PublicMixin:
    """A tournament's public page: looked up by its slug, answers GET only."""

    http_method_names = ["get", "head"]

    def dispatch(self, request, *args, **kwargs):
        found = tournament_at(request, kwargs["slug"], public=True)
        if isinstance(found, HttpResponse):
            return found
        self.tournament = found
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["running"] = self.tournament.current_status == Tournament.Status.RUNNING
        context["poll_seconds"] = POLL_SECONDS
        return context
