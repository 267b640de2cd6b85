from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/teams/", views.TeamsView.as_view(), name="teams"),
    path("<slug:slug>/teams/lots/", views.TeamLotsView.as_view(), name="team_lots"),
    path("<slug:slug>/teams/<int:team>/", views.TeamView.as_view(), name="team"),
    path("<slug:slug>/print/teams.<str:format>", views.TeamRankingsView.as_view(), name="team_rankings_doc"),
]

public = [
    path("<slug:slug>/teams/", views.PublicTeamStandingsView.as_view(), name="team_standings"),
]
