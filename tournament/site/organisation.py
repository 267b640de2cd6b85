"""An organisation's public page, /verein/<slug>/ (issue 29, item 2): its tournaments and its
series, for everyone; for its administrators the links to manage them."""

from __future__ import annotations

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from ..series.models import Series
from ..tournaments.organisations import Organisation
from ..tournaments.permissions import is_administrator


class OrganisationPageView(TemplateView):
    template_name = "public/organisation.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        organisation = get_object_or_404(Organisation, slug=kwargs["organisation"])
        context.update(
            organisation=organisation,
            tournaments=organisation.tournaments.order_by("-date", "name"),
            series_list=Series.objects.filter(organisation=organisation).annotate(count=Count("tournaments")),
            administrator=is_administrator(self.request.user, organisation),
        )
        return context
