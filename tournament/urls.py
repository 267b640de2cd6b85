from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from .views import documents, exchange, organiser, public, referee

organiser_patterns = [
    path("new/", organiser.TournamentCreateView.as_view(), name="create"),
    path("import/", exchange.ImportView.as_view(), name="import_document"),
    path("<slug:slug>/export.json", exchange.ExportView.as_view(), name="export"),
    path("<slug:slug>/export.xlsx", exchange.ExportXlsxView.as_view(), name="export_xlsx"),
    path(
        "<slug:slug>/print/<int:match>/scoresheets.<str:format>",
        exchange.ScoresheetsPrintView.as_view(),
        name="print_scoresheets",
    ),
    path("<slug:slug>/", organiser.DashboardView.as_view(), name="dashboard"),
    path("<slug:slug>/edit/", organiser.TournamentEditView.as_view(), name="edit"),
    path("<slug:slug>/staff/", organiser.StaffView.as_view(), name="staff"),
    path("<slug:slug>/participants/", organiser.ParticipantListView.as_view(), name="participants"),
    path("<slug:slug>/participants/add/", organiser.ParticipantAddView.as_view(), name="participant_add"),
    path(
        "<slug:slug>/participants/status/",
        organiser.ParticipantStatusView.as_view(),
        name="participant_status",
    ),
    path("<slug:slug>/participants/import/", organiser.RegistrationImportView.as_view(), name="import"),
    path(
        "<slug:slug>/participants/export.xlsx",
        organiser.ParticipantExportView.as_view(),
        name="export_participants",
    ),
    path(
        "<slug:slug>/participants/<int:number>/", organiser.ParticipantEditView.as_view(), name="participant"
    ),
    path(
        "<slug:slug>/participants/<int:number>/substitute/",
        organiser.SubstituteView.as_view(),
        name="substitute",
    ),
    path("<slug:slug>/draw/", organiser.DrawView.as_view(), name="draw"),
    path("<slug:slug>/lists/tables/<int:match>/", organiser.TableListView.as_view(), name="table_list"),
    path("<slug:slug>/lists/seats/", organiser.SeatListView.as_view(), name="seat_list"),
    path(
        "<slug:slug>/lists/tables/<int:match>.<str:format>",
        organiser.TableListView.as_view(),
        name="table_list_doc",
    ),
    path("<slug:slug>/lists/seats.<str:format>", organiser.SeatListView.as_view(), name="seat_list_doc"),
    path("<slug:slug>/print/rankings.<str:format>", documents.RankingsView.as_view(), name="rankings_doc"),
    path(
        "<slug:slug>/print/certificates.<str:format>",
        documents.CertificatesView.as_view(),
        name="certificates_doc",
    ),
    path("<slug:slug>/standings/", organiser.StaffStandingsView.as_view(), name="standings"),
    path(
        "<slug:slug>/standings/<int:match>/", organiser.StaffStandingsView.as_view(), name="match_standings"
    ),
]

public_patterns = [
    path("<slug:slug>/", public.OverviewView.as_view(), name="overview"),
    path("<slug:slug>/standings/", public.StandingsView.as_view(), name="standings"),
    path("<slug:slug>/standings/<int:match>/", public.StandingsView.as_view(), name="match_standings"),
    path("<slug:slug>/p/<int:number>/", public.ParticipantView.as_view(), name="participant"),
    path("<slug:slug>/projector/", public.ProjectorView.as_view(), name="projector"),
    path("<slug:slug>/qr/", public.QrCodeView.as_view(), name="qr"),
    path("<slug:slug>/qr.svg", public.qr_svg, name="qr_svg"),
]

referee_patterns = [
    path("<slug:slug>/match/<int:match>/", referee.BoardView.as_view(), name="board"),
    path("<slug:slug>/match/<int:match>/table/<int:table>/", referee.ScoresheetView.as_view(), name="sheet"),
    path("<slug:slug>/handcheck/", referee.HandCheckView.as_view(), name="handcheck"),
    path("<slug:slug>/match/<int:match>/table/<int:table>/scan", referee.ScanView.as_view(), name="scan"),
    path(
        "<slug:slug>/match/<int:match>/table/<int:table>/sheet.pdf",
        exchange.ScoresheetPdfView.as_view(),
        name="sheet_pdf",
    ),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("manage/", include((organiser_patterns, "organiser"))),
    path("referee/", include((referee_patterns, "referee"))),
    path("t/", include((public_patterns, "public"))),
    path("i18n/", include("django.conf.urls.i18n")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]
