from django.urls import path

from . import organisation_views, views

organiser = [
    path("new/", views.TournamentCreateView.as_view(), name="create"),
    path("<slug:slug>/edit/", views.TournamentEditView.as_view(), name="edit"),
    path("<slug:slug>/staff/", views.StaffView.as_view(), name="staff"),
]

public = [
    path("<slug:slug>/qr/", views.QrCodeView.as_view(), name="qr"),
    path("<slug:slug>/qr.svg", views.qr_svg, name="qr_svg"),
]

# /verein/ (issue 29): "new/", "request/", "requests/" before any "<slug>/"
# (organisation_services.RESERVED_ORGANISATION_SLUGS); its page is tournament/site's.
organisation = [
    path("", organisation_views.OrganisationListView.as_view(), name="list"),
    path("new/", organisation_views.OrganisationCreateView.as_view(), name="create"),
    path("request/", organisation_views.OrganisationRequestView.as_view(), name="request"),
    path("requests/", organisation_views.OrganisationRequestsView.as_view(), name="requests"),
    path("<slug:organisation>/members/", organisation_views.MembersView.as_view(), name="members"),
]
