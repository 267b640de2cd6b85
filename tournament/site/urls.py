from django.urls import path

from . import board, organisation, views

organiser = [
    path("<slug:slug>/", views.DashboardView.as_view(), name="dashboard"),
]

public = [
    path("<slug:slug>/", views.OverviewView.as_view(), name="overview"),
    path("<slug:slug>/p/<int:number>/", views.ParticipantView.as_view(), name="participant"),
]

referee = [
    path("<slug:slug>/match/<int:match>/", board.BoardView.as_view(), name="board"),
]

# /verein/<slug>/ (tournament.urls), after the organisations' own addresses
organisation_page = [
    path("<slug:organisation>/", organisation.OrganisationPageView.as_view(), name="page"),
]
