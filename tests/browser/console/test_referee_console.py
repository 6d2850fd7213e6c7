"""The referee console in a real browser (phone size): a complete hand with a rejected
play and an undo, scored as the API scores it; and the offline queue."""

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from referee.rules.cards import RANK_CHARS
from tests import factories
from tests.api.helpers import assign, client_for, playing_table, post, referee_user
from tests.browser.conftest import patient
from tests.browser.console.conftest import PHONE
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.replay import hand_replay
from tournaments.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-1"


def _setup() -> tuple[Table, Any]:
    table = playing_table()
    factories.BoardFactory(tournament=table.round.tournament, number=1, seed=4242)
    referee = referee_user("table-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    return table, referee


def _sign_in(page: Page, url: str, username: str) -> None:
    page.goto(url + "/referee/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#app h1")).to_have_text("My tables now")


def _start_board_hand(page: Page) -> Hand:
    page.click("button.table-open")
    page.fill("input[name=board]", "1")
    page.click("button[data-deal=board]")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "bidding")
    return Hand.objects.get()


def _detail(hand: Hand) -> dict[str, Any]:
    hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
    return hand_selectors.hand_detail(hand=hand, show_cards=True, audit=True)


def _wait_version(page: Page, version: int) -> None:
    expect(page.locator("section.hand")).to_have_attribute("data-version", str(version))


def _ranks(cards: str) -> str:
    """Rank notation of cards written with suits (what the rank buttons type)."""
    return "".join(c for c in cards.replace("10", "T") if c in RANK_CHARS)


def _click_action(page: Page, action: dict[str, Any]) -> None:
    page.select_option("select[name=seat]", str(action["seat"]))
    if "bid" in action:
        name = "No bid" if action["bid"] == 0 else f"Bid {action['bid']}"
    elif "double" in action:
        name = "Double" if action["double"] else "No double"
    elif "redouble" in action:
        name = "Redouble" if action["redouble"] else "No redouble"
    elif action["play"] == "pass":
        name = "Pass"
    else:
        ranks = _ranks(action["play"])
        for rank in ranks:
            # the seat's own pad (not the next leader's, #lead-after-cards)
            page.click(f"button.rank[data-rank='{rank}']:not(#lead-after-cards *)")
        expect(page.locator("input[name=notation]")).to_have_value(ranks)
        page.click("button.play")
        return
    page.get_by_role("button", name=name, exact=True).click()


def _choose(detail: dict[str, Any]) -> dict[str, Any]:
    """A quick way through the hand: bid 3, never double, play the longest legal play."""
    legal = detail["legal_actions"]
    if detail["status"] == "bidding":
        return max(legal, key=lambda a: a["bid"])
    if detail["status"] == "doubling":
        return next(a for a in legal if a.get("double") is False or a.get("redouble") is False)
    plays = [a for a in legal if a["play"] != "pass"]
    if not plays:
        return legal[0]
    return max(plays, key=lambda a: (len(a["play"]), a["play"]))


def _not_beating(detail: dict[str, Any]) -> str | None:
    """Cards the seat on turn holds that are not a legal play now (a does-not-beat)."""
    held = _ranks(detail["hands"][detail["turn"]])
    legal = {_ranks(a["play"]) for a in detail["legal_actions"]}
    for text in [c for c in held] + [c + c for c in held]:
        if text not in legal and held.count(text[0]) >= len(text):
            return text
    return None


