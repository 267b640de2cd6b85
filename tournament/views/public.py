from django.shortcuts import render

from ..models import StaffRole, Tournament
from ..permissions import can_create_tournament


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
