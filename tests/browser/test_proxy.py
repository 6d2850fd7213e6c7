"""The shipped reverse proxy in front of the shipped gunicorn, driven by Chromium.

``config/nginx.conf.template`` is rendered as the compose ``proxy`` service renders it (the
official nginx image's ``/docker-entrypoint.d/20-envsubst-on-templates.sh``: ``envsubst``
given the names of the *defined* environment variables only, so nginx's own ``$http_host``
and ``$remote_addr`` stay), with the ``proxy`` service's environment read from
docker-compose.yml with its defaults; only ``NGINX_LISTEN`` and ``NGINX_UPSTREAM`` name
loopback addresses instead of the containers'. The system nginx runs it inside an outer
``nginx.conf`` shaped like the image's (``http { include mime.types; ... include
conf.d/*.conf; }``), in front of gunicorn started with compose's ``web`` command and
environment (DEBUG off, ``ALLOWED_HOSTS``, ``TRUSTED_PROXIES``, the Secure cookies, and
``FORWARDED_ALLOW_IPS`` from ``PROXY_IP``, here the loopback address nginx connects from).
Only the services compose reaches by container name are replaced: the database (a migrated
SQLite file, or the PostgreSQL test database), the broker (none: tasks run in gunicorn's
process) and the cache (the database's cache table).

Chromium browses ``http://localhost:<port>`` (a port other than 80, as compose's 8000): a
director signs in and posts forms, the one-time sign-in link (and its QR code) carries the
proxy's host and port, and a referee signs in with it and bids from the console.

Marked ``proxy``: where nginx or envsubst is missing, deselected and reported, never skipped
(tests/conftest.py); ``.ci/run`` installs them and fails if these tests are not collected.
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import segno
from django.db import connection
from playwright.sync_api import Browser, BrowserContext, Page, expect

from bench import _nginx
from bench._nginx import compose_service
from tests.conftest import POSTGRESQL_CONFIGURED
from tests.integration.test_faults import wait_for_port

# On PostgreSQL gunicorn serves the test database: each test's writes (gunicorn's) are
# emptied after it, as a transactional test's are.
pytestmark = [pytest.mark.proxy]
if POSTGRESQL_CONFIGURED:
    pytestmark.append(pytest.mark.django_db(transaction=True))

REPO = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO / "docker-compose.yml"
TEMPLATE = REPO / "config" / "nginx.conf.template"
PASSWORD = "proxy-director-pass-1"
TIMEOUT_MS = 30_000

#: What a user exports before ``docker compose up`` here: the required key, the proxy's address
#: (loopback: nginx connects to gunicorn from 127.0.0.1) and fewer gunicorn processes for a
#: small, shared machine. Everything else is compose's default.
COMPOSE_VARIABLES = {"PROXY_IP": "127.0.0.1", "WEB_CONCURRENCY": "2"}

# ------------------------------------------------------------------ the proxy


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Stack:
    """nginx on ``proxy_port`` in front of gunicorn on ``web_port``, files in ``root``."""

    root: Path
    proxy_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    web_env: dict[str, str] = field(default_factory=dict)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://localhost:{self.proxy_port}"

    def nginx(self, *options: str, directives: str = "") -> list[str]:
        """The command line of this stack's nginx (prefix, configuration, pid file)."""
        return _nginx.command(self.root, *options, directives=directives)

    def shell(self, code: str) -> Any:
        """``manage.py shell -c code`` on the site's database; the JSON its last line prints."""
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=REPO,
            env=self.web_env,
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, made.stderr[-3000:]
        return json.loads(made.stdout.strip().splitlines()[-1])

    def wait_until_served(self, timeout: float = 90) -> None:
        """Until /healthz answers 200 through nginx (gunicorn's workers have booted)."""
        deadline = time.monotonic() + timeout
        status = 0
        while time.monotonic() < deadline:
            status, _ = exchange(
                self.proxy_port, b"GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n"
            )
            if status == 200:
                return
            time.sleep(0.5)
        pytest.fail(f"/healthz answered {status} through nginx after {timeout}s")

    def log(self, name: str) -> str:
        path = self.root / name
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)


