"""The referee console and a table's hands (issues 17 and 18), on a phone (390×844), in
English and 简体中文: a result-only entry checked on a summary with the server's scores
before it is saved, a refusal that shows the rule it names, a passed-out hand with its
confirm step, the table's earlier hands with their states, an earlier hand's log in words,
and an earlier hand confirmed by the players' PINs on the referee's phone. A screenshot of
each moment in each language."""

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from referee.rules.cards import deal_from_seed
from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import console_sign_in
from tests.browser.console.conftest import phone_context as _phone
from tests.play import random_hand_actions
from tournaments.common.player_names import display_name
from tournaments.common.seat_names import seat_name
from tournaments.hands.confirmation import PIN_TRIES, hand_confirm_by_pins, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
)
from tournaments.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-3"
TEXT = {
    "en": {
        "tables": "My tables now",
        "seat": "Seat",
        "summary": "Check the result before saving",
        "offline": "Offline: the scores will be computed on sending.",
        "finished": "Finished",
        "contradicts": "The result contradicts itself.",
        "rule_r72": (
            "Rule R7.2: a spring (春天) needs the landlord to win without either farmer "
            "playing a card"
        ),
        "impossible": "No deal of one pack can give this result.",
        "passed_out_question": "Record this hand as passed out?",
        "awaiting": "Still awaiting confirmation:",
        "pin_wrong": "A PIN is wrong (4 tries left for this hand).",
        "confirmed_players": "Confirmed by the players.",
        "pins_locked": "Too many wrong PINs for this hand: a director confirms it.",
        "pins_four_digits": "Type each player's PIN: the 4 digits on their table card.",
        "states": [
            "Confirmed by the players",
            "Awaiting confirmation",
            "Disputed",
            "Voided",
            "Irregular: the deal does not fit the log",
            "Awaiting confirmation",
            "Playing",
        ],
        "bids": "{seat} bids {n}",
        "no_bid": "{seat} does not bid",
        "override": "Director's override of the log: ",
        "override_note": (
            "Director's override of the play-by-play log — the winner was logged wrongly"
        ),
        "irregular": (
            "Irregular: the written-in deal does not fit the log, so the hand does not count"
        ),
        "result_entered": (
            "Result entered: landlord {l}, bid 2, the landlord wins, scores 0: +4 · 1: -2 · 2: -2"
        ),
        "confirmed_log": "Confirmed by the players ({a}, {b})",
        "awaits": " · awaits confirmation",
    },
    "zh": {
        "tables": "我的当前牌桌",
        "seat": "座位",
        "summary": "保存前请核对结果",
        "offline": "离线：得分将在发送时计算。",
        "finished": "已结束",
        "contradicts": "成绩自相矛盾。",
        "rule_r72": "规则 R7.2：春天须地主获胜且两名农民都未出过牌",
        "passed_out_question": "将本副牌记为流局？",
        "awaiting": "仍待确认：",
        "pin_wrong": "PIN 有误（本副牌还可尝试 4 次）。",
        "confirmed_players": "已由选手确认。",
        "pins_locked": "本副牌输错 PIN 次数过多：请由裁判长确认。",
        "pins_four_digits": "请输入每位选手的 PIN：其桌卡上的 4 位数字。",
        "states": [
            "已由选手确认",
            "待确认",
            "有争议",
            "作废",
            "异常：录入的发牌与记录不符",
            "待确认",
            "进行中",
        ],
        "bids": "{seat} 叫 {n} 分",
        "no_bid": "{seat} 不叫",
        "override": "裁判长改判（不依记录）：",
        "override_note": "裁判长改判，不依逐手记录——the winner was logged wrongly",
        "irregular": "异常：补录的发牌与记录不符，在裁判长按实际打法保留、更正或作废之前",
        "result_entered": "录入结果：地主 {l}、叫 2 分、地主胜、得分 0: +4 · 1: -2 · 2: -2",
        "confirmed_log": "已由选手确认（{a}、{b}）",
        "awaits": " · 待确认",
    },
}


