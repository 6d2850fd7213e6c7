"""The public pages kept as bytes in the shared cache, once per version and language.

A public page (a tournament's home, round, board, hand, player, standings, live board and
their fragments) is rendered at most once per *version* of what it shows, per language and
query string, by whichever process asks first; the bytes (and their gzip, compressed once)
are kept in the shared cache (``settings.SHARED_CACHE``) and every spectator of that version
gets them. A conditional GET naming the current version answers 304 without a render or a
database query.

The version is a cheap read, by family of pages (``FAMILIES``):

- ``live``: ``selectors.live_version`` (what the board shows: the tables being played,
  their seats, their hands as the public sees them; five queries);
- ``standings``: ``standings.public_table.standings_key`` (the newest snapshot);
- ``tournament``: ``selectors.public_version`` (the tournament, its rounds, hands, seats,
  penalties and exclusions) and the live board's (its hands in play), with the time bucket
  of ``PAGE_REFRESH_SECONDS``: what the fingerprint does not see (a player's name
  corrected) shows within that much.

A version counts a secret board's hands only by what the public sees of them, so an ETag
tells nothing of their moves. Each is one query (the live board's five), kept in the shared
cache ``settings.PUBLIC_BOARD_SECONDS`` (1 s): a spectator sees a page at most that old,
and a poll within it costs one cache read (then the page's bytes: a second). With
``PUBLIC_BOARD_SECONDS = 0`` the version is read on every request. A page rendered after
its version was read shows that version or a newer state,
never an older one, so a spectator's ETag never stands for a page older than theirs.

Only requests without a session cookie or an Authorization header are served from or put
into the cache (a director's preview, a signed-in page, never), only 200 answers that set
no cookie are kept, and a kept page carries no CSRF token (``request.public_cacheable``:
its language form posts to the token-less ``/i18n/public/``). What the pages show is the
public's view (``card_secrecy.PUBLIC``), so the cache holds nothing the public may not see
(tests/security/test_public_cache_secrecy.py walks it).

The HTTP caching contract for the proxy in front (``tournaments.common.cache_control``):
public answers say ``Cache-Control: public, max-age=1`` with an ETag and ``Vary:
Accept-Language, Cookie, Accept-Encoding``; everything else ``private, no-store``.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from tournaments.public import selectors as ps
from tournaments.standings.public_table import standings_key

logger = logging.getLogger(__name__)


def _both(first: str | None, second: str | None) -> str | None:
    return None if first is None or second is None else f"{first}.{second}"


#: The families of pages and the read of their version (None: no public tournament); the
#: second argument is handed what was read on the way (``page_version``'s ``read``).
FAMILIES: dict[str, Callable[[str, dict[str, Any]], str | None]] = {
    "live": lambda slug, read: ps.live_version(slug=slug, read=read),
    "standings": lambda slug, read: standings_key(slug=slug),
    "tournament": lambda slug, read: _both(
        ps.public_version(slug=slug), ps.live_version(slug=slug)
    ),
}

#: The ``tournament`` family's pages are rendered again at least this often: the bound on
#: how long a change its fingerprint does not count (a player's name) takes to show.
PAGE_REFRESH_SECONDS = 300
#: How long a page's bytes are kept: a version outlives this only on a quiet tournament,
#: whose page is then rendered once more.
PAGE_SECONDS = 600
#: Answers this small are not compressed (gzip's header would outweigh the saving).
GZIP_MIN_BYTES = 200
#: Headers of a page kept with its bytes.
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "X-Live-Delta")
VARY = ("Accept-Language", "Cookie", "Accept-Encoding")

_MISSING = "-"  # a version document's value for "no public tournament"


def cacheable(request: HttpRequest) -> bool:
    """Whether ``request`` may be answered from (and fill) the shared page cache: a GET or
    HEAD of somebody without a session or credentials."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _cache() -> Any:
    return caches[settings.SHARED_CACHE]


def _get(key: str) -> Any:
    try:
        return _cache().get(key)
    except Exception:  # any backend's failure: the page does without the cache
        logger.warning("the shared cache could not be read", exc_info=True)
        return None


def _set(key: str, value: Any, timeout: int) -> None:
    try:
        _cache().set(key, value, timeout=timeout)
    except Exception:  # any backend's failure: the next request renders again
        logger.warning("the shared cache could not be written", exc_info=True)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]


def page_version(family: str, slug: str, read: dict[str, Any] | None = None) -> str | None:
    """The current version of ``family``'s pages of the tournament ``slug`` (None: no
    public tournament): the version document in the shared cache, or one query (kept
    ``settings.PUBLIC_BOARD_SECONDS``). When the version was read afresh, ``read`` is
    handed what its read found (the live board's tables and card keys: ``request.
    public_read``), which a render in the same request then need not read again."""
    seconds = settings.PUBLIC_BOARD_SECONDS
    key = f"public-version:{family}:{_digest(slug)}"
    if seconds > 0:
        found = _get(key)
        if isinstance(found, str):
            return None if found == _MISSING else found
    version = FAMILIES[family](slug, {} if read is None else read)
    if version is not None and family == "tournament":
        version = f"{version}.{int(time.time() // PAGE_REFRESH_SECONDS)}"
    if seconds > 0:
        _set(key, _MISSING if version is None else version, seconds)
    return version


def page_etag(name: str, version: str, query: str) -> str:
    """The quoted ETag of the page ``name`` at the version of digest ``version`` in the
    request's language with the query ``query`` (``page_query``):
    ``"name.version.language.query-digest"``."""
    return quote_etag(f"{name}.{version}.{get_language()}.{_digest(query)}")


