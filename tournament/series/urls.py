"""The register and series addresses: a tournament's own under /manage/<slug>/ (organiser), the
series' under /series/ (their pages span tournaments; tournament.urls mounts them there)."""

from django.urls import path

from . import stats_views, views

organiser = [
    path("<slug:slug>/take/", views.TakeParticipantsView.as_view(), name="take_participants"),
    path("<slug:slug>/register/", views.AddToRegisterView.as_view(), name="add_to_register"),
    path("<slug:slug>/series/", views.TournamentSeriesView.as_view(), name="tournament_series"),
]

# "new/", "register/" and "players/" before "<slug:series>/" (services.RESERVED_SERIES_SLUGS).
series = [
    path("", views.SeriesListView.as_view(), name="list"),
    path("new/", views.SeriesCreateView.as_view(), name="create"),
    path("register/", views.RegisterView.as_view(), name="register"),
    path("register/<int:person>/consent/", stats_views.ConsentView.as_view(), name="consent"),
    path("players/<int:person>/", stats_views.PlayerView.as_view(), name="player"),
    path("<slug:series>/", views.SeriesStandingsView.as_view(), name="standings"),
    path("<slug:series>/stats/", stats_views.SeriesStatsView.as_view(), name="stats"),
    path("<slug:series>/manage/", views.SeriesManageView.as_view(), name="manage"),
    path("<slug:series>/standings.xlsx", views.SeriesXlsxView.as_view(), name="xlsx"),
    path("<slug:series>/standings.<str:format>", views.SeriesDocumentView.as_view(), name="document"),
]
