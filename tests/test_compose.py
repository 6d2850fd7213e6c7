"""docker-compose.yml is valid against the Compose specification and wires the stack as intended.

No Docker engine is needed: the file is checked against the compose-spec JSON schema vendored in
check-jsonschema, then its services are inspected. These tests touch no database.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

COMPOSE_FILE = Path(__file__).resolve().parent.parent / "docker-compose.yml"
SERVICES = ("db", "redis", "migrate", "web", "proxy", "worker", "analysis", "beat")
APP_SERVICES = ("migrate", "web", "worker", "analysis", "beat")
RUNNING_SERVICES = ("web", "worker", "analysis", "beat")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    with COMPOSE_FILE.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, Any]:
    return compose["services"]


def _compose_schema() -> dict[str, Any]:
    resource = files("check_jsonschema").joinpath("builtin_schemas/vendor/compose-spec.json")
    return json.loads(resource.read_text(encoding="utf-8"))


def _healthcheck_command(service: dict[str, Any]) -> str:
    test = service["healthcheck"]["test"]
    return test if isinstance(test, str) else " ".join(test)


def test_valid_against_compose_spec(compose: dict[str, Any]) -> None:
    schema = _compose_schema()
    validator_cls = jsonschema.validators.validator_for(schema)
    validator_cls.check_schema(schema)
    errors = sorted(validator_cls(schema).iter_errors(compose), key=lambda e: list(e.path))
    assert not errors, "\n".join(
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors
    )


def test_schema_rejects_a_broken_file(compose: dict[str, Any]) -> None:
    """Guard against a schema that accepts anything: a misspelt key must be an error."""
    schema = _compose_schema()
    broken = {**compose, "services": {**compose["services"], "web": {"imagee": "x"}}}
    assert not jsonschema.validators.validator_for(schema)(schema).is_valid(broken)


def test_the_eight_services_exist(services: dict[str, Any]) -> None:
    assert set(services) == set(SERVICES)


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_wait_for_healthy_db_and_redis(services: dict[str, Any], name: str) -> None:
    depends_on = services[name]["depends_on"]
    assert isinstance(depends_on, dict), "long depends_on syntax is needed for conditions"
    for dependency in ("db", "redis"):
        assert depends_on[dependency]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_build_the_project_image(services: dict[str, Any], name: str) -> None:
    assert services[name]["build"] == "."


def test_images(services: dict[str, Any]) -> None:
    assert services["db"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"


@pytest.mark.parametrize("name", ("db", "redis", "web"))
def test_healthchecks(services: dict[str, Any], name: str) -> None:
    assert services[name]["healthcheck"]["test"]


def test_healthcheck_commands(services: dict[str, Any]) -> None:
    assert "pg_isready" in _healthcheck_command(services["db"])
    assert "redis-cli ping" in _healthcheck_command(services["redis"])
    assert "/healthz" in _healthcheck_command(services["web"])


def test_commands(services: dict[str, Any]) -> None:
    migrate = " ".join(services["migrate"]["command"])
    assert migrate.index("manage.py migrate") < migrate.index("manage.py db_app_role")
    web = " ".join(services["web"]["command"])
    assert "gunicorn config.wsgi:application" in web and "migrate" not in web
    assert "0.0.0.0:8000" in web
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    # Par analysis on a queue and a worker of its own (issue 33): the default worker takes
    # the default queue only (no --queues), the analysis worker the analyses' queue only.
    assert "--queues" not in services["worker"]["command"]
    analysis = services["analysis"]["command"]
    assert analysis[:4] == ["celery", "-A", "config", "worker"]
    assert analysis[analysis.index("--queues") + 1] == "${PAR_QUEUE:-analysis}"
    assert services["analysis"]["environment"]["PAR_QUEUE"] == "${PAR_QUEUE:-analysis}"
    assert services["proxy"]["ports"] == ["${WEB_PORT:-8000}:8080"]


def test_named_volumes_are_declared_and_used(
    compose: dict[str, Any], services: dict[str, Any]
) -> None:
    declared = set(compose["volumes"])
    assert declared
    used = {str(v).split(":", 1)[0] for s in services.values() for v in s.get("volumes", [])}
    used = {v for v in used if not v.startswith((".", "/"))}  # bind mounts are not volumes
    assert used <= declared
    assert any(v.endswith(":/var/lib/postgresql/data") for v in services["db"]["volumes"])
    assert any(v.endswith(":/data") for v in services["redis"]["volumes"])


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_environment(services: dict[str, Any], name: str) -> None:
    env = services[name]["environment"]
    assert str(env["DEBUG"]).lower() in {"false", "0", "off", "no"}
    assert env["SECRET_KEY"] == "${SECRET_KEY:?set SECRET_KEY}"
    assert env["ALLOWED_HOSTS"]
    assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
    for key in ("CELERY_RESULT_BACKEND", "CSRF_TRUSTED_ORIGINS", "TIME_ZONE"):
        assert key in env


def test_optional_variables_have_defaults() -> None:
    """Every ${VAR} reference has a default (${VAR:-x}) except the required SECRET_KEY."""
    text = COMPOSE_FILE.read_text(encoding="utf-8")
    text = text.replace("$$", "")  # escaped dollars are literal, not interpolation
    references = re.findall(r"\$\{([^}]*)\}", text)
    assert references
    for ref in references:
        name = re.match(r"[A-Za-z_][A-Za-z0-9_]*", ref)
        assert name, ref
        if name.group() == "SECRET_KEY":
            assert ref.startswith("SECRET_KEY:?"), ref
        else:
            assert ref[name.end() :].startswith(":-"), ref


@pytest.mark.parametrize("name", RUNNING_SERVICES)
def test_running_services_start_after_the_migrations(services: dict[str, Any], name: str) -> None:
    assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


@pytest.mark.parametrize("name", RUNNING_SERVICES)
def test_running_services_connect_as_the_application_role(
    services: dict[str, Any], name: str
) -> None:
    """Least privilege: only the migrate service knows the owner's credentials."""
    env = services[name]["environment"]
    assert env["DATABASE_URL"].startswith("postgres://${POSTGRES_APP_USER:-doudizhu_app}:")
    assert "POSTGRES_USER" not in env["DATABASE_URL"] and "POSTGRES_PASSWORD}" not in str(env)
    assert env["DATABASE_APP_ROLE"] == "${POSTGRES_APP_USER:-doudizhu_app}"
    migrate_env = services["migrate"]["environment"]
    assert migrate_env["DATABASE_URL"].startswith("postgres://${POSTGRES_USER:-doudizhu}:")