def web_environment(database_url: str, static_root: Path) -> dict[str, str]:
    """Compose's ``web`` environment; its container names replaced, nothing else."""
    compose = compose_service(
        "web", {**COMPOSE_VARIABLES, "SECRET_KEY": secrets.token_urlsafe(50)}
    )["environment"]
    assert compose["DEBUG"] == "false" and compose["TRUSTED_PROXIES"] == "1"
    assert compose["FORWARDED_ALLOW_IPS"] == "127.0.0.1"
    assert compose["SESSION_COOKIE_SECURE"] == compose["CSRF_COOKIE_SECURE"] == "true"
    replaced = {
        "DATABASE_URL": database_url,  # compose's: postgres://…@db:5432/…
        "CELERY_BROKER_URL": "",  # compose's: redis://redis:6379/0; no worker here
        "CELERY_RESULT_BACKEND": "",
        "CACHE_URL": "dbcache://django_cache",  # compose's: redis://redis:6379/2
    }
    assert set(replaced) <= set(compose)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        **compose,
        **replaced,
        # The image collects them at build time (Dockerfile); here, into the test's directory.
        "STATIC_ROOT": str(static_root),
    }


def _postgresql_test_database() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


_PREPARE = """
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("createcachetable", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
print("{}")
"""


@pytest.fixture(scope="module")
def stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    """One stack for this module's tests (starting it is most of their time)."""
    # Not under pytest's tmp_path: kept short, and reachable by nginx's workers.
    root = Path(tempfile.mkdtemp(prefix="doudizhu-proxy-"))
    stack = Stack(root)
    if POSTGRESQL_CONFIGURED:
        # The test database (migrated, with its cache table): gunicorn and the tests' own
        # manage.py commands are other processes, which see what each of them commits.
        request.getfixturevalue("django_db_setup")
        database_url = _postgresql_test_database()
    else:
        database_url = f"sqlite:///{root}/db.sqlite3"
    stack.web_env = web_environment(database_url, root / "static")
    stack.shell(_PREPARE)

    web = compose_service("web", {**COMPOSE_VARIABLES, "SECRET_KEY": "-"})["command"]
    assert web[0] == "gunicorn" and "0.0.0.0:8000" in web
    web = [str(Path(sys.executable).parent / "gunicorn"), *web[1:]]
    web[web.index("0.0.0.0:8000")] = f"127.0.0.1:{stack.web_port}"
    # gunicorn's control socket (not HTTP) in the test's directory, not the user's home.
    web += ["--control-socket", str(root / "gunicorn.ctl")]

    _nginx.prepare(
        root, listen=f"127.0.0.1:{stack.proxy_port}", upstreams=[f"127.0.0.1:{stack.web_port}"]
    )
    try:
        with (root / "gunicorn.log").open("wb") as log:
            stack.processes.append(
                subprocess.Popen(web, cwd=REPO, env=stack.web_env, stdout=log, stderr=log)
            )
        stack.processes.append(_nginx.start(root))
        wait_for_port(stack.proxy_port, timeout=30)
        stack.wait_until_served()
        yield stack
    finally:
        stack.stop()
        for name in ("gunicorn.log", "error.log", "access.log"):
            print(f"----- {name}\n{stack.log(name)[-4000:]}")
        shutil.rmtree(root, ignore_errors=True)


# ------------------------------------------------------------------ raw HTTP through nginx


def exchange(port: int, request: bytes) -> tuple[int, bytes]:
    """Send ``request`` as it is; the status and body of the answer (the connection closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


_SEED = f"""
import json
from django.contrib.auth import get_user_model
from tests import factories
from tests.api.helpers import playing_table

