from django.urls import path

from . import substitute_views, views

referee = [
    path("<slug:slug>/match/<int:match>/table/<int:table>/", views.ScoresheetView.as_view(), name="sheet"),
    path(
        "<slug:slug>/match/<int:match>/draw/<int:draw>/table/<int:table>/",
        views.ScoresheetView.as_view(),
        name="discarded_sheet",
    ),
    path("<slug:slug>/handcheck/", views.HandCheckView.as_view(), name="handcheck"),
    path("<slug:slug>/match/<int:match>/table/<int:table>/scan", views.ScanView.as_view(), name="scan"),
]

organiser = [
    path(
        "<slug:slug>/participants/<int:number>/substitute/",
        substitute_views.SubstituteView.as_view(),
        name="substitute",
    ),
]
