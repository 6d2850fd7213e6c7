"""The DEBUG error page never shows a broker or database URL (reproduction: it showed the
Redis password inside CELERY_BROKER_URL)."""

import sys
from typing import Any

import pytest
from django.test import RequestFactory
from django.views.debug import technical_500_response

from config.error_reports import hide_url_credentials

BROKER_PASSWORD = "broker-pw-Zq81"
DATABASE_PASSWORD = "db-pw-Kx27"
BROKER_URL = f"redis://:{BROKER_PASSWORD}@redis.internal:6379/0"
DATABASE_URL = f"postgres://app:{DATABASE_PASSWORD}@db.internal:5432/scores"


def error_page(settings: Any, monkeypatch: Any) -> str:
    settings.DEBUG = True
    settings.CELERY_BROKER_URL = BROKER_URL
    settings.CELERY_RESULT_BACKEND = BROKER_URL
    settings.SOME_SERVICE_ENDPOINT = DATABASE_URL  # no telling name: masked by its value
    monkeypatch.setenv("CELERY_BROKER_URL", BROKER_URL)
    request = RequestFactory().get("/boom", CELERY_BROKER_URL=BROKER_URL, DATABASE_URL=DATABASE_URL)

    def connect(target: str) -> None:
        url = target  # a local variable holding the URL, as in a failing broker check
        raise ConnectionError(f"cannot reach {url}") from OSError(f"dial {DATABASE_URL}")

    try:
        connect(BROKER_URL)
    except ConnectionError:
        response = technical_500_response(request, *sys.exc_info())
    return response.content.decode()


@pytest.mark.parametrize("secret", [BROKER_PASSWORD, DATABASE_PASSWORD])
def test_debug_error_page_hides_broker_and_database_passwords(
    settings: Any, monkeypatch: Any, secret: str
) -> None:
    page = error_page(settings, monkeypatch)
    assert "CELERY_BROKER_URL" in page  # the page is the full DEBUG page
    assert secret not in page


def test_credentials_in_any_url_are_masked() -> None:
    assert hide_url_credentials(BROKER_URL) == "redis://********@redis.internal:6379/0"
    assert hide_url_credentials(f"see {DATABASE_URL} now") == (
        "see postgres://********@db.internal:5432/scores now"
    )
    assert hide_url_credentials("https://example.org/a@b") == "https://example.org/a@b"
