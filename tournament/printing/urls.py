from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/export.xlsx", views.ExportXlsxView.as_view(), name="export_xlsx"),
    path(
        "<slug:slug>/print/<int:match>/scoresheets.<str:format>",
        views.ScoresheetsPrintView.as_view(),
        name="print_scoresheets",
    ),
    path("<slug:slug>/print/rankings.<str:format>", views.RankingsView.as_view(), name="rankings_doc"),
    path(
        "<slug:slug>/print/certificates.<str:format>",
        views.CertificatesView.as_view(),
        name="certificates_doc",
    ),
]

referee = [
    path(
        "<slug:slug>/match/<int:match>/table/<int:table>/sheet.pdf",
        views.ScoresheetPdfView.as_view(),
        name="sheet_pdf",
    ),
    path(
        "<slug:slug>/match/<int:match>/table-cards.<str:format>",
        views.TableCardsView.as_view(),
        name="table_cards",
    ),
]
