"""Settings come from the environment; the production guard runs at import.

Each case imports the settings in a fresh interpreter with a controlled environment.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CONTROLLED = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "TIME_ZONE",
    "LANGUAGE_CODE",
    "DJANGO_SETTINGS_MODULE",
    # set by the browser tests for Playwright's event loop; never in a deployment
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)
REAL_KEY = "x3$Lk9!qP7#vZ2@mN5^rT8&wY1*bC4(dF6)gH0_jK-uE+sA=oI%hU?lR~eW" * 2

DUMP = """
import json
from django.conf import settings
keys = ["DEBUG", "ALLOWED_HOSTS", "TIME_ZONE", "LANGUAGES", "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_TASK_EAGER_PROPAGATES", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"]
data = {k: getattr(settings, k) for k in keys}
data["DATABASE"] = {k: str(settings.DATABASES["default"][k]) for k in ("ENGINE", "NAME")}
data["LANGUAGES"] = [code for code, _ in settings.LANGUAGES]
data["MIDDLEWARE"] = settings.MIDDLEWARE
print(json.dumps(data))
"""


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_with(**env: str) -> dict[str, object]:
    result = run(["-c", DUMP], **env)
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def test_development_defaults() -> None:
    data = settings_with()
    assert data["DEBUG"] is True
    assert data["TIME_ZONE"] == "Asia/Shanghai"
    assert data["LANGUAGES"] == ["en", "zh-hans"]
    assert "django.middleware.locale.LocaleMiddleware" in data["MIDDLEWARE"]  # type: ignore[operator]
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in data["MIDDLEWARE"]  # type: ignore[operator]
    assert data["DATABASE"] == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(REPO / "db.sqlite3"),
    }


def test_without_a_broker_celery_runs_eagerly() -> None:
    data = settings_with()
    assert data["CELERY_TASK_ALWAYS_EAGER"] is True
    assert data["CELERY_TASK_EAGER_PROPAGATES"] is True
    assert data["CELERY_RESULT_BACKEND"] is None


def test_with_a_broker_results_default_to_the_broker() -> None:
    data = settings_with(CELERY_BROKER_URL="redis://broker.example:6379/0")
    assert data["CELERY_TASK_ALWAYS_EAGER"] is False
    assert data["CELERY_BROKER_URL"] == "redis://broker.example:6379/0"
    assert data["CELERY_RESULT_BACKEND"] == "redis://broker.example:6379/0"
    data = settings_with(
        CELERY_BROKER_URL="redis://broker.example:6379/0",
        CELERY_RESULT_BACKEND="redis://broker.example:6379/1",
    )
    assert data["CELERY_RESULT_BACKEND"] == "redis://broker.example:6379/1"


def test_database_url_is_read() -> None:
    data = settings_with(DATABASE_URL="postgres://u:p@db.example:5432/scores")
    assert data["DATABASE"] == {
        "ENGINE": "config.postgresql",  # Django's, its health check without a round trip
        "NAME": "scores",
    }


@pytest.mark.parametrize(
    "env, complaint",
    [
        ({"DEBUG": "0"}, "SECRET_KEY"),
        ({"DEBUG": "false", "ALLOWED_HOSTS": "scores.example.org"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": " ", "ALLOWED_HOSTS": "scores.example.org"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": REAL_KEY}, "ALLOWED_HOSTS"),
        ({"DEBUG": "0", "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": ","}, "ALLOWED_HOSTS"),
        ({"DEBUG": "0", "SECRET_KEY": "x", "ALLOWED_HOSTS": "scores.example.org"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": REAL_KEY[:49], "ALLOWED_HOSTS": "a.org"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": "ab" * 40, "ALLOWED_HOSTS": "a.org"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS"),
        ({"DEBUG": "0", "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": "a.org, *"}, "ALLOWED_HOSTS"),
    ],
    ids=[
        "dev-key",
        "dev-key-with-hosts",
        "empty-key",
        "no-hosts",
        "blank-hosts",
        "one-char-key",
        "49-char-key",
        "two-symbol-key",
        "any-host",
        "any-host-among-others",
    ],
)
def test_production_guard_refuses_to_start(env: dict[str, str], complaint: str) -> None:
    result = run(["manage.py", "check"], **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert complaint in result.stderr


def test_production_settings_start_and_pass_the_deploy_check() -> None:
    result = run(
        ["manage.py", "check", "--deploy"],
        DEBUG="0",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="scores.example.org",
    )
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "System check identified" in output
    assert "ERRORS:" not in output
    # Only the HTTPS-proxy switches (HSTS, SSL redirect) are left to the deployment.
    assert "security.W009" not in output  # secret key strength
    assert "security.W012" not in output and "security.W016" not in output  # secure cookies
