"""Django settings, read from the environment (django-environ).

Every value has a development default so that ``manage.py runserver`` works on a
fresh checkout (SQLite file, Celery tasks run eagerly in-process).  With
``DEBUG`` off the development defaults that would be unsafe in production are
refused at import time (see "Production guard" below).
"""

from pathlib import Path

import environ
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
if not DEBUG:
    if SECRET_KEY == DEV_SECRET_KEY or not SECRET_KEY.strip():
        raise ImproperlyConfigured(
            "DEBUG is off but SECRET_KEY is the development key or empty; set SECRET_KEY."
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DEBUG is off but ALLOWED_HOSTS is empty; set ALLOWED_HOSTS.")

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
    "tournaments",
    "referee",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication ---------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "admin:login"

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
STATIC_ROOT = BASE_DIR / "staticfiles"
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
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)

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

# --- Django REST framework / OpenAPI ----------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "referee.api.exception_handlers.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Dou Dizhu referee API",
    "DESCRIPTION": "Tournament scoring and referee service for 斗地主 (竞技二打一扑克).",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "referee.api.schema.strict_inputs",
    ],
}

# --- Logging ----------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