# ------------------------------------------------------------------ the reverse proxy

NGINX_TEMPLATE = COMPOSE_FILE.parent / "config" / "nginx.conf.template"


def nginx_blocks(text: str) -> list[Any]:
    """A structural parse of an nginx configuration: a list of (directive, [args]) and
    (block name, [args], [children]); raises on unbalanced braces or a missing ';'."""
    # A word may hold ${NAME}, which the image's template step fills in.
    word = r'(?:\$\{[A-Z_]+\}|[^\s{};"$]|\$(?!\{))+'
    tokens = re.findall(rf'"[^"]*"|{word}|[{{}};]', re.sub(r"#[^\n]*", "", text))
    stack: list[list[Any]] = [[]]
    words: list[str] = []
    for token in tokens:
        if token == "{":
            assert words, "a block without a name"
            block: list[Any] = []
            stack[-1].append((words[0], words[1:], block))
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"directive without ';' before '}}': {words}"
            stack.pop()
            assert stack, "unbalanced '}'"
        elif token == ";":
            assert words, "an empty directive"
            stack[-1].append((words[0], words[1:]))
            words = []
        else:
            words.append(token)
    assert not words, f"directive without ';' at the end: {words}"
    assert len(stack) == 1, "unclosed block"
    return stack[0]


def directives(block: list[Any], name: str) -> list[list[str]]:
    return [item[1] for item in block if len(item) == 2 and item[0] == name]


def child(block: list[Any], name: str, *args: str) -> list[Any]:
    found = [
        item[2]
        for item in block
        if len(item) == 3 and item[0] == name and (not args or list(item[1]) == list(args))
    ]
    assert len(found) == 1, (name, args)
    return found[0]


@pytest.fixture(scope="module")
def nginx() -> list[Any]:
    return nginx_blocks(NGINX_TEMPLATE.read_text(encoding="utf-8"))


def test_the_parser_refuses_broken_configurations() -> None:
    for broken in ("server { listen 80 }", "server { listen 80;", "listen 80; }", "listen"):
        with pytest.raises(AssertionError):
            nginx_blocks(broken)


def test_web_is_not_published_and_the_proxy_is(services: dict[str, Any]) -> None:
    """Slow clients are the proxy's to buffer: nothing outside reaches gunicorn."""
    assert "ports" not in services["web"]
    assert services["web"]["expose"] == ["8000"]
    assert [name for name, s in services.items() if s.get("ports")] == ["proxy"]


