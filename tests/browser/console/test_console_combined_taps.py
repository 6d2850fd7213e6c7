"""One tap, several actions (issue 29, point 4), on a phone (390×844): what the referee saw
happen at the table — the seats that passed, then a play — recorded by one tap, each action
its own write with its own Idempotency-Key, in order, through the offline queue.

- "<seat> passes, then <seat> plays X": both recorded, in order, two keys; Undo takes back
  the play only (one action at a time, as the console says), in English and 简体中文.
- The trick's passes and the next lead: the second write refused (the director closed the
  round between the two): the first stays recorded, the refusal is on screen with its
  reason, the lead is held back (not sent) until the referee sends or discards it.
- Offline: the combined tap waits in the queue as two writes, survives a reload (the
  service worker's page) and is sent in order once the connection is back.

The deal is the taps script's (comp2016, seed 7: test_console_taps.py), played through the
service to the moment wanted by the script's own choices."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import console_open_table
from tests.browser.console.conftest import phone_context as _phone
from tests.browser.console.test_console_resilience import _go_offline, _go_online, _queued
from tests.browser.console.test_console_taps import _decline, _ranks, _run, _same
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, HandEvent, Round, RoundStatus, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-combined"
TEXT = {
    "en": {
        "tables": "My tables now",
        "follow": "West (西) · seat 2 passes, then East (东) · seat 0 plays:",
        "label": "West (西) · seat 2 passes, then East (东) · seat 0 plays AAA JJ",
        "one_at_a_time": "Undo takes back one at a time.",
        "undo_it": "Undo it",
    },
    "zh": {
        "tables": "我的当前牌桌",
        "follow": "西 · 2 号座 不要，然后 东 · 0 号座 出：",
        "label": "西 · 2 号座 不要，然后 东 · 0 号座 出 AAA JJ",
        "one_at_a_time": "撤销一次只撤回一条。",
        "undo_it": "确认撤销",
    },
}


@pytest.fixture(params=["en", "zh"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _setup() -> tuple[Table, Any, Hand]:
    table = playing_table(name="Combined", slug="combined", rule_profile="comp2016")
    referee = referee_user("combined-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    return table, referee, hand_create(table=table, seed=7).hand


def _advance(hand: Hand, wanted: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
    """The script's actions recorded through the service until its next run (declines and
    the action after them) is ``wanted``: that run."""
    for _ in range(100):
        run = _run(hand)
        if wanted(run):
            return run
        hand = hand_action_record(hand=Hand.objects.get(pk=hand.pk), action=run[0]).hand
    pytest.fail("the script never came to such a moment")


def _follow(run: list[dict[str, Any]]) -> bool:
    """One pass, then a seat beats the top play (the trick goes on)."""
    return (
        len(run) == 2 and run[0].get("play") == "pass" and run[1].get("play") not in (None, "pass")
    )


def _trick_end_lead(run: list[dict[str, Any]]) -> bool:
    """Two passes end the trick, then its winner leads."""
    return len(run) == 3 and all(a.get("play") == "pass" for a in run[:2])


def _open(page: Page, referee: Any, language: str) -> None:
    console_open_table(page, referee.username, PASSWORD, language)


def _ahead_button(page: Page, play: dict[str, Any], declines: int) -> Any:
    buttons = page.locator(
        f".ahead-plays button[data-declines='{declines}'][data-seat='{play['seat']}']"
    )
    expect(buttons.first).to_be_visible()
    found = [b for b in buttons.all() if _same(b.get_attribute("data-play") or "", play["play"])]
    assert len(found) == 1
    return found[0]


def _wait_version(page: Page, version: int) -> None:
    expect(page.locator("section.hand")).to_have_attribute("data-version", str(version))


def _actions(hand: Hand) -> list[HandEvent]:
    return list(HandEvent.objects.filter(hand=hand).order_by("seq"))


def test_a_pass_then_a_play_in_one_tap_two_writes_and_undo_takes_back_one(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    _table, referee, hand = _setup()
    run = _advance(hand, _follow)
    version = Hand.objects.get(pk=hand.pk).version
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _open(page, referee, language)

    section = page.locator(f"section.ahead[data-seat='{run[1]['seat']}']")
    expect(section.locator("h3")).to_have_text(TEXT[language]["follow"])
    button = _ahead_button(page, run[1], 1)
    expect(button).to_have_attribute("aria-label", TEXT[language]["label"])
    assert button.bounding_box()["height"] >= 44  # type: ignore[index]
    expect(page.locator("#lead-after p.hint")).to_contain_text(TEXT[language]["one_at_a_time"])
    page.screenshot(path=artefacts / f"console-{language}-pass-then-play.png", full_page=True)
    button.click()

    _wait_version(page, version + 2)
    expect(page.locator("#queue")).to_be_hidden()
    recorded = _actions(hand)[-2:]
    assert [e.actor_seat for e in recorded] == [run[0]["seat"], run[1]["seat"]]
    assert recorded[0].payload["action"]["play"] == "pass"
    assert _same(recorded[1].payload["action"]["play"], run[1]["play"])
    keys = [e.idempotency_key for e in recorded]
    assert all(keys) and keys[0] != keys[1]

    # Undo takes back one action: the play; the pass stays recorded.
    page.click("#undo")
    page.locator("#undo-reason").fill("played one card too many")
    page.get_by_role("button", name=TEXT[language]["undo_it"], exact=True).click()
    _wait_version(page, version + 3)
    state = _run(hand)  # the script's next run: the same play, by the same seat
    assert _decline(recorded[0].payload["action"]) and state[0]["seat"] == run[1]["seat"]
    assert _same(state[0]["play"], run[1]["play"])
    assert [e.kind for e in _actions(hand)[-3:]] == ["play", "play", "undo"]
    context.close()


def test_a_combined_tap_whose_second_write_is_refused_keeps_the_first_and_says_why(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """The trick's two passes and the winner's lead, one tap: three writes. The director
    closes the round just before the second arrives (a real refusal, round_not_playing)."""
    table, referee, hand = _setup()
    run = _advance(hand, _trick_end_lead)
    version = Hand.objects.get(pk=hand.pk).version
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    _open(page, referee, "en")

    posted: list[str] = []

    def close_before_the_second(route: Route) -> None:
        posted.append(route.request.headers.get("idempotency-key", ""))
        if len(posted) == 2:
            Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
        route.continue_()

    context.route("**/api/v1/hands/*/actions/", close_before_the_second)
    lead = page.locator(f"#lead-after[data-seat='{run[2]['seat']}'][data-declines='2']")
    expect(lead).to_be_visible()
    for rank in sorted(set(_ranks(run[2]["play"]))):
        if not lead.locator(f"button.lead-after-play[data-play='{run[2]['play']}']").count():
            lead.locator(f"#lead-after-cards button.rank[data-rank='{rank}']").click()
    lead.locator(f"button.lead-after-play[data-play='{run[2]['play']}']").click()

    rejected = page.locator("#rejected")
    expect(rejected).to_contain_text("is not being played")
    expect(rejected).to_contain_text("Pass")
    expect(page.locator("#queue")).to_contain_text("Held back")
    expect(page.locator("#queue li.queued")).to_have_count(1)
    page.screenshot(path=artefacts / "console-en-combined-refused.png", full_page=True)
    _wait_version(page, version + 1)
    recorded = _actions(hand)
    assert len(recorded) == version + 1
    assert (recorded[-1].actor_seat, recorded[-1].payload["action"]["play"]) == (
        run[0]["seat"],
        "pass",
    )
    assert len(posted) == 2 and len(set(posted)) == 2  # the lead was never sent
    held = _queued(page)
    assert len(held) == 1 and _same(held[0]["body"]["play"], run[2]["play"])

    # The referee discards the held lead: nothing more is written.
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    page.get_by_role("button", name="Discard waiting actions").click()
    expect(page.locator("#queue")).to_be_hidden()
    assert len(posted) == 2 and Hand.objects.get(pk=hand.pk).version == version + 1
    context.close()


def test_offline_a_combined_tap_waits_survives_a_reload_and_is_sent_in_order(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    _table, referee, hand = _setup()
    run = _advance(hand, _follow)
    version = Hand.objects.get(pk=hand.pk).version
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    _open(page, referee, "en")
    page.wait_for_function(
        "caches.keys().then((k) => Promise.all(k.map((n) => caches.open(n).then((c) =>"
        " c.match('/referee/'))))).then((hits) => hits.some(Boolean))"
    )
    button = _ahead_button(page, run[1], 1)

    _go_offline(context, page)
    button.click()
    expect(page.locator("#queue")).to_contain_text("Waiting to send (2)")
    queued = _queued(page)
    assert [q["body"]["seat"] for q in queued] == [run[0]["seat"], run[1]["seat"]]
    assert [q["version"] for q in queued] == [version, version + 1]
    assert len({q["key"] for q in queued}) == 2
    expect(page.locator(".ahead-plays")).to_have_count(0)  # nothing stale offered offline
    answer = page.reload()
    assert answer is not None and answer.from_service_worker
    expect(page.locator("#queue")).to_contain_text("Waiting to send (2)")
    expect(page.locator("#provisional li.provisional-item")).to_have_count(2)
    page.screenshot(path=artefacts / "console-en-combined-offline.png", full_page=True)

    _go_online(context)
    expect(page.locator("#queue")).to_be_hidden()
    _wait_version(page, version + 2)
    recorded = _actions(hand)[-2:]
    assert [e.idempotency_key for e in recorded] == [q["key"] for q in queued]
    assert recorded[0].payload["action"]["play"] == "pass"
    assert _same(recorded[1].payload["action"]["play"], run[1]["play"])
    context.close()
