from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/prizes/", views.PrizesView.as_view(), name="prizes"),
    path("<slug:slug>/print/prizes.<str:format>", views.PrizesDocumentView.as_view(), name="prizes_doc"),
]