def test_the_proxy_is_the_official_nginx_image_with_the_repository_config(
    services: dict[str, Any],
) -> None:
    proxy = services["proxy"]
    assert re.fullmatch(r"nginx:1\.\d+-alpine", proxy["image"])
    source, target, mode = proxy["volumes"][0].split(":")
    assert (COMPOSE_FILE.parent / source).resolve() == NGINX_TEMPLATE
    assert target == "/etc/nginx/templates/default.conf.template" and mode == "ro"
    # The image renders ${NGINX_...} from the environment: each one used is set.
    used = set(re.findall(r"\$\{(NGINX_[A-Z_]+)\}", NGINX_TEMPLATE.read_text(encoding="utf-8")))
    assert used and used <= set(proxy["environment"])


def test_the_proxy_listens_on_the_published_port_in_front_of_web(
    nginx: list[Any], services: dict[str, Any]
) -> None:
    """Where nginx listens and where gunicorn is are template variables (its test runs it on
    loopback); compose fixes them to the published container port and web's --bind."""
    server = child(nginx, "server")
    upstream = child(nginx, "upstream", "doudizhu_web")
    assert directives(upstream, "server") == [["${NGINX_UPSTREAM}"]]
    assert directives(server, "listen") == [["${NGINX_LISTEN}"]]
    env = services["proxy"]["environment"]
    assert env["NGINX_LISTEN"] == services["proxy"]["ports"][0].rpartition(":")[2] == "8080"
    web = services["web"]["command"]
    bind_port = web[web.index("--bind") + 1].rpartition(":")[2]
    assert env["NGINX_UPSTREAM"] == f"web:{bind_port}" == "web:8000"
    assert services["web"]["expose"] == [bind_port]


def test_the_proxy_buffers_and_bounds_every_client(nginx: list[Any]) -> None:
    server = child(nginx, "server")
    for timeout in ("client_header_timeout", "client_body_timeout"):
        assert directives(server, timeout) == [["${NGINX_CLIENT_TIMEOUT}"]]
    assert directives(server, "client_max_body_size")
    location = child(server, "location", "/")
    assert directives(location, "proxy_pass") == [["http://doudizhu_web"]]
    assert directives(location, "proxy_buffering") == [["on"]]
    assert directives(location, "proxy_request_buffering") == [["on"]]
    for timeout in ("proxy_connect_timeout", "proxy_read_timeout", "proxy_send_timeout"):
        assert len(directives(location, timeout)) == 1


def test_the_proxy_overwrites_the_forwarded_headers(nginx: list[Any]) -> None:
    """A client cannot claim HTTPS or another address through the proxy."""
    location = child(child(nginx, "server"), "location", "/")
    headers = {args[0].lower(): args[1] for args in directives(location, "proxy_set_header")}
    assert headers["x-forwarded-proto"] == "${NGINX_FORWARDED_PROTO}"
    assert headers["x-forwarded-for"] == "$remote_addr"
    for dropped in ("x-forwarded-ssl", "x-forwarded-protocol", "forwarded"):
        assert headers[dropped] == '""'


def test_the_proxy_passes_the_host_with_its_port(nginx: list[Any]) -> None:
    """Django checks a POST's Origin against the scheme and Host and builds the sign-in links
    from them: the Host must keep the published port ($http_host; $host drops it, and every
    form posted to http://localhost:8000 was refused 403). X-Forwarded-Host and -Port stay
    blank: Django reads neither, nor may a client set them should that change."""
    from django.conf import settings

    server = child(nginx, "server")
    location = child(server, "location", "/")
    headers = {args[0].lower(): args[1] for args in directives(location, "proxy_set_header")}
    assert headers["host"] == "$http_host"
    assert headers["x-forwarded-host"] == headers["x-forwarded-port"] == '""'
    assert not settings.USE_X_FORWARDED_HOST and not settings.USE_X_FORWARDED_PORT
    # An HTTP/1.0 request without a Host header is refused, not passed on without one.
    guard = child(server, "if", "($http_host", "=", '""', ")")
    assert guard == [("return", ["400"])]


