"""The referee console's pages: sign-in, the console shell, one-time sign-in links, the
service worker, the web app manifest and the favicon."""

import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders

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
    control = response["Cache-Control"]  # never kept (private, no-store: cache_control)
    assert "no-store" in control or "no-cache" in control or "max-age=0" in control
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


def test_the_service_worker_keeps_every_module_the_console_imports(client: Any) -> None:
    """A module left out of its list would be missing from a reload offline."""
    console = Path(__file__).resolve().parents[2] / "referee/console/static/referee/console"
    imported = {"main.js"}
    for module in console.glob("*.js"):
        imported |= set(re.findall(r'from "\./([a-z]+\.js)"', module.read_text()))
    body = client.get("/referee/sw.js").content.decode()
    assert sorted(m for m in imported if f'"/static/referee/console/{m}"' not in body) == []
    assert sorted(imported) == sorted(p.name for p in console.glob("*.js"))
    for asset in ("referee/entry.css", "tournaments/icons/icon-192.png"):
        assert f'"/static/{asset}"' in body
    assert 'const MANIFEST = "/referee/manifest.webmanifest";' in body


@pytest.mark.parametrize(
    ("language", "name", "short_name"),
    [("en", "Dou Dizhu referee console", "Referee"), ("zh-hans", "斗地主裁判控制台", "裁判")],
)
def test_the_web_app_manifest_installs_the_console(
    client: Any, language: str, name: str, short_name: str
) -> None:
    response = client.get("/referee/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert "Accept-Language" in response["Vary"]
    manifest = json.loads(response.content)
    assert manifest["name"] == name and manifest["short_name"] == short_name
    assert manifest["lang"] == language
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/referee/",
        "/referee/",
        "standalone",
    )
    assert manifest["theme_color"] == "#1f6f43"
    assert [(i["sizes"], i["type"], i["purpose"]) for i in manifest["icons"]] == [
        ("192x192", "image/png", "any"),
        ("512x512", "image/png", "any"),
        ("512x512", "image/png", "maskable"),
        ("any", "image/svg+xml", "any"),
    ]
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert isinstance(path, str), icon["src"]
        if icon["type"] == "image/png":
            with open(path, "rb") as handle:
                head = handle.read(24)
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", head[16:24])
            assert f"{width}x{height}" == icon["sizes"]


def test_every_page_has_a_favicon_and_the_console_its_manifest(client: Any) -> None:
    public = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/tournaments/icons/favicon.svg"' in public
    assert 'rel="manifest"' not in public
    sign_in = client.get("/referee/login/").content.decode()
    assert '<link rel="icon" href="/static/tournaments/icons/favicon.svg"' in sign_in
    assert '<link rel="manifest" href="/referee/manifest.webmanifest">' in sign_in
    assert '<meta name="theme-color" content="#1f6f43">' in sign_in


def test_favicon_ico_answers_the_site_icon(client: Any) -> None:
    """Browsers and tools ask for /favicon.ico without reading a page: the site's icon, not
    a 404."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert "max-age=86400" in response["Cache-Control"]
    path = finders.find("tournaments/icons/favicon.svg")
    assert isinstance(path, str)
    assert response.content == Path(path).read_bytes()
    assert b"<svg" in response.content
    assert client.head("/favicon.ico").status_code == 200
    assert client.post("/favicon.ico").status_code == 405
