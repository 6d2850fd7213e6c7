"""While the database cannot be reached, the pages answer 503 with Retry-After (not 500), in
the reader's language, and come back by themselves when it is back.

End to end: a gunicorn of this test serves a migrated database of its own (a SQLite file, or
a PostgreSQL cluster made with initdb), with DEBUG off as in production. The database is then
made unreachable for real: the SQLite file's directory is moved away, or the cluster is
stopped; every page, of every audience, is asked for; then the database is put back.

Below that: which real database errors count as "cannot be reached" (a refused connection, a
file that cannot be opened) and which stay a 500 (a missing table, a lock held too long).
"""

import contextlib
import json
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper
from django.db.backends.sqlite3.base import DatabaseWrapper as SqliteWrapper
from django.db.utils import OperationalError
from django.test import RequestFactory

from config.unavailable import RETRY_AFTER_SECONDS, database_unreachable
from referee.api.exception_handlers import server_error
from tests.integration.test_faults import OwnPostgres, wait_for_port

REPO = Path(__file__).resolve().parents[2]
PORT_BASE = int(os.environ.get("UNAVAILABLE_PORT_BASE", "8950"))
SQLITE_WEB_PORT, POSTGRES_PORT, POSTGRES_WEB_PORT, CLOSED_PORT = (
    PORT_BASE + 1,
    PORT_BASE + 2,
    PORT_BASE + 3,
    PORT_BASE + 4,
)

_SETUP = """
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from tournaments.models import Tournament
from tournaments.common.roles import REFEREE_GROUP

User = get_user_model()
Tournament.objects.create(name="Down", slug="down", is_public=True)
director = User.objects.create_user("down-director", password="x", is_staff=True)
referee = User.objects.create_user("down-referee", password="x")
referee.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
sessions = {}
for name, user in (("director", director), ("referee", referee)):
    client = Client()
    client.force_login(user)
    sessions[name] = client.cookies["sessionid"].value
print(json.dumps(sessions))
"""

#: (audience, path, an answer's content type) of what is asked while the database is down.
PAGES = [
    ("anonymous", "/", "text/html"),
    ("anonymous", "/t/down/", "text/html"),
    ("anonymous", "/t/down/standings/", "text/html"),
    ("anonymous", "/t/down/live/", "text/html"),
    ("director", "/director/", "text/html"),
    ("director", "/director/t/down/", "text/html"),
    ("referee", "/referee/", "text/html"),
    ("director", "/admin/", "text/html"),
    ("referee", "/api/v1/assignments/", "application/json"),
]


class Site:
    """A gunicorn of this test on a database of its own, and the session of each audience."""

    def __init__(self, port: int, directory: Path, env: dict[str, str]) -> None:
        self.port = port
        self.env = {
            **os.environ,
            **env,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "CELERY_BROKER_URL": "",
            "CELERY_RESULT_BACKEND": "",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # DEBUG off serves the collected, hashed static files (as the image does)
            "STATIC_ROOT": str(directory / "static"),
        }
        self.sessions: dict[str, str] = {}
        self.server: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        manage = [sys.executable, "manage.py"]
        for command in (["migrate"], ["collectstatic", "--noinput"]):
            subprocess.run([*manage, *command, "-v", "0"], cwd=REPO, env=self.env, check=True)
        made = subprocess.run(
            [*manage, "shell", "-c", "import json\n" + _SETUP],
            cwd=REPO,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        self.sessions = json.loads(made.stdout.splitlines()[-1])
        self.server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi:application",
             "--bind", f"127.0.0.1:{self.port}", "--workers", "1", "--timeout", "60"],
            cwd=REPO, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=20)

    def get(self, audience: str, path: str, language: str = "en") -> tuple[int, Any, str]:
        headers = {"Accept-Language": language}
        if audience in self.sessions:
            headers["Cookie"] = f"sessionid={self.sessions[audience]}"
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", headers=headers)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=30) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def assert_pages_answer(site: Site) -> None:
    for audience, path, _ in PAGES:
        status, _headers, _body = site.get(audience, path)
        assert status == 200, (audience, path, status)


