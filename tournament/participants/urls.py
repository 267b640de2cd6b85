from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/participants/", views.ParticipantListView.as_view(), name="participants"),
    path("<slug:slug>/participants/add/", views.ParticipantAddView.as_view(), name="participant_add"),
    path(
        "<slug:slug>/participants/status/",
        views.ParticipantStatusView.as_view(),
        name="participant_status",
    ),
    path("<slug:slug>/participants/import/", views.RegistrationImportView.as_view(), name="import"),
    path(
        "<slug:slug>/participants/export.xlsx",
        views.ParticipantExportView.as_view(),
        name="export_participants",
    ),
    path("<slug:slug>/participants/<int:number>/", views.ParticipantEditView.as_view(), name="participant"),
]
