from django.urls import path

from . import views

organiser = [
    path("import/", views.ImportView.as_view(), name="import_document"),
    path("<slug:slug>/export.json", views.ExportView.as_view(), name="export"),
]
