"""What every staff page of a tournament shares: the tournament looked up by its slug, the
permission checked for it, and the permissions handed to the template."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from ..models import Participant, Tournament
from ..permissions import Perm, has_perm, permissions
from ..services import ServiceError


class TournamentMixin(LoginRequiredMixin):
    permission: Perm = Perm.VIEW_STAFF_PAGES

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        if not has_perm(request.user, self.tournament, self.permission):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["allowed"] = {perm.value for perm in permissions(self.request.user, self.tournament)}
        return context

    def participant(self, number: int) -> Participant:
        """Looked up through the tournament: a number of another tournament is a 404."""
        return get_object_or_404(Participant, tournament=self.tournament, number=number)

    def refuse(self, error: ServiceError) -> None:
        messages.error(self.request, error.message)
        for detail in error.details:
            messages.error(self.request, detail)
