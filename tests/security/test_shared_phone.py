"""Issue 28, point 3: one phone, several referees, sessions that end.

Reproductions from the issue, on a phone (Chromium, 390×844) against the live server:

- Referee A taps a bid offline, A's session ends, referee B signs in on the same phone: A's
  bid was sent and recorded as B's. Now each queued write carries its typist: B's page
  holds A's write and says so, never sends it; B's own writes go; A signing in again sends
  A's, recorded as A's, once. A page of A's still open when B signs in (the same cookies)
  sends A's write with B's session: the server refuses it (403 ``typist_mismatch``).
- After a session ends without signing out, anyone opening ``/referee/`` offline saw the
  last referee's live hand, every seat's cards. Now the saved hand and the service worker's
  copy of the page go when the session ends (its end is in the page), on 401/403 and on
  sign-out; a copy past its session's end is never served.
"""

import contextlib
import json
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Error, Page, Route, expect
from rest_framework.test import APIClient

from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.conftest import ARTEFACTS
from tests.browser.console.conftest import phone_context
from tournaments.models import Hand, HandEvent, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "shared-phone-pass-3"
QUEUE = "referee-console-queue-v1"
SNAPSHOT = "referee-console-snapshot-v1"
TYPED = "HTTP_X_TYPED_BY"
TEXT = {
    "en": {"tables": "My tables now", "bid": "Bid {n}", "held": "1 write typed by {name} waits"},
    "zh": {"tables": "我的当前牌桌", "bid": "叫 {n} 分", "held": "{name} 输入的 1 项操作正在等待"},
}