get_user_model().objects.create_user("proxy-director", password={PASSWORD!r}, is_staff=True)
table = playing_table()
factories.BoardFactory(tournament=table.round.tournament, number=1, seed=4242)
print(json.dumps({{"slug": table.round.tournament.slug, "round": table.round.number}}))
"""

_BIDS = """
import json
from tournaments.models import HandEvent
print(json.dumps([e.payload["action"] for e in HandEvent.objects.filter(kind="bid")]))
"""


def _director_signs_in(context: BrowserContext) -> Page:
    """The director signs in (a POST, CSRF-checked) in ``context``; the signed-in page."""
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto("/admin/login/?next=/director/")
    page.fill("input[name=username]", "proxy-director")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit], button[type=submit]")
    expect(page.locator("h1")).to_have_text("Director dashboard", timeout=TIMEOUT_MS)
    # compose's defaults: Secure cookies, which Chromium keeps on a loopback address over HTTP
    cookies = {cookie["name"]: cookie for cookie in context.cookies()}
    assert cookies["sessionid"]["secure"] and cookies["csrftoken"]["secure"]
    return page


def test_director_and_referee_work_through_the_proxy_on_its_port(
    stack: Stack, browser: Browser
) -> None:
    seeded = stack.shell(_SEED)
    round_path = f"/director/t/{seeded['slug']}/rounds/{seeded['round']}/"

    # A director at http://localhost:<port>; what a client says about the scheme, host or port
    # it used is not believed (nginx overwrites or blanks those headers).
    director = browser.new_context(
        base_url=stack.url,
        locale="en-GB",
        viewport={"width": 1280, "height": 900},
        extra_http_headers={
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "evil.example",
            "X-Forwarded-Port": "666",
            "Forwarded": "proto=https;host=evil.example",
        },
    )
    page = _director_signs_in(director)
    # The same on the loopback address (also in compose's ALLOWED_HOSTS).
    numeric = browser.new_context(base_url=f"http://127.0.0.1:{stack.proxy_port}")
    _director_signs_in(numeric)
    numeric.close()

    # A director form: a new tournament.
    page.click("text=New tournament")
    page.fill("input[name=name]", "Through the proxy")
    page.fill("input[name=slug]", "through-proxy")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{stack.url}/director/t/through-proxy/", timeout=TIMEOUT_MS)
    expect(page.locator("h1")).to_contain_text("Through the proxy", timeout=TIMEOUT_MS)

    # Another: a referee assigned to the playing table, with a one-time sign-in link.
    page.goto(round_path)
    page.fill("input[name=username]", "proxy-referee")
    page.select_option("select[name=table]", label="Table 1")
    page.click("#assign-referee")
    shown = page.locator("tr[data-referee='proxy-referee'] a.login-link")
    assert str(shown.get_attribute("href")).startswith(f"{stack.url}/referee/link/#")
    # Each showing makes a new link: the latest, as served, and its QR code, the same link.
    served = director.request.get(round_path).text()
    row = re.search(r'<tr data-referee="proxy-referee">.*?</tr>', served, re.DOTALL)
    assert row is not None, served
    link = html.unescape(re.findall(r'class="login-link" href="([^"]+)"', row.group())[0])
    assert link.startswith(f"http://localhost:{stack.proxy_port}/referee/link/#"), link
    assert segno.make(link, error="m").svg_inline(scale=3) in row.group()
    director.close()

    # The referee's phone follows the link, signs in (a POST) and bids from the console.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    phone.set_default_timeout(TIMEOUT_MS)
    page = phone.new_page()
    page.goto(link)
    expect(page.locator("#sign-in-code")).to_have_value(link.partition("#")[2], timeout=TIMEOUT_MS)
    page.click("#link-sign-in")
    expect(page.locator("#app h1")).to_have_text("My tables now", timeout=TIMEOUT_MS)
    page.click("button.table-open")
    page.fill("input[name=board]", "1")
    page.click("button[data-deal=board]")
    hand = page.locator("section.hand")
    expect(hand).to_have_attribute("data-status", "bidding", timeout=TIMEOUT_MS)
    version = int(str(hand.get_attribute("data-version")))
    page.get_by_role("button", name="Bid 3", exact=True).click()
    expect(hand).to_have_attribute("data-version", str(version + 1), timeout=TIMEOUT_MS)
    expect(hand).not_to_have_attribute("data-status", "bidding", timeout=TIMEOUT_MS)
    assert [bid["bid"] for bid in stack.shell(_BIDS)] == [3]
    phone.close()

    # Every request went through nginx, each write answered without a refusal.
    access = stack.log("access.log")
    for write in (
        r"POST /admin/login/\S* HTTP/1\.1\" 302",
        r"POST /director/new/ HTTP/1\.1\" 302",
        rf"POST {round_path}referee/ HTTP/1\.1\" 302",
        r"POST /referee/link/ HTTP/1\.1\" 302",
        r"POST /api/v1/tables/\d+/hands/ HTTP/1\.1\" 201",
        r"POST /api/v1/hands/\d+/actions/ HTTP/1\.1\" 200",
    ):
        assert re.search(write, access), (write, access[-3000:])
    assert not re.search(r'" 403 ', access), access[-3000:]


def test_the_proxy_answers_for_a_named_host_only(stack: Stack) -> None:
    port = stack.proxy_port
    # The rendered configuration is what nginx (and compose's health check) accepts.
    checked = subprocess.run(stack.nginx("-t", "-q"), capture_output=True, text=True)
    assert checked.returncode == 0 and not checked.stderr, checked.stderr
    rendered = (stack.root / "conf.d" / "default.conf").read_text(encoding="utf-8")
    assert "${" not in re.sub(r"#[^\n]*", "", rendered)  # every variable of it was defined
    assert "proxy_set_header Host $http_host;" in rendered
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in rendered

    status, body = exchange(
        port, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    assert status == 200, body
    # HTTP/1.0 without Host: no site to answer for, no host to build links with.
    status, body = exchange(port, b"GET /referee/login/ HTTP/1.0\r\n\r\n")
    assert status == 400 and b"nginx" in body
    # HTTP/1.1 without Host: nginx refuses it itself.
    status, _ = exchange(port, b"GET /referee/login/ HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert status == 400
    # The port passes through, and ALLOWED_HOSTS still decides (Django's 400, not nginx's).
    for host, expected in ((f"localhost:{port}", 200), ("127.0.0.1:8000", 200),
                           ("evil.example:8000", 400), ("evil.example", 400)):  # fmt: skip
        request = f"GET /referee/login/ HTTP/1.0\r\nHost: {host}\r\n\r\n".encode()
        status, body = exchange(port, request)
        assert status == expected, (host, body[:300])
        if expected == 400:
            assert b"nginx" not in body
    assert "Invalid HTTP_HOST header: 'evil.example:8000'" in stack.log("gunicorn.log")


def fetch(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """GET ``path`` through nginx as ``localhost``: the status and the X-Cache header."""
    import http.client

    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        client.request("GET", path, headers={"Host": "localhost", **(headers or {})})
        answer = client.getresponse()
        answer.read()
        return answer.status, answer.getheader("X-Cache") or ""
    finally:
        client.close()


def test_the_proxy_never_caches_what_the_application_keeps_private(stack: Stack) -> None:
    """Every private family through the real application, and signed-in requests: each
    request reaches gunicorn (its access log), none is a HIT (tests/browser/test_proxy_cache.py
    shows the same with an application that forgets to say so). A public answer with a
    lifetime (the icon, a day) is kept."""
    port = stack.proxy_port
    private = [
        "/referee/", "/referee/login/", "/director/", "/admin/login/?next=/director/",
        "/api/v1/tables/1/hands/", "/api/docs/", "/healthz",
    ]  # fmt: skip
    signed_in = [{"Cookie": "sessionid=not-a-session"}, {"Authorization": "Token 00ff"}]
    for path in private:
        for headers in [{}, *signed_in]:
            for _ in range(2):
                status, cache = fetch(port, path, headers)
                assert cache == "BYPASS" and status < 500, (path, headers, status, cache)
        deadline = time.monotonic() + 30  # gunicorn logs a request once it has answered it
        while (reached := stack.log("gunicorn.log").count(f'"GET {path} HTTP/1.1"')) < 6:
            assert time.monotonic() < deadline, (path, reached)
            time.sleep(0.2)
    for headers in signed_in:
        assert fetch(port, "/", headers)[1] == "BYPASS"
        assert fetch(port, "/favicon.ico", headers)[1] == "BYPASS"
    first = fetch(port, "/favicon.ico")
    assert first[0] == 200 and first[1] in ("MISS", "HIT")
    assert fetch(port, "/favicon.ico") == (200, "HIT")
