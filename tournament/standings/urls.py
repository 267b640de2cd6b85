from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/standings/", views.StaffStandingsView.as_view(), name="standings"),
    path("<slug:slug>/standings/<int:match>/", views.StaffStandingsView.as_view(), name="match_standings"),
]

public = [
    path("<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    path("<slug:slug>/standings/<int:match>/", views.StandingsView.as_view(), name="match_standings"),
    path("<slug:slug>/projector/", views.ProjectorView.as_view(), name="projector"),
]