@pytest.fixture
def http_cookies(settings: Any) -> None:
    """The live server speaks plain HTTP: cookies must not be Secure-only."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture(params=["en", "zh"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _referee(name: str, table: Table) -> Any:
    user = referee_user(name)
    user.set_password(PASSWORD)
    user.save()
    assign(user, table)
    return user


def _sign_in(page: Page, username: str, language: str) -> None:
    page.goto("/referee/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#app h1")).to_have_text(TEXT[language]["tables"])


def _start_random_hand(page: Page, table: Table) -> Hand:
    page.click("button.table-open")
    page.click("button[data-deal=random]")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "bidding")
    return Hand.objects.get(table=table)


def _bid(page: Page, language: str, n: int) -> None:
    page.get_by_role("button", name=TEXT[language]["bid"].format(n=n), exact=True).click()


def _stored(page: Page, key: str) -> Any:
    return json.loads(page.evaluate(f"localStorage.getItem('{key}')") or "null")


def _no_network(route: Route) -> None:
    route.abort("internetdisconnected")


def _go_offline(context: BrowserContext, page: Page) -> None:
    """Offline for the page and its service worker (the API cut at the router too, as
    tests/browser/console/test_console_resilience.py explains)."""
    context.set_offline(True)
    context.route("**/api/**", _no_network)
    page.wait_for_function(
        "fetch('/api/v1/me/', { cache: 'no-store' }).then(() => false, () => true)"
    )


def _go_online(context: BrowserContext) -> None:
    context.unroute("**/api/**", _no_network)
    context.set_offline(False)


def _bids(hand: Hand) -> list[HandEvent]:
    return list(HandEvent.objects.filter(hand=hand, kind="bid").order_by("seq"))


def test_two_referees_on_one_phone_each_write_is_recorded_as_its_typists(
    live_server: Any, browser: Browser, http_cookies: None, language: str
) -> None:
    table_a, table_b = playing_table(), playing_table()
    a, b = _referee("referee-a", table_a), _referee("referee-b", table_b)
    context = phone_context(browser, live_server, language)
    page = context.new_page()
    _sign_in(page, a.username, language)
    hand_a = _start_random_hand(page, table_a)

    # A taps a bid offline: it waits on the phone, typed by A.
    _go_offline(context, page)
    _bid(page, language, 1)
    (queued,) = _stored(page, QUEUE)
    assert (queued["by"], queued["byName"]) == (str(a.pk), a.username)

    # A's session ends (the server forgets it); the phone comes back online.
    Session.objects.all().delete()
    _go_online(context)
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("section.hand")).to_have_count(0)  # the hand left the screen
    assert _stored(page, SNAPSHOT) is None
    assert [item["key"] for item in _stored(page, QUEUE)] == [queued["key"]]

    # B signs in on the same phone: A's write is held and said, never sent as B's.
    page.click("a.sign-in-again")
    _sign_in(page, b.username, language)
    held = page.locator("#queue-others .others-waiting")
    expect(held).to_contain_text(TEXT[language]["held"].format(name=a.username))
    expect(held).to_have_attribute("data-typist", str(a.pk))
    page.screenshot(path=ARTEFACTS / f"shared-phone-{language}-held.png", full_page=True)
    # B's own writes go.
    hand_b = _start_random_hand(page, table_b)
    _bid(page, language, 1)
    expect(page.locator("#queue li.queued")).to_have_count(0)
    page.wait_for_function(
        "JSON.parse(localStorage.getItem('referee-console-queue-v1') || '[]').length === 1"
    )
    assert [e.recorded_by_id for e in _bids(hand_b)] == [b.pk]
    assert _bids(hand_a) == []
    assert not HandEvent.objects.filter(hand=hand_a, recorded_by=b).exists()
    expect(held).to_be_visible()  # still waiting for A

    # B signs out; A signs in again: A's write is sent, recorded as A's, once.
    page.click(".console-bar button[type=submit]")
    _sign_in(page, a.username, language)
    expect(page.locator("#queue")).to_be_hidden()
    (bid,) = _bids(hand_a)
    assert (bid.recorded_by_id, bid.idempotency_key) == (a.pk, queued["key"])
    assert _stored(page, QUEUE) == []
    page.reload()
    expect(page.locator("#app h1")).to_have_text(TEXT[language]["tables"])
    assert len(_bids(hand_a)) == 1 and len(_bids(hand_b)) == 1
    context.close()


def test_a_page_of_a_still_open_after_b_signs_in_cannot_send_as_b(
    live_server: Any, browser: Browser, http_cookies: None
) -> None:
    """The typist's page cannot know that the phone's cookies are now B's: the server
    refuses A's write sent with B's session (X-Typed-By is A), and the write stays."""
    table_a, table_b = playing_table(), playing_table()
    a, b = _referee("referee-a", table_a), _referee("referee-b", table_b)
    context = phone_context(browser, live_server, "en")
    page_a = context.new_page()
    _sign_in(page_a, a.username, "en")
    hand_a = _start_random_hand(page_a, table_a)
    actions = "**/api/v1/hands/*/actions/"
    context.route(actions, _no_network)  # A's bid does not get through …
    _bid(page_a, "en", 1)
    expect(page_a.locator("#message")).to_have_class("message waiting")
    (queued,) = _stored(page_a, QUEUE)

    Session.objects.all().delete()  # A's session ends …
    page_b = context.new_page()
    _sign_in(page_b, b.username, "en")  # … and B signs in in another tab
    with page_a.expect_response(lambda r: "/actions/" in r.url) as sent:
        context.unroute(actions, _no_network)  # … until B is signed in
        page_a.evaluate("window.dispatchEvent(new Event('online'))")
    assert sent.value.request.headers["x-typed-by"] == str(a.pk)
    assert (sent.value.status, sent.value.json()["code"]) == (403, "typist_mismatch")
    expect(page_a.locator("#signed-out")).to_be_visible()
    assert _bids(hand_a) == []
    assert [item["key"] for item in _stored(page_a, QUEUE)] == [queued["key"]]
    expect(page_b.locator("#queue-others")).to_be_visible()
    context.close()


def test_the_api_refuses_a_write_typed_by_another_account(db: Any) -> None:
    table = playing_table()
    a, b = _referee("referee-a", table), _referee("referee-b", table)
    api = APIClient()
    api.force_login(b)
    url = f"/api/v1/tables/{table.pk}/hands/"
    for typed_by in (str(a.pk), "0", "not a number", f"{b.pk}0"):
        response = api.post(
            url, {"deal": "random"}, format="json", HTTP_IDEMPOTENCY_KEY="k1", **{TYPED: typed_by}
        )
        assert response.status_code == 403, typed_by
        assert response.json()["code"] == "typist_mismatch"
    assert not Hand.objects.filter(table=table).exists()
    response = api.post(
        url, {"deal": "random"}, format="json", HTTP_IDEMPOTENCY_KEY="k1", **{TYPED: str(b.pk)}
    )
    assert response.status_code == 201
    # No typist named (an API client): not checked.
    hand = response.json()
    response = api.post(
        f"/api/v1/hands/{hand['id']}/actions/",
        {"seat": hand["turn"], "bid": 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k2",
    )
    assert response.status_code == 200


def _session_ends_in(context: BrowserContext, seconds: int) -> None:
    key = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
    store = SessionStore(session_key=key)
    store.set_expiry(timezone.now() + timedelta(seconds=seconds))
    store.save()


@pytest.mark.parametrize("page_open", [True, False], ids=["page-open", "page-closed"])
def test_after_its_session_ends_an_offline_phone_shows_no_hand(
    live_server: Any, browser: Browser, http_cookies: None, page_open: bool
) -> None:
    table = playing_table()
    a = _referee("referee-a", table)
    context = phone_context(browser, live_server, "en")
    page = context.new_page()
    _sign_in(page, a.username, "en")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    _start_random_hand(page, table)

    # The session ends soon; the page (online) learns when, and the worker keeps it.
    _session_ends_in(context, 40)
    page.reload()
    ends = int(page.locator("#app").get_attribute("data-session-ends") or 0)
    assert 0 < ends - time.time() * 1000 <= 41_000
    page.wait_for_function(
        f"""caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n)
              .then((c) => c.match('/referee/')))))
            .then((hits) => hits.some((h) => h && h.headers.get('X-Session-Ends') === '{ends}'))"""
    )
    page.click("button.table-open")
    cards = page.locator("ul.held li")
    expect(cards.first).to_be_visible()

    # Offline before the end: the saved hand comes back, cards and all (what the issue saw).
    _go_offline(context, page)
    answer = page.reload()
    assert answer is not None and answer.from_service_worker
    expect(page.locator("ul.held li").first).to_be_visible()
    assert _stored(page, SNAPSHOT)["hand"]["hands"]

    if not page_open:
        page.close()
    remaining = ends / 1000 - time.time()
    if page_open:
        # The page's own clock ends it: nothing of the hand on screen or kept.
        expect(page.locator("#signed-out")).to_be_visible(timeout=int(remaining * 1000) + 15_000)
        expect(page.locator("section.hand")).to_have_count(0)
        expect(page.locator("ul.held")).to_have_count(0)
        assert _stored(page, SNAPSHOT) is None
        page.wait_for_function(
            "caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n)"
            ".then((c) => c.match('/referee/'))))).then((hits) => !hits.some(Boolean))"
        )
        page.screenshot(path=ARTEFACTS / "shared-phone-session-ended.png", full_page=True)
    else:
        time.sleep(max(0.0, remaining) + 1)
        page = context.new_page()

    # Anyone opening the console offline now: no page, no hand, no cards.
    with contextlib.suppress(Error):  # the worker has nothing to serve: an offline error
        page.goto("/referee/")
    assert page.locator("ul.held").count() == 0
    assert page.locator("section.hand").count() == 0
    assert "referee-a" not in page.content()
    context.close()
