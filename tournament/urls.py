"""The addresses of the site: each capability lists its own per audience (organiser, referee,
public), and they are mounted here under one namespace per audience."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from django.views.i18n import set_language

from .checkin import urls as checkin
from .draw import urls as draw
from .exchange import urls as exchange
from .handbook import urls as handbook
from .jobs import urls as jobs
from .participants import urls as participants
from .printing import urls as printing
from .prizes import urls as prizes
from .results import urls as results
from .series import urls as series
from .site import urls as site
from .site.hall_ca import hall_ca, hall_ca_root
from .site.seal_key import seal_key
from .standings import urls as standings
from .tablephone import urls as tablephone
from .teams import urls as teams
from .tournaments import urls as tournaments
from .tournaments.views import PasswordResetConfirmView, PasswordResetView, home

# "import/" (exchange) and "new/" (first of tournaments) before any "<slug>/".
organiser_patterns = [
    *exchange.organiser,
    *tournaments.organiser,
    *site.organiser,
    *printing.organiser,
    *jobs.organiser,
    *participants.organiser,
    *results.organiser,
    *checkin.organiser,
    *draw.organiser,
    *standings.organiser,
    *series.organiser,
    *prizes.organiser,
    *teams.organiser,
]
referee_patterns = [*site.referee, *results.referee, *printing.referee, *tablephone.referee]
public_patterns = [*tournaments.public, *site.public, *standings.public, *teams.public]


@require_safe
def favicon(request):
    return redirect(static("favicon.svg"), permanent=True)


@require_safe
def to_home(request):
    return redirect("home")


urlpatterns = [
    path("", home, name="home"),
    # Browsers ask for /favicon.ico whatever the page says (PDFs, images, error pages).
    path("favicon.ico", favicon, name="favicon"),
    path("seal-key/", seal_key, name="seal_key"),  # the public key of the seals (issue 27)
    # The root of the hall's own CA for the phones (issue 29, HALL_TLS=internal), also over HTTP.
    path("hall/ca/", hall_ca, name="hall_ca"),
    path("hall/ca/root.crt", hall_ca_root, name="hall_ca_root"),
    # The folders' own addresses (typed or shortened by hand) lead to the list of tournaments.
    path("manage/", to_home, name="manage_folder"),
    path("referee/", to_home, name="referee_folder"),
    path("t/", to_home, name="public_folder"),
    path("manage/", include((organiser_patterns, "organiser"))),
    path("referee/", include((referee_patterns, "referee"))),
    path("t/", include((public_patterns, "public"))),
    path("tisch/", include((tablephone.table, "table"))),
    path("series/", include((series.series, "series"))),  # a series spans tournaments
    # the organisations (issue 29): their list, their pages with tournaments and series
    path("verein/", include(([*tournaments.organisation, *site.organisation_page], "organisation"))),
    path("hilfe/", include((handbook.handbook, "handbook"))),  # the handbook (issue 31)
    # The language switch needs no CSRF token: the worst a forged one does is change a visitor's
    # language, and without a token the public pages are the same for every visitor, so the
    # standings can be served whole from the cache (tournament/standings/views.py).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"
    ),
    path("admin/", admin.site.urls),
]