def test_referee_plays_a_complete_hand_with_a_rejected_play_and_an_undo(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    table, referee = _setup()
    context = patient(console_browser.new_context(viewport=PHONE, locale="en-GB"))
    page = context.new_page()
    _sign_in(page, live_server.url, referee.username)
    page.screenshot(path=artefacts / "console-en-tables.png", full_page=True)
    hand = _start_board_hand(page)

    rejected_shown = undone = False
    for _ in range(200):
        detail = _detail(hand)
        if detail["status"] not in ("bidding", "doubling", "playing"):
            break
        version = detail["version"]
        if detail["status"] == "playing" and detail["top_play"] and not rejected_shown:
            wrong = _not_beating(detail)
            assert wrong is not None
            api_answer = post(
                client_for(referee),
                f"/api/v1/hands/{hand.pk}/actions/",
                {"seat": detail["turn"], "play": wrong},
            )
            assert api_answer.status_code == 422
            page.fill("input[name=notation]", wrong)
            page.click("button.play")
            expect(page.locator("#message")).to_contain_text(api_answer.json()["message"])
            expect(page.locator("#rejected")).to_contain_text(api_answer.json()["message"])
            expect(page.locator("input[name=notation]")).to_have_value(wrong)  # left on screen
            page.screenshot(path=artefacts / "console-en-rejected.png", full_page=True)
            assert _detail(hand)["version"] == version  # nothing recorded
            page.click("text=Clear")
            rejected_shown = True
            continue
        _click_action(page, _choose(detail))
        _wait_version(page, version + 1)
        if detail["status"] == "playing" and not undone:
            page.get_by_role("button", name="Undo last action").click()
            # The reason is asked for right there; Undo it waits for one.
            expect(page.locator("#undo-reason")).to_be_focused()
            expect(page.locator("#undo-confirm")).to_be_disabled()
            page.fill("#undo-reason", "entered the wrong seat's cards")
            page.get_by_role("button", name="Undo it").click()
            _wait_version(page, version + 2)
            assert _detail(hand)["events"][-1]["kind"] == "undo"
            undone = True
    else:
        pytest.fail("the hand did not finish")
    assert rejected_shown and undone
    hand.refresh_from_db()
    detail = _detail(hand)
    assert detail["status"] == "finished" and detail["scores"] is not None
    expect(page.locator("#hand-state")).to_contain_text(
        " · ".join(f"{s}: {n}" for s, n in enumerate(detail["scores"]))
    )
    page.screenshot(path=artefacts / "console-en-finished.png", full_page=True)

    # The same hand entered through the API at another table of the round scores the same.
    other = factories.TableFactory(round=table.round)
    for position in (0, 1, 2):
        factories.SeatFactory(table=other, position=position)
    director = factories.UserFactory(username="api-director", is_staff=True)
    api = client_for(director)
    started = post(api, f"/api/v1/tables/{other.pk}/hands/", {"deal": "board", "board": 1})
    assert started.status_code == 201, started.json()
    events = list(HandEvent.objects.filter(hand=hand).order_by("seq"))
    actions = hand_replay(hand=hand, events=events).state.to_events()
    for action in actions:
        answer = post(api, f"/api/v1/hands/{started.json()['id']}/actions/", action)
        assert answer.status_code == 200, answer.json()
    assert answer.json()["scores"] == detail["scores"]
    assert sum(detail["scores"]) == 0

    # The same screen in 简体中文.
    context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live_server.url}])
    page.reload()
    expect(page.locator("#app h1")).to_have_text("我的当前牌桌")
    page.screenshot(path=artefacts / "console-zh-tables.png", full_page=True)
    page.click("button.table-open")
    expect(page.locator("section.hand")).to_be_visible()
    page.screenshot(path=artefacts / "console-zh-finished.png", full_page=True)
    context.close()


def test_offline_actions_are_queued_and_each_recorded_once_back_online(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    table, referee = _setup()
    context = patient(console_browser.new_context(viewport=PHONE, locale="en-GB"))
    page = context.new_page()
    _sign_in(page, live_server.url, referee.username)
    hand = _start_board_hand(page)

    context.set_offline(True)
    for bid in (1, 2, 3):
        page.get_by_role("button", name=f"Bid {bid}", exact=True).click()
        expect(page.locator("#queue")).to_contain_text(f"Waiting to send ({bid})")
    expect(page.locator("#queue")).to_contain_text("Offline")
    expect(page.locator("#message")).to_have_class("message waiting")  # not a rejection
    queued = json.loads(page.evaluate("localStorage.getItem('referee-console-queue-v1')"))
    assert len({item["key"] for item in queued}) == 3
    assert HandEvent.objects.filter(hand=hand).exclude(kind="deal").count() == 0
    page.screenshot(path=artefacts / "console-en-offline-queue.png", full_page=True)

    context.set_offline(False)
    expect(page.locator("#queue")).to_be_hidden()
    bids = list(HandEvent.objects.filter(hand=hand, kind="bid").order_by("seq"))
    assert [e.payload["action"]["bid"] for e in bids] == [1, 2, 3]
    assert sorted(e.idempotency_key for e in bids) == sorted(i["key"] for i in queued)
    first_bidder = bids[0].actor_seat
    assert [e.actor_seat for e in bids] == [(first_bidder + k) % 3 for k in range(3)]

    # A resend of a queued action (its answer lost on the way) is not recorded again.
    again = page.evaluate(
        """async (item) => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const r = await fetch(item.url, {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf,
                        'Idempotency-Key': item.key}, body: JSON.stringify(item.body)});
            return r.status;
        }""",
        queued[0],
    )
    assert again == 200
    assert HandEvent.objects.filter(hand=hand, kind="bid").count() == 3
    assert Seat.objects.filter(table=table).count() == 3
    context.close()