def test_gunicorn_trusts_forwarded_headers_from_the_proxy_only(
    compose: dict[str, Any], services: dict[str, Any]
) -> None:
    import ipaddress

    proxy_ip = services["proxy"]["networks"]["default"]["ipv4_address"]
    assert services["web"]["environment"]["FORWARDED_ALLOW_IPS"] == proxy_ip
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    default = re.compile(r"\$\{[A-Z_]+:-([^}]*)\}")
    address = ipaddress.ip_address(default.fullmatch(proxy_ip).group(1))  # type: ignore[union-attr]
    assert address in ipaddress.ip_network(default.fullmatch(subnet).group(1))  # type: ignore[union-attr]
    gunicorn: dict[str, Any] = {}
    exec((COMPOSE_FILE.parent / "config" / "gunicorn.py").read_text(), gunicorn)
    assert gunicorn["forwarded_allow_ips"] == "127.0.0.1"  # without the variable: nobody else
    assert gunicorn["secure_scheme_headers"] == {"X-FORWARDED-PROTO": "https"}


def test_the_worker_and_migrate_have_their_own_database_timeouts(services: dict[str, Any]) -> None:
    web = services["web"]["environment"]
    assert web["DATABASE_STATEMENT_TIMEOUT"] == "${DATABASE_STATEMENT_TIMEOUT:-30}"
    assert services["migrate"]["environment"]["DATABASE_STATEMENT_TIMEOUT"] == "0"
    assert services["migrate"]["environment"]["DATABASE_LOCK_TIMEOUT"] == "0"
    worker = services["worker"]["environment"]
    assert worker["DATABASE_STATEMENT_TIMEOUT"] == "${WORKER_DATABASE_STATEMENT_TIMEOUT:-60}"


@pytest.mark.parametrize("name", RUNNING_SERVICES)
def test_the_shared_cache_is_redis_in_a_database_of_its_own(
    services: dict[str, Any], name: str
) -> None:
    """Production keeps Django's shared cache in Redis (what django-environ makes of the URL:
    Django's own RedisCache, whose client is the locked `redis` package), apart from the
    broker's and the results' databases."""
    import environ
    from django.core.cache.backends.redis import RedisCache

    env = services[name]["environment"]
    url = re.fullmatch(r"\$\{CACHE_URL:-(.*)\}", env["CACHE_URL"])
    assert url and url.group(1) == "redis://redis:6379/2"
    config = environ.Env.cache_url_config(url.group(1))
    assert config["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert RedisCache(config["LOCATION"], {})._cache._lib.__name__ == "redis"  # no connection
    others = {env["CELERY_BROKER_URL"], env["CELERY_RESULT_BACKEND"]}
    assert url.group(1) not in others


def test_the_proxy_caches_public_pages_only(nginx: list[Any], services: dict[str, Any]) -> None:
    """The audience's cache (tests/browser/test_proxy_cache.py runs it): a second's copy of a
    public page, never a private family's, a signed-in request's or one carrying a token."""
    location = child(child(nginx, "server"), "location", "/")
    assert directives(location, "proxy_cache") == [["doudizhu_pages"]]
    private = ["$doudizhu_private_path", "$doudizhu_session", "$http_authorization"]
    assert directives(location, "proxy_cache_bypass") == [private]
    assert directives(location, "proxy_no_cache") == [private]
    assert directives(location, "proxy_cache_lock") == [["on"]]
    # a waiter looks again after min(500 ms, this): 100 ms, not the 500 ms of nginx's poll
    assert directives(location, "proxy_cache_lock_timeout") == [["100ms"]]
    assert directives(location, "proxy_cache_background_update") == [["on"]]
    assert "updating" in directives(location, "proxy_cache_use_stale")[0]
    assert not directives(location, "proxy_ignore_headers")  # Set-Cookie, Cache-Control, Vary
    assert not directives(location, "proxy_cache_valid")  # only what the application allows
    assert directives(location, "add_header") == [["X-Cache", "$upstream_cache_status", "always"]]
    families = child(nginx, "map", "$uri", "$doudizhu_private_path")
    assert ("default", ["0"]) in families
    assert ('"~^/(referee|director|admin|api)(/|$)"', ["1"]) in families
    assert ('"~^/(healthz|i18n/)"', ["1"]) in families
    path = directives(nginx, "proxy_cache_path")[0]
    assert path[0] == "${NGINX_CACHE_PATH}" and "keys_zone=doudizhu_pages:10m" in path
    proxy = services["proxy"]
    assert proxy["environment"]["NGINX_CACHE_PATH"] == "/var/cache/nginx/doudizhu"
    assert proxy["tmpfs"][0].startswith("/var/cache/nginx/doudizhu:")