def etag_version(etag: str) -> str:
    """The version digest an ETag of ``page_etag`` holds ("" if it is none of ours); a weak
    ETag (a proxy's gzip) holds the same."""
    parts = etag.removeprefix("W/").strip('"').split(".")
    return parts[1] if len(parts) == 4 else ""


@dataclass(frozen=True)
class Page:
    """A rendered page as kept: its bytes, their gzip, the headers it carries and what its
    view left for later answers (``meta``: the live board's cards)."""

    status: int
    body: bytes
    gzipped: bytes | None
    headers: tuple[tuple[str, str], ...]
    meta: Any = field(default=None)


def _kept(response: HttpResponse) -> Page | None:
    """``response`` as a ``Page`` to keep, or None if it may not be kept: anything but a
    200, an answer that sets a cookie or marks itself private."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    control = response.get("Cache-Control", "")
    if "private" in control or "no-store" in control:
        return None
    body = response.content
    gzipped = gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_MIN_BYTES else None
    headers = tuple((h, response[h]) for h in KEPT_HEADERS if h in response)
    meta = getattr(response, "page_meta", None)
    return Page(200, body, gzipped, headers, meta)


def accepts_gzip(request: HttpRequest) -> bool:
    """Whether the request's Accept-Encoding takes gzip (and does not refuse it: q=0)."""
    for part in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            weight = params.strip().lower().removeprefix("q=")
            return weight.strip() not in ("0", "0.0", "0.00", "0.000")
    return False


def answer(request: HttpRequest, page: Page, etag: str) -> HttpResponse:
    """The response of a kept ``page``: gzip bytes when the client takes them."""
    if page.gzipped is not None and accepts_gzip(request):
        response = HttpResponse(page.gzipped, status=page.status)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.body, status=page.status)
    for header, value in page.headers:
        response[header] = value
    response["Content-Length"] = str(len(response.content))
    return finish(response, etag)


def finish(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_vary_headers(response, VARY)
    return response


def page_key(name: str, version: str, query: str) -> str:
    """The shared cache's key of the page ``name`` at the version of digest ``version``."""
    return f"public-page:{name}:{version}:{get_language()}:{_digest(query)}"


def kept_page(name: str, version: str, query: str) -> Page | None:
    """The kept page ``name`` at the version of digest ``version`` (this language, query
    string), if any."""
    found = _get(page_key(name, version, query))
    return found if isinstance(found, Page) else None


def keep_page(name: str, version: str, query: str, page: Page) -> None:
    _set(page_key(name, version, query), page, PAGE_SECONDS)


#: The query parameter that asks for a delta since the version of an ETag (the live board,
#: ``tournaments.public.views.live``): it selects another answer of the same version, so
#: the ETag leaves it out.
SINCE = "since"


#: The query parameters a public page reads (the standings' ``club``, ``big`` and ``page``,
#: the fragments' ``fragment``). Any other parameter changes nothing the page shows, so it
#: selects no other entry: ``?x=<random>`` is served the kept page instead of filling the
#: shared cache with copies of it, one a request.
PAGE_PARAMS = frozenset({"fragment", "club", "big", "page"})


def page_query(request: HttpRequest, kwargs: dict[str, Any]) -> str:
    """The view's arguments and the query parameters it reads (``PAGE_PARAMS``, sorted):
    what, besides the version and the language, selects a page."""
    return page_query_of(kwargs, {k: str(v) for k, v in request.GET.items()})


def page_query_of(kwargs: dict[str, Any], params: dict[str, str]) -> str:
    pairs = sorted((k, v) for k, v in params.items() if k in PAGE_PARAMS)
    return f"{sorted(kwargs.items())!r}?{pairs!r}"


#: Renders, for the tests and the bench (``renders[name]``): how often each page was made.
renders: dict[str, int] = {}


# bench/poll_bench.py, 50 tables, the shared cache in memory, a busy 2-core machine (p50 per
# request): the live board's poll 0.9 ms as a 304, 1.0 ms from the kept bytes, 17 ms at a new
# version, 30 ms as every poll was before; the standings 0.5 / 0.6 / 16 / 27 ms.
def public_page(
    family: str, name: str
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """The view, served from the shared page cache (the module's docstring). ``name`` names
    the page in keys and ETags. The view finds the version's digest in
    ``request.public_version`` when its answer will be kept (and ``request.public_cacheable``:
    it must then carry no CSRF token)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def serve(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            if not cacheable(request):
                return view(request, slug, **kwargs)
            read: dict[str, Any] = {}
            version = page_version(family, slug, read)
            if version is None:  # no such public tournament: the view says so (404)
                return view(request, slug, **kwargs)
            version = _digest(version)
            query = page_query(request, kwargs)
            etag = page_etag(name, version, query)
            not_modified = get_conditional_response(request, etag=etag)
            if not_modified is not None:
                return finish(not_modified, etag)
            # a delta is its own entry only from a version still kept (the only one it can
            # be made from): any other ``since`` is answered the whole page, from its entry
            since = etag_version(request.GET.get(SINCE, ""))
            if since and kept_page(name, since, query) is None:
                since = ""
            key_query = f"{query}{SINCE}={since}" if since else query
            page = kept_page(name, version, key_query)
            if page is None:
                request.public_cacheable = True  # type: ignore[attr-defined]
                request.public_version = version  # type: ignore[attr-defined]
                request.public_read = read  # type: ignore[attr-defined]
                response = view(request, slug, **kwargs)
                renders[name] = renders.get(name, 0) + 1
                # a page that asked for a CSRF token carries one: never shared
                page = None if request.META.get("CSRF_COOKIE_NEEDS_UPDATE") else _kept(response)
                if page is None:
                    return finish(response, etag) if response.status_code == 200 else response
                keep_page(name, version, key_query, page)
            return answer(request, page, etag)

        return serve

    return decorate
