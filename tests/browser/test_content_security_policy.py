"""The Content-Security-Policy in a real browser: the referee console plays a hand, the live
board and standings update, the director's round page shows its QR codes and prints, the
admin and the API docs work, and Chromium reports no violation on any of them.

Violations are watched twice: Chromium's console message ("... violates the following
Content Security Policy directive ...") and the ``securitypolicyviolation`` event, recorded
by a script Playwright adds before the page's own (not subject to the page's policy). The
first test shows the watch sees an inline script being refused, so that "none" means none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import factories
from tests.browser.conftest import patient
from tests.browser.console.test_referee_console import _setup as console_setup
from tests.browser.console.test_referee_console import _sign_in as console_sign_in
from tests.browser.console.test_referee_console import _start_board_hand
from tests.public_data import hand_play, hand_played, tournament_with_tables
from tournaments.common.roles import REFEREE_GROUP
from tournaments.models import Hand, HandStatus, RefereeAssignment

pytestmark = pytest.mark.django_db(transaction=True)

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
window.print = function () { window.__printed = true; };
"""


class Watched:
    """A browser context whose pages record every CSP violation."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.messages: list[str] = []
        self.pages: list[Page] = []
        context.add_init_script(WATCH)

    def page(self) -> Page:
        page = self.context.new_page()
        page.on("console", self._console)
        self.pages.append(page)
        return page

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.messages.append(message.text)

    def violations(self, page: Page) -> list[str]:
        return [*self.messages, *page.evaluate("window.__cspViolations")]


@pytest.fixture
def watched(browser: Browser, live_server: Any, settings: Any) -> Iterator[Callable[..., Watched]]:
    """``watched(user=None, **context_options)``: a watched context, signed in as ``user``."""
    settings.SESSION_COOKIE_SECURE = False  # the live server speaks plain HTTP
    settings.CSRF_COOKIE_SECURE = False
    contexts: list[BrowserContext] = []

    def make(user: Any = None, **options: Any) -> Watched:
        context = patient(browser.new_context(base_url=live_server.url, locale="en-GB", **options))
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies["sessionid"].value
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
        return Watched(context)

    yield make
    for context in contexts:
        context.close()


def test_the_watch_sees_an_inline_script_refused(watched: Callable[..., Watched]) -> None:
    tournament, _ = tournament_with_tables(tables=1)
    watch = watched()
    page = watch.page()
    page.goto(f"/t/{tournament.slug}/")
    page.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.__inlineRan = true"; document.body.appendChild(s); }"""
    )
    page.wait_for_function("window.__cspViolations.length > 0")
    assert page.evaluate("window.__inlineRan === undefined")  # refused, not run
    assert any("script-src" in v for v in watch.violations(page)), watch.violations(page)


def test_the_referee_console_plays_under_the_policy(
    watched: Callable[..., Watched], live_server: Any
) -> None:
    _, referee = console_setup()
    watch = watched(viewport={"width": 390, "height": 844})
    page = watch.page()
    console_sign_in(page, live_server.url, referee.username)
    hand = _start_board_hand(page)
    page.get_by_role("button", name="Bid 3", exact=True).click()
    expect(page.locator("section.hand")).to_have_attribute("data-status", "doubling")
    assert hand.events.filter(kind="bid").count() == 1  # the tap was recorded
    assert watch.violations(page) == []


def test_public_pages_poll_and_filter_under_the_policy(watched: Callable[..., Watched]) -> None:
    tournament, tables = tournament_with_tables(tables=2)
    hand = hand_played(tables[0], seed=21, upto=4)
    watch = watched()
    page = watch.page()
    page.goto(f"/t/{tournament.slug}/live/")
    card = page.locator('section[data-table="1"]')
    assert card.locator(".scores").count() == 0
    hand_play(Hand.objects.get(pk=hand.pk), seed=21, start=4)  # the referee plays it out
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.FINISHED
    card.locator(".scores").wait_for(state="visible")  # public.js polled it in
    assert watch.violations(page) == []

    page.goto(f"/t/{tournament.slug}/standings/")
    club = page.locator("select[name=club] option").nth(1).inner_text()
    page.select_option("select[name=club]", club)  # site.js submits the filter
    page.wait_for_url("**/standings/?club=*")
    page.select_option("select[name=language]", "zh-hans")  # and the language form
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    assert watch.violations(page) == []


def test_the_director_round_page_and_print_sheet_under_the_policy(
    watched: Callable[..., Watched],
) -> None:
    tournament, tables = tournament_with_tables(tables=1)
    referee = factories.UserFactory(username="csp-referee")
    referee.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])  # a plain referee
    RefereeAssignment.objects.create(round=tables[0].round, table=tables[0], user=referee)
    director = factories.UserFactory(username="csp-director", is_staff=True)
    watch = watched(director)
    page = watch.page()
    page.goto(f"/director/t/{tournament.slug}/rounds/1/")
    qr = page.locator("svg.segno").first
    expect(qr).to_be_visible()  # the inline SVG QR code is drawn
    assert qr.bounding_box()["width"] > 50  # type: ignore[index]
    assert watch.violations(page) == []
    page.goto(f"/director/t/{tournament.slug}/rounds/1/print/")
    page.get_by_role("button", name="Print").click()
    page.wait_for_function("window.__printed === true")
    assert watch.violations(page) == []


def test_the_admin_and_the_api_docs_under_the_policy(watched: Callable[..., Watched]) -> None:
    tournament_with_tables(tables=1)
    admin = factories.UserFactory(username="csp-admin", is_staff=True, is_superuser=True)
    watch = watched(admin)
    page = watch.page()
    for path in (
        "/admin/",
        "/admin/tournaments/tournament/",
        "/admin/tournaments/tournament/add/",
        "/admin/tournaments/round/",
    ):
        page.goto(path)
        expect(page.locator("#content")).to_be_visible()
        assert watch.violations(page) == [], path
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Dou Dizhu referee API")
    expect(page.locator(".opblock").first).to_be_visible()  # the schema was fetched and drawn
    assert watch.violations(page) == []
