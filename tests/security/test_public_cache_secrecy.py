"""What the public page cache holds leaks nothing of a secret board or a live hand (issue 30,
point 1): the walk of tests/security/test_board_secrecy_walk.py (a duplicate board finished
at table 1, in play at table 2, not started at table 3: secret; a hand in play) is read on
every public route by spectators in both languages, then the shared cache's raw entries are
read from its backend (the project's configuration: the database cache by default, Redis
with ``CACHE_URL=redis://…``) and the pages, fragments, cards and rows they hold must be
the same whichever deal the board holds, and hold no card at all (no hand is released).

The ETags of every page but the standings (whose version holds the time its snapshot was
made) are compared too: a version counts a secret board's hands only by
what the public sees of them (``tournaments.public.page_cache``). The cache's keys are left
out (the live board's table cards are keyed by digests of their hands' rows), and so are
the version documents (the ETags' material)."""

from __future__ import annotations

import base64
import gzip
import pickle
import re
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction
from django.test import Client

from tests.conftest import ONE_REFRESH_BUCKET
from tests.security.test_board_secrecy_walk import (
    ALL_PROFILES,
    _normal,
    _reset_sequences,
    _Rollback,
    _seed_pair,
    _world,
    read_routes,
)
from tournaments.public import page_cache
from tournaments.public.page_cache import Page

pytestmark = pytest.mark.django_db

PRIVATE = ("/api/", "/director/", "/referee/", "/admin/", "/healthz", "/i18n/")


def raw_entries() -> dict[str, Any]:
    """Every entry of the shared cache, read from its backend's own storage (not through
    ``cache.get``): key → value."""
    cache = caches[settings.SHARED_CACHE]
    if isinstance(cache, DatabaseCache):
        table = connection.ops.quote_name(cache._table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT cache_key, value FROM {table}")
            rows = cursor.fetchall()
        return {key: pickle.loads(base64.b64decode(value)) for key, value in rows}
    if isinstance(cache, RedisCache):
        client = cache._cache.get_client(None)
        return {
            key.decode(): cache._cache._serializer.loads(client.get(key))
            for key in client.scan_iter(match=f"{cache.key_prefix}*")
        }
    if isinstance(cache, LocMemCache):
        return {key: pickle.loads(value) for key, value in cache._cache.items()}
    raise AssertionError(f"no reader for {type(cache).__name__}")


_DIGESTS = re.compile(r"\b[0-9a-f]{16,40}\b")
_TIMES = re.compile(r"\d+\.\d+")  # the standings snapshot's time, in its rows' key


def _text(value: Any) -> list[str]:
    """What a spectator may be sent of a cached value: a page's bytes (and its gzip), a
    card's or rows' HTML."""
    if isinstance(value, Page):
        texts = [value.body.decode()]
        if value.gzipped is not None:
            assert gzip.decompress(value.gzipped) == value.body
        return texts
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], list):
        return ["\n".join(value[1])]  # the standings' rendered rows
    return [repr(value)]


def _normal_entries(entries: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind of entry, its text), sorted, digests (versions, keys) out."""
    out = []
    for key, value in entries.items():
        if "public-version:" in key or key.endswith(":rendering"):
            continue  # a version: ETag material, see the module's docstring
        kind = _TIMES.sub("#", _DIGESTS.sub("#", key[key.index("public-") :]))
        for text in _text(value):
            out.append((kind, _DIGESTS.sub("#", _normal(text))))
    return sorted(set(out))


def _cached_world(profile: str, seed: int) -> tuple[list[tuple[str, str]], list[str]]:
    for cache in caches.all():
        cache.clear()
    _reset_sequences()
    found: tuple[list[tuple[str, str]], list[str]] | None = None
    try:
        with transaction.atomic():
            world = _world(profile, seed)
            urls = [u for u in read_routes(world) if not u.startswith(PRIVATE)]
            spectator = Client()
            etags = []
            for url in urls:
                for language in ("en", "zh-hans"):
                    response = spectator.get(url, headers={"accept-language": language})
                    if "/standings" not in url:  # its version holds its snapshot's time
                        etags.append(f"{url} {language} {response.get('ETag')}")
                    spectator.get(url, headers={"accept-encoding": "gzip"})
            entries = raw_entries()
            deal = [
                "".join(str(card) for card in seat)
                for seat in world.hands[1].board.seat_cards  # type: ignore[union-attr]
            ]
            found = (_normal_entries(entries) + [("etag", e) for e in etags], deal)
            raise _Rollback
    except _Rollback:
        pass
    _reset_sequences()
    for cache in caches.all():
        cache.clear()
    assert found is not None
    return found


@pytest.mark.parametrize("profile", ALL_PROFILES[:2])
def test_the_public_cache_holds_nothing_of_a_secret_board(profile: str, settings: Any) -> None:
    settings.PUBLIC_BOARD_SECONDS = 600  # one version per page for the walk's length
    # and one time bucket for both worlds: page_cache.PAGE_REFRESH_SECONDS, as every test
    assert page_cache.PAGE_REFRESH_SECONDS == ONE_REFRESH_BUCKET
    one, two = _seed_pair(profile)
    first, deal = _cached_world(profile, one)
    second, _ = _cached_world(profile, two)
    kinds = {kind.split(":")[1] for kind, _ in first if kind.startswith("public-page:")}
    assert {"round", "board", "hand", "player", "live", "standings"} <= kinds, kinds
    assert len(first) > 20  # the walk filled the cache
    blob = "\n".join(text for _, text in first)
    assert 'class="card ' not in blob  # no hand is released: no card anywhere
    for seat in deal:
        assert seat not in blob
    assert first == second, next((a, b) for a, b in zip(first, second, strict=False) if a != b)
