"""The referee console's pages: sign-in, the console shell, one-time sign-in links."""

from typing import Any

import pytest

from tests.api.helpers import referee_user
from tournaments.rounds.login_links import link_path

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


def test_the_console_page_loads_its_modules_and_names_its_worker(client: Any) -> None:
    client.force_login(referee_user("ref-modules"))
    body = client.get("/referee/").content.decode()
    assert '<script type="module" src="/static/referee/console/main.js">' in body
    assert 'data-worker="/referee/sw.js"' in body and 'data-scope="/referee/"' in body


def test_the_service_worker_keeps_the_console_and_never_the_api(client: Any) -> None:
    """Served to anyone (it holds no user's data) from /referee/ so that its scope covers
    the console; the policy's script-src 'self' (worker-src's fallback) allows it."""
    response = client.get("/referee/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    for asset in ("main.js", "api.js", "queue.js", "views.js", "dom.js", "provisional.js"):
        assert f'"/static/referee/console/{asset}"' in body
    assert '"/static/referee/console.css"' in body
    assert 'const PAGE = "/referee/";' in body
    assert 'const LOGOUT = "/referee/logout/";' in body
    assert 'url.pathname.startsWith("/api/")) return;' in body  # never answered from cache
    assert client.get("/referee/sw.js").content == response.content  # same assets, same name


def test_the_service_worker_cache_changes_with_the_assets(client: Any) -> None:
    from referee.console import views as referee

    first = client.get("/referee/sw.js").content.decode()
    original = referee.CONSOLE_ASSETS
    try:
        referee.CONSOLE_ASSETS = (*original, "referee/link_login.js")
        second = client.get("/referee/sw.js").content.decode()
    finally:
        referee.CONSOLE_ASSETS = original

    def cache_name(body: str) -> str:
        return body.split('const CACHE = "', 1)[1].split('"', 1)[0]

    assert cache_name(first) != cache_name(second)
