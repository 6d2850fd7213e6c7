"""The console at the table (issue 29.4), on a phone (390×844), in English and 简体中文:
Undo asks for its reason where the button is; a result-only entry's "Doubled" boxes are
named by seat and player, and the list of tables says a hand awaits confirmation as the
table's screen does; the first open offline after signing in shows the referee's tables
(kept on the phone) with a plain "offline" banner."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests import factories
from tests.api.helpers import assign, client_for, playing_table, post, referee_user
from tests.browser.console.conftest import console_sign_in
from tests.browser.console.conftest import phone_context as _phone
from tournaments.common.player_names import display_name
from tournaments.common.seat_names import seat_names
from tournaments.hands.write import hand_record_result
from tournaments.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-29"
TEXT = {
    "en": {
        "tables": "My tables now",
        "bid_1": "Bid 1",
        "undo": "Undo last action",
        "undo_it": "Undo it",
        "cancel": "Cancel",
        "why": "Why undo the last action?",
        "result_only": "Result only",
        "awaiting": "Awaiting confirmation",
        "finished": "Finished",
        "offline": "Offline — showing your tables as of {time}",
        "no_tables": "No table to referee now.",
    },
    "zh": {
        "tables": "我的当前牌桌",
        "bid_1": "叫 1 分",
        "undo": "撤销上一步",
        "undo_it": "确认撤销",
        "cancel": "取消",
        "why": "为什么要撤销上一步？",
        "result_only": "仅录结果",
        "awaiting": "待确认",
        "finished": "已结束",
        "offline": "离线 — 显示 {time} 时的牌桌列表",
        "no_tables": "现在没有需要执裁的牌桌。",
    },
}
DJANGO_LANGUAGE = {"en": "en", "zh": "zh-hans"}


@pytest.fixture(params=["en", "zh"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _referee(tables: list[Table]) -> Any:
    referee = referee_user("table-ref")
    referee.set_password(PASSWORD)
    referee.save()
    for table in tables:
        assign(referee, table)
    return referee


def _sign_in(page: Page, username: str, language: str) -> None:
    console_sign_in(page, username, PASSWORD, language)


def test_undo_asks_for_its_reason_where_the_button_is(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    table = playing_table()
    factories.BoardFactory(tournament=table.round.tournament, number=1, seed=4242)
    referee = _referee([table])
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _sign_in(page, referee.username, language)
    page.click("button.table-open")
    page.fill("input[name=board]", "1")
    page.click("button[data-deal=board]")
    hand_box = page.locator("section.hand")
    expect(hand_box).to_have_attribute("data-status", "bidding")
    hand = Hand.objects.get()
    page.get_by_role("button", name=TEXT[language]["bid_1"], exact=True).click()
    expect(hand_box).to_have_attribute("data-version", str(hand.version + 1))

    # No reason box waiting below the card pad: the button alone.
    expect(page.locator("input[name=undo_reason]")).to_have_count(0)
    undo = page.get_by_role("button", name=TEXT[language]["undo"], exact=True)
    undo.click()
    reason = page.locator("#undo-reason")
    expect(reason).to_be_focused()
    expect(page.locator("#undo-ask")).to_contain_text(TEXT[language]["why"])
    confirm = page.get_by_role("button", name=TEXT[language]["undo_it"], exact=True)
    expect(confirm).to_be_disabled()
    reason.fill("   ")
    expect(confirm).to_be_disabled()  # blanks are no reason
    page.screenshot(path=artefacts / f"console-{language}-undo-ask.png", full_page=True)

    # Cancel closes it, nothing sent.
    page.get_by_role("button", name=TEXT[language]["cancel"], exact=True).click()
    expect(reason).to_have_count(0)
    assert not HandEvent.objects.filter(hand=hand, kind="undo").exists()

    undo.click()
    page.locator("#undo-reason").fill("bid for the wrong seat")
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(hand_box).to_have_attribute("data-version", str(hand.version + 2))
    event = HandEvent.objects.filter(hand=hand).order_by("seq").last()
    assert event is not None and event.kind == "undo"
    assert event.payload["reason"] == "bid for the wrong seat"
    expect(page.locator("#undo-reason")).to_have_count(0)  # asked once, closed once sent
    context.close()


def test_result_only_doubled_boxes_name_the_seats_and_the_tables_say_awaiting(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    table = playing_table(requires_confirmation=True)
    referee = _referee([table])
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _sign_in(page, referee.username, language)
    page.click("button.table-open")
    page.get_by_role("button", name=TEXT[language]["result_only"], exact=True).click()
    form = page.locator("#result-form")
    expect(form).to_be_visible()
    with translation.override(DJANGO_LANGUAGE[language]):
        seats = seat_names()
        players = [
            display_name(s.entry.player.name, s.entry.player.chinese_name)
            for s in Seat.objects.filter(table=table)
            .select_related("entry__player")
            .order_by("position")
        ]
    labels = form.locator(".doubled label")
    expect(labels).to_have_count(3)
    for position in range(3):
        label = form.locator(f".doubled label[data-seat='{position}']")
        expect(label).to_have_text(f"{seats[position]} · {players[position]}")
    page.screenshot(path=artefacts / f"console-{language}-result-doubled.png", full_page=True)

    # The hand's result recorded (from another phone): it awaits confirmation; the list
    # of tables says so in the table screen's words, not "Finished".
    hand = Hand.objects.get()
    hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord")
    page.get_by_role("button", name=re.compile(re.escape("← "))).first.click()
    opener = page.locator("button.table-open")
    expect(opener).to_contain_text(TEXT[language]["awaiting"])
    expect(opener).not_to_contain_text(TEXT[language]["finished"])
    page.screenshot(path=artefacts / f"console-{language}-tables-awaiting.png", full_page=True)
    context.close()


def _no_network(route: Route) -> None:
    route.abort("internetdisconnected")


def _go_offline(context: BrowserContext, page: Page) -> None:
    """Offline for the pages and their service worker, the API cut off at the router too
    (Chromium's offline emulation lets a request a service worker passes on through now and
    then: ``test_console_resilience``)."""
    context.set_offline(True)
    context.route("**/api/**", _no_network)
    page.wait_for_function(
        "fetch('/api/v1/me/', { cache: 'no-store' }).then(() => false, () => true)"
    )


def test_the_first_open_offline_shows_the_referees_tables_and_says_offline(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    first = playing_table()
    tables = [first]
    for _ in range(6):
        table = factories.TableFactory(round=first.round)
        for position in range(3):
            factories.SeatFactory(table=table, position=position)
        tables.append(table)
    referee = _referee(tables)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _sign_in(page, referee.username, language)
    expect(page.locator("button.table-open")).to_have_count(7)
    expect(page.locator("#offline-banner")).to_have_count(0)
    # The service worker has the console page; the list is kept on the phone.
    page.wait_for_function(
        "caches.keys().then((k) => Promise.all(k.map((n) => caches.open(n).then((c) =>"
        " c.match('/referee/'))))).then((hits) => hits.some(Boolean))"
    )
    page.wait_for_function(
        "(JSON.parse(localStorage.getItem('referee-console-snapshot-v1') || '{}').tables || [])"
        ".length === 7"
    )
    kept = json.loads(page.evaluate("localStorage.getItem('referee-console-snapshot-v1')"))
    assert kept["user"] == str(referee.pk)  # the account the page was shown to (issue 28)
    page.close()

    helper = context.new_page()
    helper.goto("/referee/sw.js")
    _go_offline(context, helper)
    offline = context.new_page()
    answer = offline.goto("/referee/")
    assert answer is not None and answer.from_service_worker
    expect(offline.locator("#app h1")).to_have_text(TEXT[language]["tables"])
    expect(offline.locator("button.table-open")).to_have_count(7)
    expect(offline.locator("#app")).not_to_contain_text(TEXT[language]["no_tables"])
    time = offline.evaluate(
        "(() => { const d = new Date(JSON.parse(localStorage.getItem("
        "'referee-console-snapshot-v1')).tablesAt); return String(d.getHours()).padStart(2, '0')"
        " + ':' + String(d.getMinutes()).padStart(2, '0'); })()"
    )
    assert re.fullmatch(r"\d\d:\d\d", time)
    banner = offline.locator("#offline-banner")
    expect(banner).to_have_text(TEXT[language]["offline"].format(time=time))
    offline.screenshot(
        path=artefacts / f"console-{language}-offline-first-open.png", full_page=True
    )

    # Back online: the list is read again and the banner goes.
    context.unroute("**/api/**", _no_network)
    context.set_offline(False)
    expect(banner).to_have_count(0)
    expect(offline.locator("button.table-open")).to_have_count(7)
    context.close()


PAD = {
    "en": {"T": "10", "X": "Small joker", "D": "Big joker"},
    "zh": {"T": "10", "X": "小王", "D": "大王"},
}


def test_the_physical_card_pad_names_ten_and_the_jokers_as_elsewhere(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    """The pad's buttons read 10, small joker 小王 and big joker 大王 (as the held cards and
    the public pages name them), not T X D; the notation typed (T, X, D) is still taken."""
    table = playing_table()
    referee = _referee([table])
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _sign_in(page, referee.username, language)
    page.click("button.table-open")
    page.select_option("select[name=first_bidder]", "0")
    page.click("button[data-deal=physical]")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "bidding")
    hand = Hand.objects.get()
    api = client_for(referee)
    # Through the auction by the API (the pad is what is looked at here).
    for _ in range(10):
        detail = api.get(f"/api/v1/hands/{hand.pk}/").json()
        if detail["status"] == "playing":
            break
        legal = detail["legal_actions"]
        action = next((a for a in legal if a.get("bid") == 3 or a.get("double") is False), legal[0])
        action = next((a for a in legal if a.get("redouble") is False), action)
        assert post(api, f"/api/v1/hands/{hand.pk}/actions/", action).status_code == 200
    assert detail["status"] == "playing"
    page.reload()
    page.click("button.table-open")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "playing")
    pad = page.locator("section.controls .ranks")
    for rank, label in PAD[language].items():
        expect(pad.locator(f"button.rank[data-rank='{rank}']")).to_have_text(label)
    expect(pad.locator("button.rank")).to_have_count(15)
    assert not pad.locator("button.rank").filter(has_text=re.compile(r"^[TXD]$")).count()
    page.screenshot(path=artefacts / f"console-{language}-physical-pad.png", full_page=True)

    # A tap on 10 types T; the notation typed by hand is taken as before.
    pad.locator("button.rank[data-rank='T']").click()
    expect(page.locator("input[name=notation]")).to_have_value("T")
    page.fill("input[name=notation]", "XD")
    page.click("form.composer button.play")
    expect(page.locator("section.hand")).to_have_attribute(
        "data-version", str(detail["version"] + 1)
    )
    event = HandEvent.objects.filter(hand=hand, kind="play").get()
    assert event.payload["action"]["play"] == "XD"
    context.close()
