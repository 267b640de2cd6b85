from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/downloads/", views.DownloadsView.as_view(), name="downloads"),
    path("<slug:slug>/downloads/<int:pk>/file", views.DownloadFileView.as_view(), name="download_file"),
    path("<slug:slug>/downloads/<int:pk>/delete", views.DeleteDownloadView.as_view(), name="download_delete"),
    path("<slug:slug>/downloads/<int:pk>/cancel", views.CancelDownloadView.as_view(), name="download_cancel"),
]
