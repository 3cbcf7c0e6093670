"""Settings for Mesa de Control, read from the environment.

DATABASE_URL  where the data lives; SQLite in the project folder by default,
              PostgreSQL (postgres://user@host/db) for a real championship.
SECRET_KEY    required when DEBUG is off.
DEBUG         "1"/"true" for development; on by default only for the demo.
ALLOWED_HOSTS comma-separated host names.
BACKUP_DIR    optional: a folder for a backup each time a round starts.
REDIS_URL     optional (redis://host:6379/0): a cache the app servers share,
              which then also holds the sessions in front of the database.
HTTPS         "true" behind TLS (a proxy that terminates it and sets
              X-Forwarded-Proto, or gunicorn's own certificate): secure
              cookies, HSTS, redirect of plain HTTP. Off, the site is the
              venue's plain-HTTP LAN mode (docs/deployment.md).
TLS_DIR       where manage.py venue_certificate keeps the venue's certificate
              authority and the server's certificate (tls/ by default);
              set for `make serve`, gunicorn serves HTTPS with them.
LOG_LEVEL     the level logged to stderr (INFO by default).
PLANILLA_SITE_URL optional (http://192.168.1.10:8000): the address the
              tablets and phones use; with it, a finished mesa's planilla is
              rendered and stored as soon as it is signed (refereeing/planilla/store.py).
STREAMS_URL   optional (http://192.168.1.10:8001): the address of a server of
              its own that serves the live streams (docs/deployment.md); the
              pages open their streams there. Empty: the pages' own server.
MIRROR        "true" on a public mirror (README, Public mirror): public pages only,
              a read-only database connection, streams fed by the replicated rows.
MIRROR_URL    optional, at the venue (https://mirror.example.ec): the mirror's
              address, printed on the pair cards beside the hall's; the
              planillas' QR codes point at its check (the hall's printed
              beside); with it the acts publish the code digests it checks.
MIRROR_LINK_KEY the key (shared by the venue and its mirror) that signs the pairs'
              links to the mirror; without it the cards print no mirror link.
VENUE_DSN     on the mirror, for `make mirror`'s subscribe step: the venue's
              PostgreSQL as its replication role (libpq, password included).
MIRROR_ROLE_PASSWORD the password `manage.py mirror_role` gives the role it makes.
"""

from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config import environment

# Django's generic classes take their type arguments at run time too (``ModelForm[Championship]``), as
# django-stubs declares them for mypy.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = environment.flag("DEBUG", default=True)
SECRET_KEY = environment.text("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-for-the-demo"
ALLOWED_HOSTS = environment.words("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = environment.words("CSRF_TRUSTED_ORIGINS")

# Every request of a signed-in tablet reads its session. With a shared Redis
# the read comes from the cache and the database keeps a copy ("cached_db"),
# one query fewer per claim and poll; a cache per process would let a
# session signed out on one app server live on in another, so without Redis
# sessions stay in the database alone.
REDIS_URL = environment.text("REDIS_URL")
if REDIS_URL and REDIS_URL.split("://", 1)[0] not in {"redis", "rediss", "unix"}:
    # Said at start-up: the cache would otherwise fail every signed-in request.
    raise ImproperlyConfigured(f"REDIS_URL must be redis://, rediss:// or unix://, not {REDIS_URL!r}.")
if REDIS_URL:
    # Bounded waits: a Redis that does not answer fails the request with a
    # 503 in a second (config.errors) instead of holding the worker.
    CACHES = {
        "default": {
            # Django's RedisCache, its clients kept (config/cache.py).
            "BACKEND": "config.cache.Cache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "crispy_forms",
    "crispy_bootstrap5",
    "auditlog",
    "tournament",
    "refereeing",
    "demo",
    "audit",
    "resolutions",
    "backup",
    "live",
    "mirror",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A database or Redis found down a moment ago: its 503 at once (config.errors).
    "config.errors.AnswerWhileDown",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before any view or middleware looks a value of the address up; after
    # LocaleMiddleware, so that its 404 and 400 speak the request's language.
    "config.nul_in_url.NulInURLMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A refusal no view showed: its message on the page it came from (config.refusals).
    "config.refusals.RefusalMiddleware",
    "audit.middleware.AuditMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.content_security_policy.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its page.
    "axes.middleware.AxesMiddleware",
]

MIRROR = environment.flag("MIRROR")
MIRROR_URL = environment.text("MIRROR_URL").rstrip("/")
MIRROR_LINK_KEY = environment.text("MIRROR_LINK_KEY")
# The mirror's set-up commands' secrets (docs/mirror.md): the venue as its replication role sees it
# (mirror_subscribe) and the password mirror_role gives the role it makes. A mirror's app never holds them.
VENUE_DSN = "" if MIRROR else environment.text("VENUE_DSN")
MIRROR_ROLE_PASSWORD = "" if MIRROR else environment.text("MIRROR_ROLE_PASSWORD")
# A mirror mounts the public pages only (config.urls_mirror), answers GET and HEAD only, and says how to cache.
ROOT_URLCONF = "config.urls_mirror" if MIRROR else "config.urls"
MIRROR_MIDDLEWARE = ["mirror.readonly.SafeMethodsOnly", "mirror.caching.PublicCache"]
if MIRROR:
    _after = MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1
    MIDDLEWARE[_after:_after] = MIRROR_MIDDLEWARE
WSGI_APPLICATION = "config.wsgi.application"

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
                "refereeing.appeals.waiting.waiting_appeals",
                "mirror.context.mirror",
            ],
        },
    },
]

DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if MIRROR and DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("A mirror (MIRROR=true) reads a PostgreSQL subscription: set DATABASE_URL to it.")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several tablets write at once; wait for the lock instead of failing.
    # IMMEDIATE takes the write lock when a transaction begins: a deferred
    # one that reads and then writes cannot wait for the lock (SQLite answers
    # "database is locked" at once), and an organiser's request is one
    # transaction that does just that (``audit.middleware``).
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database host that does not answer fails the request (503) within
    # three seconds rather than holding the worker for the system's TCP
    # timeout: two to connect (libpq's least), and a statement or a lock
    # wait that runs away is cut by the server itself. Each wait is
    # measured in ``tests/server/test_outages.py``.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    DATABASES["default"]["OPTIONS"].setdefault(
        "options",
        "-c statement_timeout=15s -c lock_timeout=5s",
    )
    # Every connection the pool lends is looked at first (its socket, with no
    # round trip): after a restart of PostgreSQL the pool held only dead
    # connections and handed them out for minutes, failing one request
    # each; now they are all replaced at the first found.
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    # Each process keeps a few connections open and lends one to each
    # request: under ASGI every request runs in a thread of its own, so a
    # connection kept by a thread (CONN_MAX_AGE) would outlive it, and
    # opening one per request cost more CPU than the claim itself
    # (``benchmarks/claims``). ``config/serving.py`` bounds the views a
    # worker runs at once, and with them the connections it lends.
    # A request that waits for a connection twice a second (with a new pool
    # the second time: ``config.postgresql``) is answered 503: with more
    # connections than views a worker runs, it waits only when the database
    # is down (and each request queued behind it would wait too).
    DATABASES["default"]["OPTIONS"].setdefault("pool", {"min_size": 1, "max_size": 4, "timeout": 1})
    if MIRROR:
        # Read-only by construction: the rows are the subscription's to write.
        DATABASES["default"]["OPTIONS"]["options"] += " -c default_transaction_read_only=on"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
]