@pytest.fixture(params=["en", "zh"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _referee(table: Table) -> Any:
    referee = referee_user("table-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    return referee


def _open_table(page: Page, username: str, language: str) -> None:
    console_sign_in(page, username, PASSWORD, language)
    page.click("button.table-open")
    expect(page.locator("#table-hands")).to_be_visible()


def _seat_names(table: Table, language: str) -> list[str]:
    seats = Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    code = "zh-hans" if language == "zh" else "en"
    with translation.override(code):
        return [
            f"{seat_name(s.position)} · "
            f"{display_name(s.entry.player.name, s.entry.player.chinese_name, code)}"
            for s in seats
        ]


def _fill_result(page: Page, **result: Any) -> None:
    form = page.locator("#result-form")
    form.locator("select[name=landlord]").select_option(str(result["landlord"]))
    form.locator("input[name=bid]").fill(str(result["bid"]))
    form.locator("select[name=winner]").select_option(result["winner"])
    for seat, doubled in enumerate(result.get("doubled", [False] * 3)):
        form.locator(f"input[name=doubled_{seat}]").set_checked(doubled)
    for name in ("redoubled", "spring", "anti_spring"):
        form.locator(f"input[name={name}]").set_checked(bool(result.get(name)))
    form.locator("input[name=bombs]").fill(str(result.get("bombs", 0)))
    form.locator("input[name=rockets]").fill(str(result.get("rockets", 0)))


def _start_result_only(page: Page) -> None:
    page.click("button[data-deal=none]")
    expect(page.locator("#result-form")).to_be_visible()


# R8.2, the rulebook's example: bid 3, a bomb, the rocket, anti-spring, one defender
# doubled and the landlord redoubled: that defender +96, the other +24, the landlord -120.
RULEBOOK = {
    "landlord": 1, "bid": 3, "winner": "defenders", "doubled": [True, False, False],
    "redoubled": True, "bombs": 1, "rockets": 1, "anti_spring": True,
}  # fmt: skip


def test_a_result_only_entry_is_checked_on_a_summary_with_the_servers_scores_then_saved(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    table = playing_table()
    referee = _referee(table)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _open_table(page, referee.username, language)
    _start_result_only(page)
    hand = Hand.objects.get(table=table)
    _fill_result(page, **RULEBOOK)
    page.click("#review-result")
    summary = page.locator("#result-summary")
    expect(summary).to_contain_text(TEXT[language]["summary"])
    scores = summary.locator("#summary-scores li")
    expect(scores).to_have_count(3)
    names = _seat_names(table, language)
    assert [li.get_attribute("data-score") for li in scores.all()] == ["96", "-120", "24"]
    expect(scores.nth(0)).to_contain_text(f"{names[0]}: +96")
    expect(scores.nth(1)).to_contain_text(names[1])
    expect(scores.nth(1)).to_contain_text(": -120")
    page.screenshot(path=artefacts / f"console-{language}-result-summary.png", full_page=True)
    assert HandEvent.objects.filter(hand=hand).count() == 0  # the summary wrote nothing

    # Two taps on Save before the screen changes: saved once, sent once.
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/result/") else None)
    page.evaluate(
        "() => { const b = document.querySelector('#save-result'); b.click(); b.click(); }"
    )
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    expect(page.locator("#hand-state")).to_contain_text("0: 96 · 1: -120 · 2: 24")
    expect(page.locator("#table-hands .hand-row")).to_have_count(1)
    expect(page.locator("#table-hands .hand-row").first).to_have_attribute("data-state", "finished")
    expect(page.locator("#table-hands .hand-row").first).to_contain_text(
        "0: +96 · 1: -120 · 2: +24"
    )
    page.screenshot(path=artefacts / f"console-{language}-result-saved.png", full_page=True)
    assert len(sent) == 1
    expect(page.locator("#rejected")).to_have_count(0)
    hand.refresh_from_db()
    assert (hand.status, list(hand.scores)) == ("finished", [96, -120, 24])
    assert [e.kind for e in HandEvent.objects.filter(hand=hand)] == ["result"]

    # The next hand is passed out, after its confirm step.
    _start_result_only(page)
    page.click("#passed-out")
    expect(page.locator("#passed-out-confirm")).to_contain_text(
        TEXT[language]["passed_out_question"]
    )
    page.screenshot(path=artefacts / f"console-{language}-passed-out-confirm.png", full_page=True)
    page.click("#record-passed-out")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "passed_out")
    second = Hand.objects.get(table=table, number=2)
    assert (second.status, list(second.scores)) == ("passed_out", [0, 0, 0])
    context.close()


def test_a_refused_result_shows_the_rule_it_names(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    table = playing_table()
    referee = _referee(table)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _open_table(page, referee.username, language)
    _start_result_only(page)
    hand = Hand.objects.get(table=table)
    _fill_result(page, landlord=0, bid=2, winner="defenders", spring=True)
    page.click("#review-result")
    refusal = page.locator("#result-refusal")
    expect(refusal).to_have_attribute("data-code", "invalid_result")
    expect(refusal).to_contain_text(TEXT[language]["contradicts"])
    expect(refusal.locator(".rule")).to_contain_text(TEXT[language]["rule_r72"])
    expect(page.locator("#result-summary")).to_have_count(0)
    # the form keeps what was typed
    expect(page.locator("#result-form select[name=winner]")).to_have_value("defenders")
    page.screenshot(path=artefacts / f"console-{language}-result-refused-rule.png", full_page=True)
    assert Hand.objects.get(pk=hand.pk).version == hand.version
    assert not HandEvent.objects.filter(hand=hand).exists()
    context.close()


def _no_network(route: Route) -> None:
    route.abort("internetdisconnected")


def _go_offline(context: BrowserContext, page: Page) -> None:
    """As in test_console_resilience: offline for the page, and the API cut off too."""
    context.set_offline(True)
    context.route("**/api/**", _no_network)
    page.wait_for_function(
        "fetch('/api/v1/me/', { cache: 'no-store' }).then(() => false, () => true)"
    )


def _go_online(context: BrowserContext) -> None:
    context.unroute("**/api/**", _no_network)
    context.set_offline(False)


def test_offline_the_summary_says_the_scores_come_on_sending_and_a_refusal_keeps_its_rule(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """Offline, the summary has no scores but says when they come; saved through the queue,
    the server refuses the result with a rule (impossible: six bombs in a spring), and the
    refusal on screen names that rule."""
    table = playing_table()
    referee = _referee(table)
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    _open_table(page, referee.username, "en")
    _start_result_only(page)
    hand = Hand.objects.get(table=table)
    _go_offline(context, page)
    _fill_result(page, landlord=0, bid=1, winner="landlord", spring=True, bombs=6)
    page.click("#review-result")
    expect(page.locator("#summary-offline")).to_have_text(TEXT["en"]["offline"])
    page.screenshot(path=artefacts / "console-en-result-summary-offline.png", full_page=True)
    page.click("#save-result")
    expect(page.locator("#queue")).to_contain_text("Waiting to send (1)")
    _go_online(context)
    rejected = page.locator("#rejected")
    expect(rejected).to_contain_text(TEXT["en"]["impossible"])
    expect(rejected).to_contain_text(TEXT["en"]["rule_r72"])
    expect(page.locator("#result-form select[name=landlord]")).to_have_value("0")
    expect(page.locator("#result-form input[name=bombs]")).to_have_value("6")
    page.screenshot(path=artefacts / "console-en-result-refused-in-queue.png", full_page=True)
    assert not HandEvent.objects.filter(hand=hand).exists()
    context.close()


def _pins(table: Table) -> dict[int, str]:
    return {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}


def test_an_earlier_hand_is_confirmed_by_the_players_pins_on_the_console(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    table = playing_table(requires_confirmation=True, confirmed_by="players")
    referee = _referee(table)
    earlier = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=2, winner="landlord"
    ).hand
    pins = _pins(table)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _open_table(page, referee.username, language)
    awaiting = page.locator("#awaiting-confirmation")
    expect(awaiting).to_contain_text(TEXT[language]["awaiting"])
    # the table plays on while its last hand awaits confirmation
    expect(page.locator("section.start")).to_be_visible()
    awaiting.locator(f"button[data-hand-id='{earlier.pk}']").click()
    view = page.locator("#earlier-hand")
    expect(view).to_have_attribute("data-state", "awaiting")
    form = page.locator("#pin-form")
    names = _seat_names(table, language)
    expect(form).to_contain_text(names[1])  # the landlord's PIN, then a farmer's
    page.screenshot(path=artefacts / f"console-{language}-pins-form.png", full_page=True)

    wrong = "0000" if pins[2] != "0000" else "1111"
    form.locator("input[name=pin_landlord]").fill(pins[1])
    form.locator("select[name=farmer_seat]").select_option("2")
    form.locator("input[name=pin_farmer]").fill(wrong)
    form.locator("button[type=submit]").click()
    expect(page.locator("#pin-error")).to_have_text(TEXT[language]["pin_wrong"])
    expect(page.locator("#pin-form input[name=pin_landlord]")).to_have_value("")  # not kept
    page.screenshot(path=artefacts / f"console-{language}-pins-wrong.png", full_page=True)
    assert Hand.objects.get(pk=earlier.pk).confirmation == "pending"

    form.locator("input[name=pin_landlord]").fill(pins[1])
    form.locator("select[name=farmer_seat]").select_option("2")
    form.locator("input[name=pin_farmer]").fill(pins[2])
    form.locator("button[type=submit]").click()
    confirmed = page.locator("#confirmed-by")
    expect(confirmed).to_have_attribute("data-by", "players")
    expect(confirmed).to_contain_text(TEXT[language]["confirmed_players"])
    expect(confirmed).to_contain_text(names[1])
    expect(view).to_have_attribute("data-state", "confirmed")
    expect(page.locator("#log li").last).to_have_text(
        TEXT[language]["confirmed_log"].format(a=names[1], b=names[2])
    )
    page.screenshot(path=artefacts / f"console-{language}-pins-confirmed.png", full_page=True)
    stored = Hand.objects.get(pk=earlier.pk)
    assert (stored.confirmation, stored.pin_failures, stored.counts) == ("confirmed", 1, True)
    last = HandEvent.objects.filter(hand=earlier).order_by("-seq").first()
    assert last is not None and last.payload["by"] == "players" and last.payload["seats"] == [1, 2]

    page.click("#back-to-table")
    expect(page.locator("#awaiting-confirmation")).to_have_count(0)
    expect(page.locator(f"#table-hands .hand-row[data-hand-id='{earlier.pk}']")).to_have_attribute(
        "data-state", "confirmed"
    )

    # Too many wrong PINs: even the right ones are refused, a director confirms.
    locked = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    Hand.objects.filter(pk=locked.pk).update(pin_failures=PIN_TRIES)
    page.reload()
    page.click("button.table-open")
    page.locator(f"#awaiting-confirmation button[data-hand-id='{locked.pk}']").click()
    # the hand opened (the table's own screen may show the same hand's form a moment before)
    expect(page.locator("#earlier-hand")).to_have_attribute("data-hand-id", str(locked.pk))
    form = page.locator("#pin-form")  # a passed-out hand: two players, no sides
    # a PIN left empty is said on the phone and not sent: nothing is counted
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/confirm/" in r.url else None)
    form.locator("select[name=second_seat]").select_option("2")
    form.locator("input[name=pin_second]").fill(pins[2])
    form.locator("button[type=submit]").click()
    expect(page.locator("#pin-error")).to_have_text(TEXT[language]["pins_four_digits"])
    assert sent == [] and Hand.objects.get(pk=locked.pk).pin_failures == PIN_TRIES
    form.locator("select[name=first_seat]").select_option("0")
    form.locator("input[name=pin_first]").fill(pins[0])
    form.locator("button[type=submit]").click()
    expect(page.locator("#pin-error")).to_have_text(TEXT[language]["pins_locked"])
    page.screenshot(path=artefacts / f"console-{language}-pins-locked.png", full_page=True)
    assert Hand.objects.get(pk=locked.pk).confirmation == "pending"
    context.close()


def _table_of_every_state() -> tuple[Table, dict[str, Hand]]:
    table = playing_table(requires_confirmation=True, confirmed_by="players", hands_per_round=8)
    pins = _pins(table)
    hands: dict[str, Hand] = {}
    confirmed = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    hands["confirmed"] = hand_confirm_by_pins(
        hand=confirmed, pins={0: pins[0], 2: pins[2]}, recorded_by=None
    ).hand
    hands["awaiting"] = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    disputed = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=3, winner="defenders"
    ).hand
    hands["disputed"] = hand_dispute(hand=disputed, reason="the bid was 2", recorded_by=None).hand
    voided = hand_record_result(
        hand=hand_create(table=table).hand, landlord=2, bid=1, winner="landlord"
    ).hand
    hands["voided"] = hand_void(hand=voided, reason="misdeal", recorded_by=None).hand
    deal = deal_from_seed(7)
    physical = hand_create(table=table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in random_hand_actions(deal, seed=5):
        physical = hand_action_record(hand=physical, action=action).hand
    other = deal_from_seed(8, first_bidder=deal.first_bidder)
    hands["irregular"] = hand_deal_record(hand=physical, deal=other.to_json()).hand
    logged = hand_create(table=table, seed=7).hand
    for action in random_hand_actions(deal_from_seed(7), seed=1):
        logged = hand_action_record(hand=logged, action=action).hand
    flipped = "defenders" if logged.winner == "landlord" else "landlord"
    hands["overridden"] = hand_result_correct(
        hand=logged,
        reason="the winner was logged wrongly",
        landlord=logged.landlord_seat,
        bid=logged.bid,
        winner=flipped,
        override=True,
    ).hand
    hands["playing"] = hand_create(table=table, seed=3).hand
    return table, hands


def test_the_tables_earlier_hands_with_their_states_and_a_hands_log_in_words(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path, language: str
) -> None:
    table, hands = _table_of_every_state()
    referee = _referee(table)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _open_table(page, referee.username, language)
    rows = page.locator("#table-hands .hand-row")
    expect(rows).to_have_count(7)
    assert [r.get_attribute("data-state") for r in rows.all()] == [
        "confirmed", "awaiting", "disputed", "voided", "irregular", "awaiting", "playing",
    ]  # fmt: skip
    for row, state in zip(rows.all(), TEXT[language]["states"], strict=True):
        expect(row).to_contain_text(state)
    expect(rows.nth(0)).to_contain_text("0: +4 · 1: -2 · 2: -2")
    expect(rows.nth(2)).to_contain_text("0: +3 · 1: -6 · 2: +3")
    expect(rows.nth(1)).to_contain_text("0: 0 · 1: 0 · 2: 0")
    names = _seat_names(table, language)
    pins_confirmers = Seat.objects.filter(table=table, position__in=(0, 2)).order_by("position")
    expect(rows.nth(0)).to_contain_text(", ".join(s.entry.player.name for s in pins_confirmers))
    awaiting = page.locator("#awaiting-confirmation button")
    assert [b.get_attribute("data-hand-id") for b in awaiting.all()] == [
        str(hands["awaiting"].pk),
        str(hands["overridden"].pk),
    ]
    page.screenshot(path=artefacts / f"console-{language}-earlier-hands.png", full_page=True)

    # The hand a director overrode: its log in words, every event, and the override note.
    rows.nth(5).click()
    view = page.locator("#earlier-hand")
    expect(view).to_have_attribute("data-hand-id", str(hands["overridden"].pk))
    expect(page.locator("#override")).to_contain_text(TEXT[language]["override_note"])
    events = list(HandEvent.objects.filter(hand=hands["overridden"]).order_by("seq"))
    log = page.locator("#log li")
    expect(log).to_have_count(len(events))
    for item, event in zip(log.all(), events, strict=True):
        assert item.get_attribute("data-kind") == event.kind
    first = events[0].payload["action"]
    template = TEXT[language]["no_bid" if first["bid"] == 0 else "bids"]
    expect(log.first).to_have_text(template.format(seat=names[first["seat"]], n=first["bid"]))
    expect(log.last).to_contain_text(TEXT[language]["override"])
    expect(log.last).to_contain_text("the winner was logged wrongly")
    expect(log.last).to_contain_text(TEXT[language]["awaits"])
    assert "{" not in page.locator("#log").inner_text()  # words, not JSON
    page.screenshot(path=artefacts / f"console-{language}-earlier-hand-log.png", full_page=True)

    # The irregular hand says why it does not count.
    page.click("#back-to-table")
    page.locator("#table-hands .hand-row").nth(4).click()
    expect(page.locator("#earlier-hand")).to_have_attribute("data-state", "irregular")
    expect(page.locator("#irregular")).to_contain_text(TEXT[language]["irregular"])
    expect(page.locator("#pin-form")).to_have_count(0)  # a director decides
    page.screenshot(
        path=artefacts / f"console-{language}-earlier-hand-irregular.png", full_page=True
    )

    # The confirmed hand's result entry, in words.
    page.click("#back-to-table")
    page.locator("#table-hands .hand-row").nth(0).click()
    expect(page.locator("#log li").first).to_have_text(
        TEXT[language]["result_entered"].format(l=names[0]) + TEXT[language]["awaits"]
    )
    context.close()


def test_an_earlier_hand_is_disputed_and_confirmed_by_a_second_official(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """Its recorder may not confirm it (the refusal is shown, the referee stays signed in);
    a dispute needs a reason; a second referee of the round confirms it."""
    table = playing_table(requires_confirmation=True)
    referee = _referee(table)
    second = referee_user("round-ref")
    second.set_password(PASSWORD)
    second.save()
    assign(second, table, whole_round=True)
    hand = hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=2,
        bid=1,
        winner="landlord",
        recorded_by=referee,
    ).hand
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    _open_table(page, referee.username, "en")
    page.locator(f"#awaiting-confirmation button[data-hand-id='{hand.pk}']").click()
    expect(page.locator("#earlier-hand")).to_have_attribute("data-hand-id", str(hand.pk))
    page.click("#confirm-hand button.confirm-official")
    expect(page.locator("#rejected")).to_contain_text(
        "A second person confirms a result, not the one who recorded it."
    )
    expect(page.locator("#signed-out")).to_have_count(0)
    page.click("#confirm-hand button[type=submit]")  # a dispute without a reason
    expect(page.locator("#message")).to_contain_text("Give a reason.")
    page.fill("#confirm-hand input[name=dispute_reason]", "the bid was 2")
    page.click("#confirm-hand button[type=submit]")
    expect(page.locator("#earlier-hand")).to_have_attribute("data-state", "disputed")
    expect(page.locator("#log li").last).to_have_text("Disputed — the bid was 2")
    page.screenshot(path=artefacts / "console-en-earlier-hand-disputed.png", full_page=True)
    context.close()

    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    _open_table(page, second.username, "en")
    page.locator(f"#table-hands .hand-row[data-hand-id='{hand.pk}']").click()
    expect(page.locator("#earlier-hand")).to_have_attribute("data-hand-id", str(hand.pk))
    page.click("#confirm-hand button.confirm-official")
    expect(page.locator("#confirmed-by")).to_have_text("✓ Confirmed by an official.")
    expect(page.locator("#earlier-hand")).to_have_attribute("data-state", "confirmed")
    page.click("#back-to-table")
    row = page.locator(f"#table-hands .hand-row[data-hand-id='{hand.pk}']")
    expect(row).to_contain_text("Confirmed by an official (round-ref)")
    page.screenshot(
        path=artefacts / "console-en-earlier-hand-confirmed-official.png", full_page=True
    )
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.confirmation, stored.counts) == ("confirmed", True)
    context.close()
