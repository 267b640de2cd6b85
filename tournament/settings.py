"""Settings of Schafkopf-Turnier. Everything that differs between a laptop in the village hall
and a server comes from the environment: ``DATABASE_URL``, ``SECRET_KEY`` (or
``SECRET_KEY_FILE``), ``SEAL_KEY_FILE``, ``DEBUG``, ``ALLOWED_HOSTS``, ``HTTPS``, ``PROXY`` (and
``PROXY_ADDRESSES``), ``HALL_URL``, ``REDIS_URL``, and the hall's certificate (``HALL_DOMAIN``,
``TLS_CERT_FILE`` and ``TLS_KEY_FILE``, ``HALL_TLS``). Unset, they give a safe development setup on
SQLite; ``make hall`` sets them for the hall's network."""

import datetime
import os
import socket
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

_DEV_SECRET_KEY = "dev-only-not-secret-schafkopf-turnier"  # noqa: S105


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _secret_key() -> str:
    """SECRET_KEY, or the contents of the file SECRET_KEY_FILE names (``make hall`` generates
    one on first start and keeps it in the project folder, ignored by git)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = os.environ.get("SECRET_KEY_FILE")
    if path and Path(path).exists():  # not made yet: the hall server makes it on first start
        try:
            key = Path(path).read_text().strip()
        except OSError as error:
            raise ImproperlyConfigured(f"SECRET_KEY_FILE {path}: {error.strerror}") from None
        if key:
            return key
    return _DEV_SECRET_KEY


SECRET_KEY = _secret_key()
# Without a secret key of its own the app can only be a development setup: DEBUG defaults on.
DEBUG = _flag("DEBUG", SECRET_KEY == _DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY in the environment.")

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip() for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if origin
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the built-in form templates, beside the project's own (FORM_RENDERER)
    "django_htmx",
    "django_tables2",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "tournament.apps.TournamentConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed for the hall's Wi-Fi: a standings page of 54 kB goes out as 6 kB.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into its page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.handbook.context.help_link",  # "Hilfe" in the header (issue 31)
            ],
        },
    },
]

# Database: DATABASE_URL, or SQLite in the project folder.
# An empty DATABASE_URL counts as unset.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # The hall server keeps each thread's connection (CONN_MAX_AGE seconds, checked before
        # use); the development server opens one per request.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE") or 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several referees write at once: WAL lets readers go on while one writes, IMMEDIATE takes
    # the write lock at the start of a transaction (no deadlock on upgrade), and a writer waits
    # for the lock instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # The same backend, with the writers waiting in a queue for the write lock rather than
    # sleeping and trying again (tournament/sqlite_backend).
    DATABASES["default"]["ENGINE"] = "tournament.sqlite_backend"
    # The tests' database in memory, as Django makes it for SQLite anyway, said outright: under
    # pytest-xdist, pytest-django would otherwise name a file after it (it knows SQLite only by
    # Django's own engine name), and each worker process has its own memory already.
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters sent apart from the SQL, and a query a connection has run five times kept
    # planned by PostgreSQL (the table phones' few queries, hundreds a second). PG_PREPARED=0
    # behind a pooler that cannot keep prepared statements (PgBouncer in transaction mode).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5 if _flag("PG_PREPARED", True) else None
    )

# The hot paths' queries compiled by the ORM once and then run as SQL (tournament/prepared.py,
# which relies on some of Django's private names: pyproject.toml lists them beside the pin).
# PREPARED_QUERIES=0 runs every query through the plain ORM, with the same results.
PREPARED_QUERIES = _flag("PREPARED_QUERIES", True)

# Background jobs (django-tasks): kept in the app's own database, run by ``manage.py run_jobs``.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# The name of this machine in a job worker's id (tournament/jobs/runner.py): the host name, or
# MACHINE_NAME where two machines share one (containers cloned from one image).
MACHINE_NAME = (os.environ.get("MACHINE_NAME") or socket.gethostname())[:40]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed log-ins are throttled (django-axes): five wrong passwords for one user from one address
# lock that pair out for 15 minutes, a right one clears the pair's count; twenty wrong passwords
# from one address for any users (one password tried on many) lock the address out
# (tournament/throttle.py, README "What is throttled"). Nobody is locked out from elsewhere.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_ADDRESS_FAILURE_LIMIT = 20
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = "tournament.throttle.login_lockout_parameters"
AXES_CLIENT_IP_CALLABLE = "tournament.throttle.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
AXES_VERBOSE = False

# Password reset mails: printed to the console unless an SMTP server is set (EMAIL_HOST).
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _flag("EMAIL_USE_TLS", True)
    # A mail server that does not answer holds the page that sends (a password reset, the answer
    # to an organisation request) this long at most, not until gunicorn's timeout.
    EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT") or 10)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "schafkopf-turnier@localhost")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# German first (the game's own words), English second.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "tournament" / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Form templates from the project's templates first (templates/django/forms/p.html).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Static files are served from the source folders without a collectstatic step; the hall server
# (manage.py hall) collects them first and sets STATIC_COLLECTED=1, so that whitenoise serves the
# compressed copies (found files would take their place, uncompressed).
WHITENOISE_USE_FINDERS = os.environ.get("STATIC_COLLECTED") != "1"
WHITENOISE_AUTOREFRESH = DEBUG

MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"
# Scans of signed paper lists and uploaded documents: outside every served folder, read only
# through views that check the staff (tournament/storage.py).
PRIVATE_ROOT = Path(os.environ.get("PRIVATE_ROOT") or BASE_DIR / "private")
# The server's Ed25519 seal key (issue 27): beside the secret key, made on first use, readable by
# its owner only; never in the database or a backup (tournament/sealkey.py).
SEAL_KEY_FILE = Path(os.environ.get("SEAL_KEY_FILE") or BASE_DIR / ".seal_key")

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# The organisation of a site with one (issue 29, item 2; tournament/tournaments/organisations.py):
# what exists before organisations, and whatever is created without naming one, belongs to it.
DEFAULT_ORGANISATION_NAME = os.environ.get("DEFAULT_ORGANISATION_NAME", "Verein").strip() or "Verein"
DEFAULT_ORGANISATION_SLUG = os.environ.get("DEFAULT_ORGANISATION_SLUG", "verein").strip() or "verein"

# The address phones in the hall use (``make hall`` sets it): the QR codes point there, whatever
# address the page that shows them was opened under.
HALL_URL = os.environ.get("HALL_URL", "").rstrip("/")
# A visitor's standings page is kept this many seconds (0: never), and may then show the results
# of up to this many seconds ago while results keep coming (visitors' pages poll every 30 s).
STANDINGS_FRESH_SECONDS = int(os.environ.get("STANDINGS_FRESH_SECONDS", "10"))
# A visitor's search of the standings (a player's own line, polled) answered from the part and
# lines drawn once per standings computation (tournament/standings/drawn.py); off: drawn afresh.
STANDINGS_DRAWN_SEARCHES = _flag("STANDINGS_DRAWN_SEARCHES", True)
# The table phone's scoresheet rows kept drawn per process (tournament/results/rows.py); 0: drawn
# for every answer.
ROW_CACHE = os.environ.get("ROW_CACHE", "1") != "0"


def _cache(url: str) -> dict:
    """The cache the server's processes share (the hall's gunicorn runs several): the visitors'
    standings pages drawn once for all of them. Unset, files in a folder of the project's (or
    CACHE_DIR), written atomically, nothing to install; ``redis://host:port/db`` (or
    ``rediss://``, ``unix://``) Django's Redis cache, shared by several machines (README
    "Several machines")."""
    if not url:
        return {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.environ.get("CACHE_DIR") or str(BASE_DIR / ".cache"),
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    if url.split("://", 1)[0] not in ("redis", "rediss", "unix"):
        raise ImproperlyConfigured(
            f"REDIS_URL {url!r}: give a Redis address (redis://127.0.0.1:6379/0), or leave it unset "
            "for the cache folder"
        )
    return {
        # Django's, with one Redis client per process instead of one per call (redis_cache.py)
        "BACKEND": "tournament.redis_cache.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "schafkopf",
        # A Redis that does not answer costs a page its caching, not seconds of waiting.
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }


def _redis_url() -> str:
    """``REDIS_URL``, the name issue 29 and most hosts give it; ``CACHE_URL``, its earlier name,
    still read. Both set to different addresses is a mistake said at start, not a guess."""
    redis = os.environ.get("REDIS_URL", "").strip()
    cache_url = os.environ.get("CACHE_URL", "").strip()
    if redis and cache_url and redis != cache_url:
        raise ImproperlyConfigured(
            f"REDIS_URL {redis!r} and CACHE_URL {cache_url!r} differ: set REDIS_URL alone "
            "(CACHE_URL is its older name)."
        )
    return redis or cache_url


REDIS_URL = _redis_url()
CACHES = {"default": _cache(REDIS_URL)}


def _tls_mode() -> str:
    """How ``make hall``'s Caddy gets the site's certificate (issue 29, README "HTTPS in the hall
    and online"): ``files`` the club's own (TLS_CERT_FILE and TLS_KEY_FILE), ``acme`` one from
    Let's Encrypt for HALL_DOMAIN (online), ``internal`` Caddy's own certificate authority
    (HALL_TLS=internal), ``none`` plain HTTP (nothing set)."""
    cert, key = os.environ.get("TLS_CERT_FILE", "").strip(), os.environ.get("TLS_KEY_FILE", "").strip()
    internal = os.environ.get("HALL_TLS", "").strip().lower()
    if internal not in ("", "internal"):
        raise ImproperlyConfigured(f"HALL_TLS={internal!r}: the only value is 'internal' (Caddy's own CA)")
    if bool(cert) != bool(key):
        raise ImproperlyConfigured("Set both TLS_CERT_FILE and TLS_KEY_FILE (the certificate and its key).")
    if internal and (cert or os.environ.get("HALL_DOMAIN", "").strip()):
        raise ImproperlyConfigured("HALL_TLS=internal goes without HALL_DOMAIN and TLS_CERT_FILE.")
    if cert:
        return "files"
    if os.environ.get("HALL_DOMAIN", "").strip():
        return "acme"
    return "internal" if internal else "none"


HALL_TLS_MODE = _tls_mode()
HALL_DOMAIN = os.environ.get("HALL_DOMAIN", "").strip().lower()
TLS_CERT_FILE = os.environ.get("TLS_CERT_FILE", "").strip()
TLS_KEY_FILE = os.environ.get("TLS_KEY_FILE", "").strip()
# Caddy's data (its certificates, the keys of its internal CA): beside the secret key, readable
# by its owner only, never in a backup (the backup copies PRIVATE_ROOT whole).
CADDY_DATA_DIR = Path(os.environ.get("CADDY_DATA_DIR") or BASE_DIR / ".caddy")
# The root of Caddy's internal CA, which /hall/ca/ hands to the phones (HALL_TLS=internal).
HALL_CA_ROOT = CADDY_DATA_DIR / "pki" / "authorities" / "local" / "root.crt"
# The hall's plain HTTP address (``make hall`` sets it with HALL_TLS=internal): the QR code of
# /hall/ca/ points there, as a phone fetches the root before it trusts the HTTPS address.
HALL_HTTP_URL = os.environ.get("HALL_HTTP_URL", "").rstrip("/")

# HTTPS=1 where the site is served over HTTPS (a reverse proxy with a certificate in front; on by
# itself with a certificate mode of make hall's): then cookies are Secure and plain HTTP is
# redirected. On the hall's plain HTTP network Secure cookies would make every log-in fail.
HTTPS = _flag("HTTPS", HALL_TLS_MODE != "none")
# PROXY=1 behind a reverse proxy: trust its X-Forwarded-Proto for the scheme of a request, and
# its X-Forwarded-For for the client's address (tournament/throttle.py), where the connection
# comes from one of PROXY_ADDRESSES (the proxy's own; by default this machine's).
PROXY = _flag("PROXY", False)
PROXY_ADDRESSES = frozenset(
    address.strip() for address in os.environ.get("PROXY_ADDRESSES", "127.0.0.1,::1").split(",") if address
)
if PROXY:
    # X-Forwarded-Proto counts only from the proxy: tournament/proxy.py drops it from any other
    # connection before anything asks for the scheme.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    MIDDLEWARE.insert(0, "tournament.proxy.ProxyHeadersMiddleware")
# What one address may get wrong (tournament/throttle.py): (count, seconds), a fixed window each.
THROTTLE = {
    "table_code": (20, 60),  # unknown table codes: then 429 for the rest of the minute
    "reset_address": (5, 3600),  # password-reset requests from one address
    "reset_email": (3, 3600),  # password-reset requests for one e-mail address
}
if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = _flag("SECURE_SSL_REDIRECT", True)
    # The root of Caddy's internal CA is fetched over plain HTTP, before the phone trusts HTTPS.
    SECURE_REDIRECT_EXEMPT = [r"^hall/ca/"] if HALL_TLS_MODE == "internal" else []
    # HSTS only with a certificate every browser trusts (ACME, the club's own, a proxy's): with
    # Caddy's internal CA a phone that has not installed the root could never click through.
    SECURE_HSTS_SECONDS = (
        0 if HALL_TLS_MODE == "internal" else int(os.environ.get("SECURE_HSTS_SECONDS") or 31536000)
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = _flag("SECURE_HSTS_PRELOAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"tournament": {"handlers": ["console"], "level": "INFO"}},
}
