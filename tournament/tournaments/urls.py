from django.urls import path

from . import views

organiser = [
    path("new/", views.TournamentCreateView.as_view(), name="create"),
    path("<slug:slug>/edit/", views.TournamentEditView.as_view(), name="edit"),
    path("<slug:slug>/staff/", views.StaffView.as_view(), name="staff"),
]

public = [
    path("<slug:slug>/qr/", views.QrCodeView.as_view(), name="qr"),
    path("<slug:slug>/qr.svg", views.qr_svg, name="qr_svg"),
]
