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
SERVICES = ("db", "redis", "migrate", "web", "worker", "beat")
APP_SERVICES = ("migrate", "web", "worker", "beat")
RUNNING_SERVICES = ("web", "worker", "beat")


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


def test_the_six_services_exist(services: dict[str, Any]) -> None:
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
    assert any(str(p).endswith(":8000") for p in services["web"]["ports"])


def test_named_volumes_are_declared_and_used(
    compose: dict[str, Any], services: dict[str, Any]
) -> None:
    declared = set(compose["volumes"])
    assert declared
    used = {str(v).split(":", 1)[0] for s in services.values() for v in s.get("volumes", [])}
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