def assert_pages_unavailable(site: Site) -> None:
    for audience, path, content_type in PAGES:
        status, headers, body = site.get(audience, path)
        assert status == 503, (audience, path, status, body[:300])
        assert headers["Retry-After"] == str(RETRY_AFTER_SECONDS), path
        assert headers["Content-Type"].startswith(content_type), path
        assert headers["Content-Security-Policy"], path
        if content_type == "application/json":
            assert json.loads(body)["code"] == "database_unavailable"
        else:
            assert "<h1>Temporarily unavailable</h1>" in body, path
            assert "cannot be reached" in body
    status, headers, body = site.get("anonymous", "/t/down/", language="zh-CN,zh-Hans;q=0.9")
    assert status == 503
    assert '<html lang="zh-hans">' in body
    assert "<h1>暂时无法访问</h1>" in body
    assert f"请在 {RETRY_AFTER_SECONDS} 秒后重试" in body


@pytest.fixture
def sqlite_site() -> Iterator[tuple[Site, Path]]:
    directory = Path(tempfile.mkdtemp(prefix="doudizhu-unavailable-"))
    (directory / "db").mkdir()
    site = Site(
        SQLITE_WEB_PORT, directory, {"DATABASE_URL": f"sqlite:///{directory}/db/db.sqlite3"}
    )
    try:
        site.start()
        yield site, directory
    finally:
        site.stop()
        shutil.rmtree(directory, ignore_errors=True)


def test_pages_answer_503_while_the_sqlite_file_cannot_be_opened(
    sqlite_site: tuple[Site, Path],
) -> None:
    site, directory = sqlite_site
    assert_pages_answer(site)
    (directory / "db").rename(directory / "away")  # the file is gone: nothing can open it
    try:
        assert_pages_unavailable(site)
    finally:
        (directory / "away").rename(directory / "db")
    assert_pages_answer(site)  # back by itself: no restart


@pytest.fixture
def postgres_site() -> Iterator[tuple[Site, OwnPostgres]]:
    # Not under pytest's tmp_path: the postgres user (initdb refuses root) must reach it.
    directory = Path(tempfile.mkdtemp(prefix="doudizhu-unavailable-pg-"))
    postgres = OwnPostgres(POSTGRES_PORT, directory)
    postgres.init()
    postgres.pg_ctl("start")
    site = Site(POSTGRES_WEB_PORT, directory, {"DATABASE_URL": postgres.url, "CONN_MAX_AGE": "60"})
    try:
        site.start()
        yield site, postgres
    finally:
        site.stop()
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            postgres.pg_ctl("stop", "-m", "fast")
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.postgresql
def test_pages_answer_503_while_postgresql_is_stopped(
    postgres_site: tuple[Site, OwnPostgres],
) -> None:
    """With kept connections (CONN_MAX_AGE): the one the stop broke is replaced, then the
    new one is refused; both are the database being unreachable."""
    site, postgres = postgres_site
    assert_pages_answer(site)
    postgres.pg_ctl("stop", "-m", "fast")
    try:
        assert_pages_unavailable(site)
    finally:
        postgres.pg_ctl("start")
    assert_pages_answer(site)


# --------------------------------------------------------------------------- which errors


def _closed_port() -> int:
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", CLOSED_PORT)) != 0, "something listens there"
    return CLOSED_PORT


def _database(engine: str, name: str, **extra: Any) -> dict[str, Any]:
    """A database's settings, as Django completes them (not the test database's)."""
    return {"ENGINE": f"django.db.backends.{engine}", "NAME": name, "USER": "", "PASSWORD": "",
            "HOST": "", "PORT": "", "OPTIONS": {}, "ATOMIC_REQUESTS": False, "AUTOCOMMIT": True,
            "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False, "TIME_ZONE": None, "TEST": {},
            **extra}  # fmt: skip