# Sign-in throttling (django-axes) on every sign-in form, the admin's too:
# after AXES_FAILURE_LIMIT wrong passwords within the cool-off, an account is
# locked (from every address) and so is an address (for every account), for
# the cool-off since the last failure. The organiser unlocks a juez's
# account on the jueces page (``tournament.accounts.lockouts``); an administrator
# unlocks anyone in the admin (Axes > Access attempts). The address is the
# connection's (REMOTE_ADDR), never a header a client could forge.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "tournament.accounts.lockouts.locked_out_page"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "es-ec"
LANGUAGES = [("es-ec", "Español"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "America/Guayaquil"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic's target; the production set-up serves from here (DEBUG off).
STATIC_ROOT = Path(environment.text("STATIC_ROOT") or BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = BASE_DIR / "media"
PLANILLA_SITE_URL = environment.text("PLANILLA_SITE_URL").rstrip("/")

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Every error of the API in one shape, a refusal's (config.refusals).
    "EXCEPTION_HANDLER": "config.refusals.api_exception",
}

# The audit trail (``audit``): django-auditlog writes this project's entries,
# not on the raw saves of a restore (``manage.py restore``), and names the
# records a foreign key pointed to rather than their numbers.
AUDITLOG_LOGENTRY_MODEL = "audit.AuditEntry"
AUDITLOG_DISABLE_ON_RAW_SAVE = True
AUDITLOG_USE_FK_STRING_REPRESENTATION = True
# Its own entries' table is replaced by ``audit.AuditEntry``; its migrations
# would still make that table (they ignore the swap), pointing at the users.
MIGRATION_MODULES = {"auditlog": None}

# Where the control desk's automatic backups go, one file each time a round
# starts (``backup``); unset, none is made.
BACKUP_DIR = environment.text("BACKUP_DIR")
# The venue's certificate authority and the server's certificate (manage.py venue_certificate); /ca.crt serves
# the authority's certificate from here for the tablets to trust.
TLS_DIR = Path(environment.text("TLS_DIR") or BASE_DIR / "tls")

# The API's OpenAPI 3 schema (/api/schema/) and its documentation
# (/api/docs/), whose Swagger UI files come from drf-spectacular-sidecar:
# served here like every other file, no CDN.
SPECTACULAR_SETTINGS = {
    "TITLE": "Mesa de Control API",
    "DESCRIPTION": "The JSON API of the juez's tablet and the other screens (see refereeing/api.py).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# WhiteNoise serves the static files from the app: the venue has no CDN and
# often no internet, and no separate web server either. In production
# (DEBUG off) they come from STATIC_ROOT, filled by `manage.py collectstatic`:
# each file under a name with its content's hash (cached for good by the
# browsers) and beside it its gzip and Brotli versions, which WhiteNoise
# sends to browsers that accept them. In development (`make run`, DEBUG on)
# they are read straight from static/ and the apps, with no collectstatic.
if not DEBUG:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
WHITENOISE_USE_FINDERS = DEBUG
# Source maps are read by a developer's tools, never by the tablets: not
# compressing them (several MB) takes most of collectstatic's time away.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [
    "jpg",
    "jpeg",
    "png",
    "gif",
    "webp",
    "zip",
    "gz",
    "tgz",
    "bz2",
    "tbz",
    "xz",
    "br",
    "swf",
    "flv",
    "woff",
    "woff2",
    "map",
]

# Every error an operator must see goes to stderr, where gunicorn, systemd
# or a container keeps it: Django's request logger writes each 500 (and each
# 503 of a database or Redis that does not answer) with its traceback.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": environment.text("LOG_LEVEL", "INFO").upper()},
    # Django's own loggers pass everything up to the root's handler (its
    # default sends to the console only with DEBUG on).
    # django-axes says INFO for every failed sign-in; its lockouts are WARNING.
    "loggers": {
        "django": {"handlers": [], "level": environment.text("LOG_LEVEL", "INFO").upper(), "propagate": True},
        "axes": {"handlers": [], "level": "WARNING", "propagate": True},
    },
}

# HTTPS mode: one switch for everything that only makes sense over TLS, so
# that `manage.py check --deploy` is clean with it on. The proxy header is
# trusted because HTTPS mode means a TLS-terminating proxy in front (or
# gunicorn's certificate, where no client can reach the app around it).
HTTPS = environment.flag("HTTPS")
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = environment.whole_number("HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# The live streams from a server of their own, so that claims are never
# served on the event loop that hands out thousands of stream events.
STREAMS_URL = environment.text("STREAMS_URL").rstrip("/")


def _streams_url_is_an_origin(url):
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError:
        return False
    return (
        parts.scheme in {"http", "https"}
        and bool(parts.hostname)
        and not (parts.username or parts.path or parts.query or parts.fragment or " " in url)
    )


if STREAMS_URL and not _streams_url_is_an_origin(STREAMS_URL):
    raise ImproperlyConfigured(f"STREAMS_URL must be http(s)://host[:port] and nothing more, not {STREAMS_URL!r}.")
if STREAMS_URL and not REDIS_URL:
    # Without Redis each server hears only its own changes (live/broker.py): the streams would hear none.
    raise ImproperlyConfigured("STREAMS_URL needs REDIS_URL: the changes reach the streams' server through Redis.")

# Content Security Policy (django-csp): scripts only from this server's own
# files, never inline (no <script> with code, no on...= attribute): an
# injected snippet of HTML cannot run. Styles may still be inline (style=
# attributes in the templates); images may be data: URLs (signatures, the
# planilla's QR code).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", *([STREAMS_URL] if STREAMS_URL else [])],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
