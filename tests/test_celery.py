from collections.abc import Iterator
from typing import Any

import pytest

from config import celery_app
from tournaments.tasks import ping


@pytest.fixture
def eager() -> Iterator[None]:
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous


def test_app_delivery_contract() -> None:
    conf = celery_app.conf
    assert celery_app.main == "config"
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.task_serializer == "json"
    assert conf.result_serializer == "json"
    assert list(conf.accept_content) == ["json"]
    assert conf.worker_prefetch_multiplier == 1
    assert conf.broker_connection_retry_on_startup is True
    assert 0 < conf.task_soft_time_limit < conf.task_time_limit


def test_ping_is_registered_by_autodiscovery() -> None:
    celery_app.loader.import_default_modules()
    assert "tournaments.tasks.ping" in celery_app.tasks


def test_ping_in_eager_mode(eager: None) -> None:
    result: Any = ping.delay()
    assert result.get(timeout=5) == {"pong": True}
    assert result.successful()


def test_ping_runs_locally_with_apply() -> None:
    assert ping.apply().get() == {"pong": True}
