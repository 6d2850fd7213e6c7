"""A duplicate round on PostgreSQL (committed transactions, so the analysis queued after the
commit runs as in production): its travellers show par once the board is released and
nothing before, in the page, in the shared cache's entries and in the exports; and the same
through a REAL Celery worker on Redis (``broker``)."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from config import celery_app
from tests import factories
from tests.integration.test_standings_worker import Workers
from tests.public_data import hand_play, tournament_with_tables
from tournaments.common.broker_publish import broker_publish_drain
from tournaments.hands.write import hand_create
from tournaments.models import AnalysisStatus, Board, BoardPar, HandPar, RoundBoard

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

BUDGET = {"PAR_QUERY_MS": "60000", "PAR_QUERY_NODES": "2000", "PAR_QUERY_ENTRIES": "200000"}


def _round() -> tuple[Any, list[Board], list[Any]]:
    """Two tables of one section play boards 1 and 2 as hands 1 and 2."""
    tournament, tables = tournament_with_tables(tables=2, format="duplicate")
    boards = [
        factories.BoardFactory(tournament=tournament, number=n, seed=918_273_645_500 + n)
        for n in (1, 2)
    ]
    for n, board in enumerate(boards, start=1):
        RoundBoard.objects.create(round=tables[0].round, section=1, hand_number=n, board=board)
    return tournament, boards, tables


def _traveller(slug: str, number: int) -> str:
    response = Client().get(f"/t/{slug}/boards/{number}/")
    assert response.status_code == 200
    return response.content.decode()


def _cached_text() -> str:
    """Every entry of the shared cache (the public pages kept as bytes), as text."""
    from django.conf import settings

    cache = caches[settings.SHARED_CACHE]
    table = cache._table  # type: ignore[attr-defined]
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT value FROM {table}")
        values = [row[0] for row in cursor.fetchall()]
    import base64
    import gzip
    import pickle

    texts = []
    for value in values:
        data = pickle.loads(base64.b64decode(value))
        body = getattr(data, "body", data)
        if isinstance(body, bytes):
            with contextlib.suppress(OSError):
                body = gzip.decompress(body)
            texts.append(body.decode("utf-8", "replace"))
        else:
            texts.append(repr(data))
    return "\n".join(texts)


def test_a_duplicate_round_shows_par_after_release_and_nothing_before(settings: Any) -> None:
    settings.PAR_ANALYSIS_AUTO = True
    for name, value in BUDGET.items():
        setattr(settings, name, int(value))
    tournament, boards, tables = _round()
    first = hand_play(hand_create(table=tables[0]).hand, seed=1)  # board 1 at table 1
    # board 1 is still to be played at table 2: no analysis, nothing on its traveller
    before = _traveller(tournament.slug, 1)
    assert not BoardPar.objects.exists()
    assert 'id="par' not in before and "data-par=" not in before
    cached = _cached_text()
    assert "traveller" in cached  # the page's entry was read back
    assert "data-par=" not in cached and 'id="par"' not in cached
    hand_play(hand_create(table=tables[1]).hand, seed=2)  # board 1 released
    row = BoardPar.objects.get(board=boards[0])
    assert row.status == AnalysisStatus.DONE
    assert HandPar.objects.filter(board_par=row).count() == 2
    after = _traveller(tournament.slug, 1)  # the cached page is not served: its version moved
    assert 'id="par" class="par" data-state="done"' in after
    assert after.count("data-par=") == 3
    # board 2: table 1 plays it, table 2 not yet: nothing of it
    hand_play(hand_create(table=tables[0]).hand, seed=3)
    assert not BoardPar.objects.filter(board=boards[1]).exists()
    assert 'id="par' not in _traveller(tournament.slug, 2)
    hand_page = Client().get(f"/t/{tournament.slug}/hands/{first.pk}/").content.decode()
    assert 'id="par-lost"' in hand_page
    print(f"board 1: {row.nodes} nodes in {row.ms} ms (par and 2 hands)")


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    queue = f"pytest-par-{uuid.uuid4().hex[:10]}"
    previous = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    pool = Workers(queue, tmp_path)
    pool.env.update(BUDGET)
    try:
        yield pool
    finally:
        pool.stop_all()
        celery_app.conf.task_default_queue = previous
        with celery_app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)
            conn.default_channel.queue_delete(f"{queue}.unacked")


@pytest.mark.broker
def test_a_real_worker_analyses_the_released_board(settings: Any, workers: Workers) -> None:
    settings.PAR_ANALYSIS_AUTO = True
    settings.PAR_QUEUE = workers.queue  # the analyses' queue: this test's worker consumes it
    workers.start()
    tournament, boards, tables = _round()
    hand_play(hand_create(table=tables[0]).hand, seed=1)
    broker_publish_drain()
    time.sleep(1)
    assert not BoardPar.objects.exists()
    assert 'id="par' not in _traveller(tournament.slug, 1)
    hand_play(hand_create(table=tables[1]).hand, seed=2)
    broker_publish_drain()
    deadline = time.monotonic() + 120
    while not BoardPar.objects.filter(board=boards[0], status=AnalysisStatus.DONE).exists():
        assert time.monotonic() < deadline, workers.logs()
        time.sleep(0.2)
    row = BoardPar.objects.get(board=boards[0])
    assert row.budget["nodes"] == 2000  # the worker's settings
    assert HandPar.objects.filter(board_par=row).count() == 2
    assert 'id="par" class="par" data-state="done"' in _traveller(tournament.slug, 1)


@pytest.mark.broker
def test_an_analysis_is_sent_to_the_analysis_queue_not_the_default_one(settings: Any) -> None:
    """Par analysis has a queue of its own (``PAR_QUEUE``, consumed by compose's ``analysis``
    worker): a released board's task lands there, and nothing on the default queue that
    the standings' worker takes (a board's minutes of solving never delay the standings)."""
    settings.PAR_ANALYSIS_AUTO = True
    name = f"pytest-par-{uuid.uuid4().hex[:10]}"
    settings.PAR_QUEUE = f"{name}-analysis"
    previous = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = f"{name}-default"
    try:
        with celery_app.connection_for_write() as conn:
            channel = conn.default_channel
            for queue in (settings.PAR_QUEUE, celery_app.conf.task_default_queue):
                channel.queue_declare(queue=queue, durable=True, auto_delete=False)
            _tournament, boards, tables = _round()
            hand_play(hand_create(table=tables[0]).hand, seed=1)
            hand_play(hand_create(table=tables[1]).hand, seed=2)  # board 1 released
            broker_publish_drain()
            taken = {
                queue: [
                    m.headers["task"]
                    for m in iter(lambda q=queue: channel.basic_get(q, no_ack=True), None)
                ]
                for queue in (settings.PAR_QUEUE, celery_app.conf.task_default_queue)
            }
    finally:
        celery_app.conf.task_default_queue = previous
        with celery_app.connection_for_write() as conn:
            for queue in (f"{name}-analysis", f"{name}-default"):
                conn.default_channel.queue_delete(queue)
    assert taken[f"{name}-analysis"] == ["tournaments.tasks.par_analyse"]
    assert BoardPar.objects.get(board=boards[0]).status == AnalysisStatus.QUEUED
    # the standings' tasks of the two finished hands went to the default queue, no analysis
    default = taken[f"{name}-default"]
    assert "tournaments.tasks.standings_recompute" in default
    assert "tournaments.tasks.par_analyse" not in default