def _error_of(wrapper: Any, sql: str | None = None) -> OperationalError:
    with pytest.raises(OperationalError) as caught:
        if sql is None:
            wrapper.ensure_connection()
        else:
            with wrapper.cursor() as cursor:
                cursor.execute(sql)
    wrapper.close()
    return caught.value


@pytest.mark.django_db  # lifts pytest-django's block on opening connections
def test_a_refused_postgresql_connection_is_unreachable() -> None:
    settings = _database("postgresql", "nothing", USER="nobody", HOST="127.0.0.1",
                         PORT=str(_closed_port()), OPTIONS={"connect_timeout": 2})  # fmt: skip
    error = _error_of(PostgresWrapper(settings, alias="unreachable"))
    assert "refused" in str(error).lower() or "connect" in str(error).lower()
    assert database_unreachable(error)


@pytest.mark.django_db
def test_a_sqlite_file_that_cannot_be_opened_is_unreachable(tmp_path: Path) -> None:
    settings = _database("sqlite3", str(tmp_path / "gone" / "db.sqlite3"))
    error = _error_of(SqliteWrapper(settings, alias="unreachable"))
    assert "unable to open database file" in str(error)
    assert database_unreachable(error)


@pytest.mark.django_db
def test_a_missing_table_or_a_held_lock_is_not_unreachable(tmp_path: Path) -> None:
    """A query the database refuses is this request's error (500), not an outage."""
    settings = _database("sqlite3", str(tmp_path / "db.sqlite3"))
    missing = _error_of(SqliteWrapper(settings, alias="one"), "SELECT * FROM no_such_table")
    assert not database_unreachable(missing)

    holder = sqlite3.connect(tmp_path / "db.sqlite3")
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        waiter = SqliteWrapper({**settings, "OPTIONS": {"timeout": 0}}, alias="two")
        locked = _error_of(waiter, "INSERT INTO t VALUES (1)")
    finally:
        holder.rollback()
        holder.close()
    assert "database is locked" in str(locked)
    assert not database_unreachable(locked)
    assert not database_unreachable(ValueError("not a database error"))
    assert not database_unreachable(None)


@pytest.mark.django_db
def test_the_500_handler_answers_503_for_a_failure_in_a_middleware(
    tmp_path: Path, settings: Any
) -> None:
    """A failure raised past DatabaseUnavailableMiddleware (the session saved on the way out)
    reaches Django's 500 handler while it is being handled: that answers the 503 too, and an
    ordinary error stays a 500."""
    settings.ALLOWED_HOSTS = ["testserver"]
    request = RequestFactory().get("/t/down/")
    gone = _database("sqlite3", str(tmp_path / "gone" / "db.sqlite3"))
    try:
        SqliteWrapper(gone, alias="unreachable").ensure_connection()
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert b"Temporarily unavailable" in response.content
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_postgresql_lock_or_statement_timeout_is_not_unreachable() -> None:
    """The server answered, and refused this query in time: an error of the request."""
    holder = connections.create_connection("default")
    holder.set_autocommit(False)
    try:
        with holder.cursor() as cursor:
            cursor.execute("LOCK TABLE tournaments_tournament IN ACCESS EXCLUSIVE MODE")
        with (
            pytest.raises(OperationalError) as lock,
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("SET LOCAL lock_timeout = '50ms'")
            cursor.execute("SELECT count(*) FROM tournaments_tournament")
    finally:
        holder.rollback()
        holder.close()
    assert getattr(lock.value.__cause__, "sqlstate", None) == "55P03"
    assert not database_unreachable(lock.value)

    with (
        pytest.raises(OperationalError) as slow,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL statement_timeout = '50ms'")
        cursor.execute("SELECT pg_sleep(2)")
    assert getattr(slow.value.__cause__, "sqlstate", None) == "57014"
    assert not database_unreachable(slow.value)
