"""The referee console's pages: sign-in, the console shell, one-time sign-in links."""

from typing import Any

import pytest

from tests.api.helpers import referee_user
from tournaments.login_links import link_path

pytestmark = pytest.mark.django_db


def test_console_asks_for_sign_in_first(client: Any) -> None:
    response = client.get("/referee/")
    assert response.status_code == 302
    assert response["Location"].startswith("/referee/login/")
    assert client.get("/referee/login/").status_code == 200


def test_console_shell_carries_its_words_and_the_csrf_cookie(client: Any) -> None:
    client.force_login(referee_user("ref-shell"))
    response = client.get("/referee/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    assert "console-strings" in response.content.decode()
    assert "裁判控制台" in response.content.decode()  # the title; the JS words are JSON
    assert "csrftoken" in response.cookies


def test_a_sign_in_link_works_once(client: Any) -> None:
    user = referee_user("ref-link")
    path = link_path(user=user)
    first = client.get(path)
    assert first.status_code == 302 and first["Location"] == "/referee/"
    assert client.get("/referee/").status_code == 200
    client.logout()
    again = client.get(path)
    assert again.status_code == 400
    assert client.get("/referee/").status_code == 302


def test_a_forged_sign_in_link_is_refused(client: Any) -> None:
    user = referee_user("ref-forged")
    good = link_path(user=user)
    forged = good.rstrip("/").rsplit("/", 1)[0] + "/abc-123/"
    assert client.get(forged).status_code == 400
    assert client.get("/referee/link/!!/x/").status_code == 400
