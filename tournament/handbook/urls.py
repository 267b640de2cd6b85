from django.urls import path

from . import views

handbook = [
    path("", views.index, name="index"),
    path("tischkarte.<str:format>", views.card, name="card"),
    path("<slug:part>/", views.part, name="part"),
]
