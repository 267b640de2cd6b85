from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/checkin/", views.CheckInView.as_view(), name="checkin"),
    path("<slug:slug>/checkin/<int:number>/", views.CheckInView.as_view(), name="checkin_one"),
    path(
        "<slug:slug>/checkin/confirmations.<str:format>",
        views.ConfirmationsView.as_view(),
        name="confirmations",
    ),
]
