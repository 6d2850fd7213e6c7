"""Django settings, read from the environment (django-environ).

Every value has a development default so that ``manage.py runserver`` works on a
fresh checkout (SQLite file, Celery tasks run eagerly in-process).  With
``DEBUG`` off the development defaults that would be unsafe in production are
refused at import time (see "Production guard" below).
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    env.read_env(BASE_DIR / ".env")

# The development key is public on purpose; the production guard refuses it.
DEV_SECRET_KEY = "django-insecure-dev-key-doudizhu-referee-do-not-use-in-production"

SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=True)
ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- Production guard -------------------------------------------------------
#: Django's own deploy check (security.W009) asks for at least 50 characters.
SECRET_KEY_MIN_LENGTH = 50
if not DEBUG:
    if SECRET_KEY == DEV_SECRET_KEY or not SECRET_KEY.strip():
        raise ImproperlyConfigured(
            "DEBUG is off but SECRET_KEY is the development key or empty; set SECRET_KEY."
        )
    if len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            f"DEBUG is off but SECRET_KEY is too weak (at least {SECRET_KEY_MIN_LENGTH} "
            "characters, at least 5 different ones); generate one with "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DEBUG is off but ALLOWED_HOSTS is empty; set ALLOWED_HOSTS.")
    if any(host.strip() == "*" for host in ALLOWED_HOSTS):
        raise ImproperlyConfigured(
            "DEBUG is off but ALLOWED_HOSTS contains '*' (any Host header is accepted); "
            "list the site's host names."
        )

# --- Applications -----------------------------------------------------------
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "tournaments",
    "referee",
    "referee.console",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Cache-Control on every answer, the contract with the proxy (public for a second, or
    # private, no-store): here, so it sees the cookies the middleware below set.
    "tournaments.common.cache_control.CacheControlMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # A database that cannot be reached answers 503 + Retry-After, not 500 (config/unavailable.py).
    "config.unavailable.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a refused (locked-out) sign-in into a 429 response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
# A kept connection that the server dropped is replaced at the start of a request, not an error.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=True)
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Every wait on the database is bounded (PostgreSQL only; 0 turns one off): a server that
# does not answer the connect, a statement that runs away, a row lock held too long and a
# transaction left open by a stuck client each end in an error after these many seconds
# instead of holding a request worker (and the rows) for as long as the fault lasts.
# The Celery worker may set longer ones (its recompute runs up to its task time limit);
# `migrate` runs with no statement or lock timeout (docker-compose.yml).
DATABASE_CONNECT_TIMEOUT = env.int("DATABASE_CONNECT_TIMEOUT", default=5)
DATABASE_STATEMENT_TIMEOUT = env.float("DATABASE_STATEMENT_TIMEOUT", default=30.0)
DATABASE_LOCK_TIMEOUT = env.float("DATABASE_LOCK_TIMEOUT", default=10.0)
DATABASE_IDLE_IN_TRANSACTION_TIMEOUT = env.float(
    "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT", default=60.0
)
# The client's side of the same promise (libpq, TCP): a server or a network that stops
# answering without closing the connection (a partition, a host gone, a route black-holed)
# would otherwise hold a request on an open connection for the kernel's ~15 minutes of
# retransmissions. Data sent and not acknowledged within DATABASE_TCP_USER_TIMEOUT seconds
# ends the connection (`tcp_user_timeout`); a connection silent for DATABASE_KEEPALIVES_IDLE
# seconds is probed every DATABASE_KEEPALIVES_INTERVAL and given up after
# DATABASE_KEEPALIVES_COUNT unanswered probes (or the user timeout, whichever comes first),
# which also ends a wait for the answer of a statement already sent. A healthy server answers
# the probes, so a long statement is never cut by them. 0 turns each off (idle 0: no keepalives).
DATABASE_TCP_USER_TIMEOUT = env.float("DATABASE_TCP_USER_TIMEOUT", default=10.0)
DATABASE_KEEPALIVES_IDLE = env.int("DATABASE_KEEPALIVES_IDLE", default=10)
DATABASE_KEEPALIVES_INTERVAL = env.int("DATABASE_KEEPALIVES_INTERVAL", default=5)
DATABASE_KEEPALIVES_COUNT = env.int("DATABASE_KEEPALIVES_COUNT", default=3)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a health check of a kept connection that costs no round trip
    # (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    # Parameters bound on the server and prepared statements: psycopg prepares a statement
    # that a connection runs repeatedly (its second run on), so PostgreSQL stops parsing and
    # planning the same few queries of every referee action (that was most of the server's
    # CPU per action). DATABASE_PREPARE_THRESHOLD= (empty) turns it off, e.g. behind a
    # transaction-pooling PgBouncer older than 1.21.
    _prepare = env.str("DATABASE_PREPARE_THRESHOLD", default="2")
    if _prepare:
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=int(_prepare)
        )
    _server_limits = {
        "statement_timeout": DATABASE_STATEMENT_TIMEOUT,
        "lock_timeout": DATABASE_LOCK_TIMEOUT,
        "idle_in_transaction_session_timeout": DATABASE_IDLE_IN_TRANSACTION_TIMEOUT,
    }
    _db_options = DATABASES["default"].setdefault("OPTIONS", {})
    if DATABASE_CONNECT_TIMEOUT > 0:
        _db_options["connect_timeout"] = DATABASE_CONNECT_TIMEOUT
    if DATABASE_TCP_USER_TIMEOUT > 0:
        _db_options["tcp_user_timeout"] = int(DATABASE_TCP_USER_TIMEOUT * 1000)  # milliseconds
    if DATABASE_KEEPALIVES_IDLE > 0:
        _db_options.update(keepalives=1, keepalives_idle=DATABASE_KEEPALIVES_IDLE)
        if DATABASE_KEEPALIVES_INTERVAL > 0:
            _db_options["keepalives_interval"] = DATABASE_KEEPALIVES_INTERVAL
        if DATABASE_KEEPALIVES_COUNT > 0:
            _db_options["keepalives_count"] = DATABASE_KEEPALIVES_COUNT
    else:
        _db_options["keepalives"] = 0
    _db_options["options"] = " ".join(
        filter(
            None,
            [
                _db_options.get("options", ""),
                *(f"-c {name}={int(seconds * 1000)}" for name, seconds in _server_limits.items()),
            ],
        )
    )
# Least privilege (PostgreSQL): in production DATABASE_URL names this role, which owns nothing;
# `migrate` and `db_app_role` run with the owner role's URL (see docker-compose.yml).
DATABASE_APP_ROLE = env.str("DATABASE_APP_ROLE", default="doudizhu_app")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication ---------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "director:login"

# Sign-in throttling (django-axes) for every form that calls ``authenticate`` with the request:
# the admin and director sign-in (one form) and the API token endpoint. Policy: after
# AXES_FAILURE_LIMIT failed attempts for one username from one client address, that pair is
# refused (even with the right password) for AXES_COOLOFF_MINUTES; the count restarts after a
# success. Keyed on the pair so that one table's typos, or an attacker elsewhere, cannot lock a
# whole venue behind one NAT address out. Attempts are stored in the database, so every worker
# process sees them. Unlock early: manage.py axes_reset_username <name in lower case>.
# A user name is one name whatever its case (tournaments/common/usernames.py): sign-in finds
# the account in any case, django-axes counts the name in lower case. Django's ModelBackend
# stays last only for the sessions it signed in; the one before it decides every password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "tournaments.common.usernames.CaseInsensitiveModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_USERNAME_CALLABLE = "tournaments.common.usernames.axes_username"
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.lockout.lockout_response"
AXES_VERBOSE = False
# And per client address, whatever the username (config/throttling.py, a token bucket):
# SIGN_IN_BURST sign-in attempts (API token, admin/director and referee console forms) at once,
# then one more each time SIGN_IN_RATE allows (30/min: every 2 s); beyond, 429 with Retry-After.
# So at most SIGN_IN_BURST password hashes of one address run at once. Empty rate: no
# per-address limit. Generous enough for a venue behind one NAT.
SIGN_IN_RATE = env.str("SIGN_IN_RATE", default="30/min")
SIGN_IN_BURST = env.int("SIGN_IN_BURST", default=5)
# Reverse proxies in front of the app that append to X-Forwarded-For (e.g. 1 behind nginx):
# the client address is taken that many hops back. 0: REMOTE_ADDR (X-Forwarded-For ignored).
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
if TRUSTED_PROXIES:
    # django-axes takes the same client address (django-ipware, that many proxies back).
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXIES
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]

# --- Caches -----------------------------------------------------------------
# "shared": what every process and machine must see alike (the sign-in counts): the database
# cache table (`manage.py createcachetable`, run after `migrate`), or Redis with
# CACHE_URL=redis://host:6379/n; also the public pages' rendered parts (the live board's table
# cards, the standings' rows), rendered once for every process. "default" stays each
# process's memory.
SHARED_CACHE = "shared"
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    SHARED_CACHE: env.cache("CACHE_URL", default="dbcache://django_cache"),
}
# The database cache keeps 300 entries unless told otherwise, and beyond them drops a third of
# its entries on every write: the live board's table cards (one per table) need more room.
if CACHES[SHARED_CACHE]["BACKEND"].endswith(".DatabaseCache"):
    CACHES[SHARED_CACHE].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 10_000)

# The live board's assembled fragment is kept whole in the shared cache this many seconds: the
# spectators polling within them cost a cache read each, not a render, and see a board at most
# this old (tournaments.public.views.live_board_html). 0: rendered on every poll.
PUBLIC_BOARD_SECONDS = env.int("PUBLIC_BOARD_SECONDS", default=1)
if PUBLIC_BOARD_SECONDS < 0:
    raise ImproperlyConfigured("PUBLIC_BOARD_SECONDS must be 0 (off) or more (seconds).")

# Referees (issue 16): a one-time sign-in link stops working REFEREE_LINK_HOURS after it was
# shown (1-24); a session started by a referee, or by anybody who is not a director (staff), ends
# REFEREE_SESSION_HOURS after sign-in (1-72). Directors keep SESSION_COOKIE_AGE (two weeks).
REFEREE_LINK_HOURS = env.int("REFEREE_LINK_HOURS", default=12)
REFEREE_SESSION_HOURS = env.int("REFEREE_SESSION_HOURS", default=12)
if not 1 <= REFEREE_LINK_HOURS <= 24:
    raise ImproperlyConfigured("REFEREE_LINK_HOURS must be between 1 and 24 (hours).")
if not 1 <= REFEREE_SESSION_HOURS <= 72:
    raise ImproperlyConfigured("REFEREE_SESSION_HOURS must be between 1 and 72 (hours).")

# --- Internationalisation ---------------------------------------------------
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [
    ("en", _("English")),
    ("zh-hans", "简体中文"),
]
# The catalogue (site templates and the tournaments app) lives in the app; listing it here
# makes ``manage.py makemessages`` (run from the project root) write there too.
LOCALE_PATHS = [BASE_DIR / "tournaments" / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Shanghai")
USE_I18N = True
USE_TZ = True

# --- Static files (whitenoise) ----------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Development (and the test suite): serve straight from the app directories,
# without collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security (only relevant with DEBUG off) --------------------------------
# HTTPS is the request's scheme, which gunicorn sets from X-Forwarded-Proto only on a
# connection from the reverse proxy (config/gunicorn.py, FORWARDED_ALLOW_IPS; nginx always
# overwrites the header). Reading the header here would believe any client reaching gunicorn.
SECURE_PROXY_SSL_HEADER = None
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)

# Content-Security-Policy (django-csp), on every response: scripts, styles, images and
# fetches from this site only, no inline script, style or event handler anywhere (the
# templates load their JS and CSS from static files), no plugins, never framed, forms post
# here only. ``data:`` images: the Swagger UI's icons. /api/docs/ is served the same way
# (drf-spectacular-sidecar's Swagger UI from our static files, its set-up script from a URL
# of its own, see config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF, "data:"],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    },
}

# --- Celery -----------------------------------------------------------------
# No broker configured: tasks run eagerly in-process and exceptions propagate,
# so development and the SQLite test run need no Redis.  The in-memory
# transport keeps Celery from falling back to its default amqp://localhost.
_BROKER_URL_FROM_ENV: str = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not _BROKER_URL_FROM_ENV
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL: str = _BROKER_URL_FROM_ENV or "memory://"
CELERY_RESULT_BACKEND: str | None = (
    env.str("CELERY_RESULT_BACKEND", default="") or _BROKER_URL_FROM_ENV or None
)
CELERY_TIMEZONE = TIME_ZONE
HEALTHZ_BROKER_TIMEOUT = env.float("HEALTHZ_BROKER_TIMEOUT", default=1.0)
HEALTHZ_CACHE_SECONDS = env.float("HEALTHZ_CACHE_SECONDS", default=5.0)
HEALTHZ_DATABASE_TIMEOUT = env.float("HEALTHZ_DATABASE_TIMEOUT", default=1.0)
# A worker heartbeat older than this fails /healthz (beat sends one every
# WORKER_HEARTBEAT_SECONDS, default 30), as do standings more log versions behind than this.
HEALTHZ_WORKER_STALE_SECONDS = env.float("HEALTHZ_WORKER_STALE_SECONDS", default=120.0)
HEALTHZ_STANDINGS_LAG_MAX = env.int("HEALTHZ_STANDINGS_LAG_MAX", default=500)
# Publishing a task never holds a request: a publisher thread per process sends with this
# connect/socket timeout and no retries, from a queue of at most this many messages
# (tournaments/common/broker_publish.py); what is not sent, beat's standings sweep sends later.
BROKER_PUBLISH_TIMEOUT = env.float("BROKER_PUBLISH_TIMEOUT", default=1.0)
BROKER_PUBLISH_QUEUE = env.int("BROKER_PUBLISH_QUEUE", default=1000)
# API idempotency records (the answer to each write, about 1.8 KB) are removed by beat this
# many days after the write; a retry after that is `idempotency_key_expired` (README).
IDEMPOTENCY_RECORD_DAYS = env.int("IDEMPOTENCY_RECORD_DAYS", default=7)
# Par of duplicate boards (issue 33, docs/solver.md "In the service"): the open-hand solver's
# budget per query (a seat's par, each position of a hand's "where it was lost"): wall-clock
# milliseconds, nodes, and table entries (the memory budget: about 200 bytes an entry). A query
# over budget answers "unsolved", never a guess: full deals are mostly unsolved within these,
# endgames solve. PAR_HAND_QUERIES bounds the positions one hand's analysis looks at before
# its first decided one. PAR_ANALYSIS_AUTO: a board is queued for analysis once it is released
# (default: on with a broker; without one a task would run in the request that released the
# board, so only a director's run queues it).
PAR_QUERY_MS = env.int("PAR_QUERY_MS", default=2000)
PAR_QUERY_NODES = env.int("PAR_QUERY_NODES", default=1_000_000)
PAR_QUERY_ENTRIES = env.int("PAR_QUERY_ENTRIES", default=1_000_000)
PAR_HAND_QUERIES = env.int("PAR_HAND_QUERIES", default=60)
PAR_ANALYSIS_AUTO = env.bool("PAR_ANALYSIS_AUTO", default=bool(_BROKER_URL_FROM_ENV))
# PAR_QUEUE: the Celery queue of the analyses, which a worker of its own consumes
# (docker-compose.yml's ``analysis``): a board's analysis takes minutes and must not hold up
# the standings, the heartbeat and the seasons on the default queue ("celery").
# PAR_TASK_SECONDS: a board's analysis stops after this long (the row is cancelled, "over the
# time limit"; a director may run it again); beat's sweep queues again a run left running
# longer (its worker died). Keep it below CELERY_VISIBILITY_TIMEOUT (3600 s), after which
# Redis hands a task still running to another worker.
PAR_QUEUE = env.str("PAR_QUEUE", default="analysis")
PAR_TASK_SECONDS = env.int("PAR_TASK_SECONDS", default=1800)

# --- Django REST framework / OpenAPI ----------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "referee.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON only, as the schema says (the browsable HTML API is off: /api/docs/ is the
    # explorer): no renderer to choose per request, and a write's answer is the JSON its
    # idempotency record keeps, encoded once (referee.api.idempotency).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "referee.api.exception_handlers.api_exception_handler",
    "NUM_PROXIES": TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Dou Dizhu referee API",
    "DESCRIPTION": "Tournament scoring and referee service for 斗地主 (竞技二打一扑克).",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from this site's static files (drf-spectacular-sidecar), not a CDN: the
    # Content-Security-Policy allows scripts from this site only.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Ids in paths (tournaments/common/converters.py): 1 to a bigint's maximum.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "referee.api.schema.strict_inputs",
    ],
}

# --- Error reports ----------------------------------------------------------
# The DEBUG page and the error e-mails hide settings whose name matches this pattern (Django's
# default plus URL, DSN, BROKER and BACKEND: CELERY_BROKER_URL and DATABASE_URL carry passwords)
# and every value that looks like a URL with credentials.
# The exception's own message is masked the same way.
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.error_reports.SecretHidingExceptionReporterFilter"
DEFAULT_EXCEPTION_REPORTER = "config.error_reports.SecretHidingExceptionReporter"

# --- Logging ----------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # django-axes logs every sign-in at INFO; failures and lockouts are WARNING.
    "loggers": {"axes": {"level": "WARNING"}},
}
