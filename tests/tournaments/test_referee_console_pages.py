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


def _code(path: str) -> str:
    """The sign-in code: the part of the link after "#" (which no browser sends)."""
    page, _sep, code = path.partition("#")
    assert page == "/referee/link/" and code
    return code


def test_a_sign_in_link_works_once(client: Any) -> None:
    user = referee_user("ref-link")
    code = _code(link_path(user=user))
    first = client.post("/referee/link/", {"code": code})
    assert first.status_code == 302 and first["Location"] == "/referee/"
    assert client.get("/referee/").status_code == 200
    client.logout()
    again = client.post("/referee/link/", {"code": code})
    assert again.status_code == 400
    assert 'data-code="link_invalid"' in again.content.decode()
    assert client.get("/referee/").status_code == 302


def test_opening_the_link_page_signs_nobody_in(client: Any) -> None:
    """A chat app's link preview fetches the page (GET, HEAD): the code is not used up."""
    user = referee_user("ref-preview")
    code = _code(link_path(user=user))
    page = client.get("/referee/link/")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="code"' in body and "referee/link_login.js" in body and "<script>" not in body
    assert client.head("/referee/link/").status_code == 200
    assert client.get("/referee/").status_code == 302  # not signed in
    user.refresh_from_db()
    assert user.last_login is None
    assert client.post("/referee/link/", {"code": code}).status_code == 302


def test_a_forged_sign_in_link_is_refused(client: Any) -> None:
    user = referee_user("ref-forged")
    uid, _dot, _token = _code(link_path(user=user)).partition(".")
    for code in (
        f"{uid}.abc-123",
        "!!.x",
        "",
        "x" * 500,
        f"{uid}",
        "MTIzNDU2Nzg5MDEyMzQ1Njc4OTAx.a-b",
    ):
        response = client.post("/referee/link/", {"code": code})
        assert response.status_code == 400, code
    assert client.get("/referee/").status_code == 302
    assert client.get("/referee/link/abc/def-123/").status_code == 404  # the old form
