"""Nothing recorded silently wrong on the console (issue 29, point 2), on a phone, in English
and 简体中文: at a physical-cards ``laizi`` table (the cards unknown, 7 wild) cards holding a
wild card and entered with the declaration box empty are not recorded as the rules would
read them: the server lists their readings (``wild_reading_required``) and the console
offers them, the natural one included, each recorded as chosen; following, the console says
the cards are unknown instead of "Nothing beats it: pass"; the passes that end a trick are
one tap. A screenshot of each moment (BROWSER_ARTEFACTS)."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import phone_context as _phone
from tournaments.hands.write import hand_create
from tournaments.models import Hand, HandEvent

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-wild"
TEXT = {
    "en": {
        "tables": "My tables now",
        "choose": "555 7: which play do the wild cards make?",
        "unknown": "Cards unknown: tap the play or pass",
        "hint": "As: KK7 → KKK",
        "all_pass": "Everyone passes (2): ",
        "themselves": "555 7 · each card its own rank",
    },
    "zh": {
        "tables": "我的当前牌桌",
        "choose": "555 7：癞子当作什么牌？",
        "unknown": "手牌未知：点出所出的牌，或点不要",
        "hint": "当作：KK7 → KKK",
        "all_pass": "其余都不要（2 家）：",
        "themselves": "555 7 · 每张牌按本身点数",
    },
}


@pytest.fixture(params=["en", "zh"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _version(page: Page, version: int) -> None:
    expect(page.locator("section.hand")).to_have_attribute(
        "data-version", str(version), timeout=20_000
    )


def _tap(page: Page, cards: str) -> None:
    for rank in cards:
        page.click(f".ranks button.rank[data-rank='{rank}']")
    expect(page.locator("input[name=notation]")).to_have_value(cards)


def test_wild_cards_without_a_declaration_are_asked_about_never_read_silently(
    live_server: Any,
    console_browser: Browser,
    http_cookies: None,
    artefacts: Path,
    language: str,
) -> None:
    text = TEXT[language]
    table = playing_table(name="Wild-card club", slug=f"wild-{language}", rule_profile="laizi")
    referee = referee_user("wild-entry-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    page.goto("/referee/login/")
    page.fill("input[name=username]", referee.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#app h1")).to_have_text(text["tables"])
    page.click("button.table-open")

    # Seat 0 bids 3, nobody doubles, 7 is drawn wild.
    page.click("button.action[data-action=bid][data-value='3']")
    _version(page, 1)
    for version in (2, 3):
        page.click("button.action[data-action=double][data-value='false']")
        _version(page, version)
    page.click("#wild-entry button[data-wild='7']")
    _version(page, 4)

    # 5557, the declaration box empty: asked, not recorded as a trio with a single.
    declared = page.locator("input[name=declared]")
    expect(declared).to_have_attribute("placeholder", text["hint"])
    _tap(page, "5557")
    page.click("form.composer button.play")
    readings = page.locator("#readings button.reading")
    expect(page.locator("#readings h3")).to_have_text(text["choose"])
    expect(readings).to_have_count(2)
    assert [b.get_attribute("data-as") for b in readings.all()] == ["", "5555"]
    if text["themselves"]:
        expect(readings.first).to_have_text(text["themselves"])
    expect(page.locator("#readings button.reading[data-as='5555']")).to_have_text("555 7 → 5555")
    assert not HandEvent.objects.filter(hand=hand, kind="play").exists()
    page.screenshot(path=artefacts / f"console-{language}-wild-readings.png", full_page=True)
    page.click("#readings button.reading[data-as='5555']")
    _version(page, 5)
    bomb = HandEvent.objects.filter(hand=hand, kind="play").get()
    assert bomb.payload["action"] == {"seat": 0, "play": "5557", "as": "5555"}

    # Following with the cards unknown: no "Nothing beats it: pass"; the trick's passes in
    # one tap.
    expect(page.locator("#cards-unknown")).to_have_text(text["unknown"])
    expect(page.locator("#legal-plays")).to_have_count(0)
    expect(page.locator("button.pass")).to_be_visible()
    all_pass = page.locator("#all-pass")
    expect(all_pass).to_have_attribute("data-passes", "2")
    expect(all_pass).to_contain_text(text["all_pass"])
    page.screenshot(path=artefacts / f"console-{language}-cards-unknown.png", full_page=True)
    all_pass.click()
    _version(page, 7)
    passes = HandEvent.objects.filter(hand=hand, kind="play").order_by("seq")[1:]
    assert [(e.actor_seat, e.payload["action"]["play"]) for e in passes] == [
        (1, "pass"),
        (2, "pass"),
    ]
    expect(page.locator("#cards-unknown")).to_have_count(0)  # seat 0 leads again

    # KK7: its only reading is KKK; 8887 read as the cards themselves, said so.
    _tap(page, "KK7")
    page.click("form.composer button.play")
    expect(page.locator("#readings button.reading")).to_have_count(1)
    page.click("#readings button.reading[data-as='KKK']")
    _version(page, 8)
    page.locator("#all-pass").click()
    _version(page, 10)
    _tap(page, "8887")
    page.click("form.composer button.play")
    expect(page.locator("#readings button.reading")).to_have_count(2)
    page.click("#readings button.reading[data-as='']")
    _version(page, 11)
    plays = [
        e.payload["action"]
        for e in HandEvent.objects.filter(hand=hand, kind="play").order_by("seq")
        if e.payload["action"]["play"] != "pass"
    ]
    assert plays[1:] == [
        {"seat": 0, "play": "KK7", "as": "KKK"},
        {"seat": 0, "play": "8887", "as": "8887"},
    ]
    assert Hand.objects.get(pk=hand.pk).bombs == 1  # the soft bomb only
    context.close()


def test_a_reading_tapped_while_the_refusal_is_still_handled_is_recorded(
    live_server: Any, console_browser: Browser, http_cookies: None
) -> None:
    """The readings are offered with the refusal, while the console still reads the table's
    hands after it (held here): the reading tapped then waits in the queue, nothing recorded,
    and is sent once that read is answered, without another tap or wake (the sender goes
    round once more), recorded once."""
    table = playing_table(name="Wild-card club", slug="wild-busy", rule_profile="laizi")
    referee = referee_user("wild-busy-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    page.goto("/referee/login/")
    page.fill("input[name=username]", referee.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#app h1")).to_have_text(TEXT["en"]["tables"])
    page.click("button.table-open")
    page.click("button.action[data-action=bid][data-value='3']")
    _version(page, 1)
    for version in (2, 3):
        page.click("button.action[data-action=double][data-value='false']")
        _version(page, version)
    page.click("#wild-entry button[data-wild='7']")
    _version(page, 4)

    held: list[Route] = []

    def hold_the_table_read(route: Route) -> None:
        if route.request.method == "GET" and not held:
            held.append(route)  # answered below, once the reading is tapped
        else:
            route.continue_()

    context.route(f"**/api/v1/tables/{table.pk}/", hold_the_table_read)
    _tap(page, "5557")
    page.click("form.composer button.play")
    page.click("#readings button.reading[data-as='5555']")
    expect(page.locator("#queue li.queued")).to_have_count(1)
    page.wait_for_timeout(500)  # time for a wrong send to happen: none may
    assert not HandEvent.objects.filter(hand=hand, kind="play").exists()
    assert len(held) == 1
    held[0].continue_()
    _version(page, 5)
    expect(page.locator("#queue li.queued")).to_have_count(0)
    bomb = HandEvent.objects.filter(hand=hand, kind="play").get()
    assert bomb.payload["action"] == {"seat": 0, "play": "5557", "as": "5555"}
    context.close()
