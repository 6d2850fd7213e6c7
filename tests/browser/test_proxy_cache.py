"""The shipped nginx's page cache, in front of an application that forgets to be careful.

``config/nginx.conf.template`` rendered as compose renders it (``bench/_nginx.py``) runs on
the OS nginx in front of a small HTTP server standing for gunicorn that marks *every* answer
cacheable (``Cache-Control: public, max-age=…`` with an ETag and ``Vary: Accept-Language,
Cookie, Accept-Encoding``), even under /api/ or to a signed-in request, and counts the
requests that reach it. Whatever the application says, the proxy must never serve from its
cache nor store: the private families (/referee/, /director/, /admin/, /api/; /healthz and
/i18n/ too), a request carrying the session cookie or an Authorization header, an answer with
Set-Cookie. Public pages: one request to the application per key and second however many
ask at once, and a language never served to a request that asked for another (the language
each request gets is the one Django's LocaleMiddleware picks for it, computed by Django).

The same rules through the real application: tests/browser/test_proxy.py.
"""

from __future__ import annotations

import http.client
import re
import runpy
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.http import HttpRequest
from django.utils import translation

from bench import _nginx
from tests.integration.test_faults import wait_for_port

pytestmark = [pytest.mark.proxy]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def django_language(headers: dict[str, str]) -> str:
    """The language Django's LocaleMiddleware picks for a request with ``headers``."""
    request = HttpRequest()
    request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get("Accept-Language", "")
    for part in headers.get("Cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            request.COOKIES[name] = value
    return translation.get_language_from_request(request)


@dataclass
class Forgetful:
    """The stand-in application: every answer public for ``max_age`` seconds."""

    max_age: int = 1
    seen: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    delay: float = 0.05  # a page takes a moment to render: concurrent misses overlap

    def handler(self) -> type[BaseHTTPRequestHandler]:
        app = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                headers = {k: v for k, v in self.headers.items()}
                language = django_language(headers)
                with app.lock:
                    app.seen[self.path] += 1
                    serial = app.seen[self.path]
                time.sleep(app.delay)
                body = f"{self.path} lang={language} serial={serial}".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", f"public, max-age={app.max_age}")
                self.send_header("ETag", f'"{language}-{serial}"')
                self.send_header("Vary", "Accept-Language, Cookie, Accept-Encoding")
                if self.path.startswith("/sets-cookie/"):
                    self.send_header("Set-Cookie", f"sessionid=s{serial}; HttpOnly; Path=/")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


@dataclass
class Proxy:
    port: int
    app: Forgetful
    root: Path

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
        """GET ``path`` through nginx: status, X-Cache, body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", path, headers={"Host": "localhost", **(headers or {})})
            answer = connection.getresponse()
            return answer.status, answer.getheader("X-Cache") or "", answer.read().decode()
        finally:
            connection.close()


@pytest.fixture(scope="module")
def proxy() -> Iterator[Proxy]:
    root = Path(tempfile.mkdtemp(prefix="doudizhu-cache-"))
    app = Forgetful()
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), app.handler())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = free_port()
    _nginx.prepare(root, listen=f"127.0.0.1:{port}", upstreams=[f"127.0.0.1:{server.server_port}"])
    nginx = _nginx.start(root)
    try:
        wait_for_port(port)
        yield Proxy(port, app, root)
    finally:
        nginx.terminate()
        nginx.wait(timeout=30)
        server.shutdown()
        print((root / "error.log").read_text(errors="replace")[-3000:])
        shutil.rmtree(root, ignore_errors=True)


def test_the_rendered_configuration_is_valid(proxy: Proxy) -> None:
    checked = subprocess.run(_nginx.command(proxy.root, "-t", "-q"), capture_output=True)
    assert checked.returncode == 0 and not checked.stderr, checked.stderr


def test_a_public_page_is_a_hit_on_its_second_request_within_the_second(proxy: Proxy) -> None:
    first = proxy.get("/t/open/live/")
    second = proxy.get("/t/open/live/")
    assert first[:2] == (200, "MISS") and second[:2] == (200, "HIT")
    assert second[2] == first[2] and proxy.app.seen["/t/open/live/"] == 1
    # A poll with the copy's ETag is answered 304 by nginx itself.
    etag = f'"en-{1}"'
    status, cache, _ = proxy.get("/t/open/live/", {"If-None-Match": etag})
    assert (status, cache) == (304, "HIT") and proxy.app.seen["/t/open/live/"] == 1


def test_one_upstream_request_per_key_and_second_under_concurrent_requests(
    proxy: Proxy,
) -> None:
    path = "/t/crowd/live/?fragment=1"
    seconds = 3.0
    statuses: Counter[tuple[int, str]] = Counter()

    def spectator(_: int) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            status, cache, body = proxy.get(path, {"Accept-Language": "en"})
            assert "lang=en" in body
            statuses[(status, cache)] += 1

    t0 = time.monotonic()
    with ThreadPoolExecutor(24) as pool:
        list(pool.map(spectator, range(24)))
    elapsed = time.monotonic() - t0
    asked = proxy.app.seen[path]
    served = sum(statuses.values())
    # One fill, then at most one refresh a second (max-age=1), however many asked.
    assert 2 <= asked <= elapsed + 2, (asked, elapsed, statuses)
    assert served > 20 * asked, (served, asked)
    assert {status for status, _ in statuses} == {200}
    # STALE: the request that started the background refresh, served the old copy meanwhile
    assert {cache for _, cache in statuses} <= {"MISS", "HIT", "UPDATING", "STALE", "EXPIRED"}


#: Requests whose language LocaleMiddleware decides differently (header, cookie, order, q).
LANGUAGE_REQUESTS = [
    {},
    {"Accept-Language": "en"},
    {"Accept-Language": "en-GB,en;q=0.9"},
    {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"},
    {"Accept-Language": "zh"},
    {"Accept-Language": "zh-Hans"},
    {"Accept-Language": "zh-TW"},
    {"Accept-Language": "fr,zh;q=0.5"},
    {"Accept-Language": "en;q=0.5,zh"},
    {"Accept-Language": "de"},
    {"Cookie": "django_language=zh-hans"},
    {"Cookie": "django_language=zh-hans", "Accept-Language": "en"},
    {"Cookie": "django_language=en", "Accept-Language": "zh-CN"},
    {"Cookie": "django_language=xx", "Accept-Language": "zh-CN"},
    {"Cookie": "csrftoken=abc; django_language=zh-hans"},
]


def test_language_variants_are_kept_apart(proxy: Proxy) -> None:
    path = "/t/languages/standings/"
    expected = [django_language(headers) for headers in LANGUAGE_REQUESTS]
    assert set(expected) == {"en", "zh-hans"}
    caches: Counter[str] = Counter()
    for _ in range(3):  # in turn, within the copies' second: each asks a warm cache
        for headers, language in zip(LANGUAGE_REQUESTS, expected, strict=True):
            status, cache, body = proxy.get(path, headers)
            assert status == 200 and f"lang={language} " in body, (headers, body)
            caches[cache] += 1
    assert caches["HIT"] > 0, caches


#: A private request to a public-looking path: its header, the path's name.
SIGNED_IN = {
    "session": {"Cookie": "sessionid=abc123"},
    "session among others": {"Cookie": "csrftoken=x; sessionid=abc123; django_language=en"},
    "token": {"Authorization": "Token 0123456789abcdef"},
    "basic": {"Authorization": "Basic YTpi"},
}

PRIVATE_PATHS = [
    "/referee/",
    "/referee/link/",
    "/referee",
    "/director/",
    "/director/t/open/rounds/1/",
    "/admin/",
    "/admin/login/?next=/director/",
    "/api/v1/tables/1/hands/",
    "/api/docs/",
    "/%61pi/v1/hands/1/",  # /api/ spelt with an escape: the same route to Django
    "//api/v1/hands/1/",
    "/healthz",
    "/i18n/setlang/",  # the language switch answers with its cookie
]


@pytest.mark.parametrize("path", PRIVATE_PATHS)
def test_a_private_family_is_never_served_from_the_cache_nor_stored(
    proxy: Proxy, path: str
) -> None:
    arrives = "/" + path.lstrip("/")  # http.server makes //api/ /api/ (Django routes it so)
    before = proxy.app.seen[arrives]
    for _ in range(3):
        status, cache, _ = proxy.get(path)
        assert status == 200 and cache == "BYPASS", (path, cache)
    assert proxy.app.seen[arrives] == before + 3
    # Nothing of it in the cache's files either.
    stored = [f.read_bytes() for f in (proxy.root / "cache").rglob("*") if f.is_file()]
    assert not [body for body in stored if f"{arrives} lang=".encode() in body]


@pytest.mark.parametrize("who", SIGNED_IN)
def test_a_signed_in_request_is_never_served_from_the_cache_nor_stored(
    proxy: Proxy, who: str
) -> None:
    path = f"/t/signed-in-{who.replace(' ', '-')}/"
    # Signed in first: not stored, so the anonymous request after it is a miss.
    status, cache, _ = proxy.get(path, SIGNED_IN[who])
    assert (status, cache) == (200, "BYPASS")
    status, cache, _ = proxy.get(path)
    assert (status, cache) == (200, "MISS")
    # The anonymous copy now kept is not what the signed-in request gets.
    status, cache, _ = proxy.get(path, SIGNED_IN[who])
    assert (status, cache) == (200, "BYPASS")
    assert proxy.get(path)[1] == "HIT"
    assert proxy.app.seen[path] == 3


def test_an_answer_that_sets_a_cookie_is_never_stored(proxy: Proxy) -> None:
    path = "/sets-cookie/page/"
    for _ in range(3):
        status, cache, _ = proxy.get(path)
        assert status == 200 and cache == "MISS"
    assert proxy.app.seen[path] == 3


def test_several_web_nodes_are_one_upstream() -> None:
    """NGINX_UPSTREAM may name several nodes ("a; server b", the README's "Running on several
    machines"; bench/event_load.py --nodes): one upstream, a server line each."""
    root = Path(tempfile.mkdtemp(prefix="doudizhu-nodes-"))
    try:
        _nginx.prepare(
            root, listen="127.0.0.1:8399", upstreams=["127.0.0.1:8301", "10.0.0.12:8000"]
        )
        rendered = (root / "conf.d" / "default.conf").read_text(encoding="utf-8")
        assert "server 127.0.0.1:8301; server 10.0.0.12:8000;" in rendered
        checked = subprocess.run(_nginx.command(root, "-t", "-q"), capture_output=True)
        assert checked.returncode == 0 and not checked.stderr, checked.stderr
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_the_proxy_drops_an_idle_upstream_connection_before_gunicorn_does() -> None:
    """nginx keeps idle connections to gunicorn for its next requests; gunicorn closes one after
    its keepalive. Were gunicorn's the shorter wait, a POST sent as gunicorn closes would be
    reset and answer 502 (nginx never sends a POST twice): nginx's must be the shorter."""
    root = Path(tempfile.mkdtemp(prefix="doudizhu-keepalive-"))
    try:
        _nginx.prepare(root, listen="127.0.0.1:8399", upstreams=["127.0.0.1:8301"])
        rendered = (root / "conf.d" / "default.conf").read_text(encoding="utf-8")
        upstream = re.search(r"upstream doudizhu_web \{(.*?)\}", rendered, re.S)
        assert upstream is not None
        proxy_idle = re.search(r"^\s*keepalive_timeout (\d+)s;", upstream.group(1), re.M)
        assert proxy_idle is not None, "the upstream's idle time is nginx's default, 60 s"
        gunicorn = runpy.run_path(str(Path(_nginx.__file__).parents[1] / "config/gunicorn.py"))
        assert int(proxy_idle.group(1)) < gunicorn["keepalive"]
    finally:
        shutil.rmtree(root, ignore_errors=True)
