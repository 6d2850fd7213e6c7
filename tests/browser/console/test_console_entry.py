"""Faster entry on the referee console (issue 18, point 3), on a phone (390×844), in English
and 简体中文: a lead entered by tapping the landlord's cards grouped by rank, a follow
entered by one tap on a legal play (with the "more" toggle past twelve), no stale legal
play offered while writes wait offline, "Round complete" instead of "Next hand" once the
round's hands are played, the players' names and the tournament's name in the reader's
language, and the web app manifest with icons that load. A screenshot of each moment.

The deal is a board written for the test: the landlord (seat 0) holds four 3s to lead
3334, and the next seat holds five trios (444 … 888) and 9, 10: thirty legal answers."""

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from referee.rules.cards import RANK_CHARS, SUITS, Card, card_order, format_cards
from tests import factories
from tests.api.helpers import assign, client_for, playing_table, post, referee_user
from tests.browser.console.conftest import PHONE, console_open_table
from tests.browser.console.conftest import phone_context as _phone
from tests.browser.console.test_console_resilience import _go_offline, _go_online
from tournaments.hands import selectors as hand_selectors
from tournaments.models import Hand, HandEvent, Player, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-entry"
PLAYERS = [("Zhang Wei", "张伟"), ("Li Na", "李娜"), ("Anna Smith", "")]
TOURNAMENT = {"en": "Chengdu Spring Open", "zh": "成都春季公开赛"}
TEXT = {
    "en": {
        "tables": "My tables now",
        "seats": [
            "East (东) · seat 0 · Zhang Wei 张伟",
            "South (南) · seat 1 · Li Na 李娜",
            "West (西) · seat 2 · Anna Smith",
        ],
        "cards_of": "Cards of East (东) · seat 0 · Zhang Wei 张伟: tap a rank to add a card",
        "legal": "Legal plays: one tap records it",
        "more": "18 more plays",
        "fewer": "Fewer plays",
        "pass": "Pass",
        "round_complete": "Round complete",
        "complete_detail": "This table has played the round's 1 hand.",
        "where": "Round {round} · Table {table}",
    },
    "zh": {
        "tables": "我的当前牌桌",
        "seats": [
            "东 · 0 号座 · 张伟 Zhang Wei",
            "南 · 1 号座 · 李娜 Li Na",
            "西 · 2 号座 · Anna Smith",
        ],
        "cards_of": "东 · 0 号座 · 张伟 Zhang Wei 的手牌：点一个点数加一张",
        "legal": "合法出牌：点一下即记录",
        "more": "另外 18 种出法",
        "fewer": "收起",
        "pass": "不要",
        "round_complete": "本轮已完成",
        "complete_detail": "本桌已打完本轮的 1 副牌。",
        "where": "轮次 {round} · 牌桌 {table}",
    },
}


def _deal() -> dict[str, Any]:
    """Seat 0: ♠3 ♥3 ♣3 ♦3 ♦4 …; seat 1: 444 555 666 777 888 (♠♥♣) ♠9 ♠10; the rest in
    order (seat 0's other 12, seat 2's 17, the kitty: ♦2 and the jokers)."""
    pack = [Card(rank, suit) for rank in range(13) for suit in SUITS] + [Card(13), Card(14)]
    seat1 = [Card(r, s) for r in range(1, 6) for s in "♠♥♣"] + [Card(6, "♠"), Card(7, "♠")]
    seat0 = [Card(0, s) for s in SUITS] + [Card(1, "♦")]
    rest = sorted((c for c in pack if c not in seat1 and c not in seat0), key=card_order)
    seat0 += rest[:12]
    return {
        "seat_cards": [format_cards(seat0), format_cards(seat1), format_cards(rest[12:29])],
        "kitty": format_cards(rest[29:]),
    }


def _setup(language: str) -> tuple[Table, Any]:
    table = playing_table(name=TOURNAMENT[language], slug=f"chengdu-{language}", hands_per_round=1)
    factories.BoardFactory(tournament=table.round.tournament, number=1, first_bidder=0, **_deal())
    for position, (name, chinese_name) in enumerate(PLAYERS):
        Player.objects.filter(
            entries__seats__table=table, entries__seats__position=position
        ).update(name=name, chinese_name=chinese_name)
    referee = referee_user("entry-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    return table, referee


def _detail(hand: Hand) -> dict[str, Any]:
    hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
    return hand_selectors.hand_detail(hand=hand, show_cards=True)


def _ranks(cards: str) -> str:
    return "".join(c for c in cards.replace("10", "T") if c in RANK_CHARS)


def _to_the_lead(table: Table, referee: Any) -> Hand:
    """Board 1 started, seat 0 bids 3, nobody doubles: the landlord (seat 0) leads."""
    api = client_for(referee)
    started = post(api, f"/api/v1/tables/{table.pk}/hands/", {"deal": "board", "board": 1})
    assert started.status_code == 201, started.json()
    hand = Hand.objects.get(pk=started.json()["id"])
    while (detail := _detail(hand))["status"] != "playing":
        legal = detail["legal_actions"]
        choice = next(
            (a for a in legal if a.get("bid") == 3 or a.get("double") is False),
            None,
        ) or next(a for a in legal if a.get("redouble") is False or a.get("bid") == 0)
        answer = post(api, f"/api/v1/hands/{hand.pk}/actions/", choice)
        assert answer.status_code == 200, answer.json()
    assert (detail["landlord"], detail["turn"]) == (0, 0)
    return hand


def _sign_in_and_open(page: Page, referee: Any, language: str) -> None:
    console_open_table(page, referee.username, PASSWORD, language)


def _wait_version(page: Page, version: int) -> None:
    expect(page.locator("section.hand")).to_have_attribute("data-version", str(version))


def _fits_the_phone(page: Page, selector: str) -> None:
    """No horizontal scroll on the 390-px screen, and every ``selector`` target ≥ 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    boxes = [b.bounding_box() for b in page.locator(selector).all() if b.is_visible()]
    assert boxes and all(b and b["height"] >= 44 and b["width"] >= 44 for b in boxes)


@pytest.fixture(params=["en", "zh"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _play_to_the_last_action(hand: Hand, referee: Any) -> dict[str, Any]:
    """Plays on through the API (each seat its longest legal play) until the next play
    would end the hand: the seat on turn can play all it holds at once."""
    api = client_for(referee)
    for _ in range(100):
        detail = _detail(hand)
        held = sorted(_ranks(detail["hands"][detail["turn"]]))
        plays = [a for a in detail["legal_actions"] if a["play"] != "pass"]
        if any(sorted(_ranks(a["play"])) == held for a in plays):
            return detail
        choice = max(plays, key=lambda a: len(a["play"])) if plays else detail["legal_actions"][0]
        answer = post(api, f"/api/v1/hands/{hand.pk}/actions/", choice)
        assert answer.status_code == 200, answer.json()
    pytest.fail("the hand did not come to its last play")


def test_a_lead_by_taps_a_follow_by_one_tap_and_the_round_complete(
    live_server: Any,
    console_browser: Browser,
    http_cookies: None,
    artefacts: Path,
    language: str,
) -> None:
    text = TEXT[language]
    table, referee = _setup(language)
    hand = _to_the_lead(table, referee)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _sign_in_and_open(page, referee, language)

    # The header: the tournament's name (not its slug), round and table; seats named as
    # the public pages name them, players in the reader's language.
    expect(page.locator("h1 .tournament-name")).to_have_text(TOURNAMENT[language])
    where = text["where"].format(round=table.round.number, table=table.number)
    expect(page.locator("h1 .table-where")).to_have_text(where)
    options = page.locator("select[name=seat] option")
    assert options.all_inner_texts() == text["seats"]
    page.screenshot(path=artefacts / f"console-{language}-names.png")

    # The lead: the landlord's cards grouped by rank, entered by taps.
    expect(page.locator(".held-title")).to_have_text(text["cards_of"])
    groups = page.locator("#held-cards button.rank")
    assert [
        (b.get_attribute("data-rank"), b.get_attribute("data-count")) for b in groups.all()
    ] == [
        ("3", "4"), ("4", "1"), ("5", "1"), ("6", "1"), ("7", "1"), ("8", "1"),
        ("9", "3"), ("T", "3"), ("J", "2"), ("2", "1"), ("X", "1"), ("D", "1"),
    ]  # fmt: skip
    expect(page.locator("#legal-plays")).to_have_count(0)  # a lead: no list of plays
    three = page.locator("#held-cards button.rank[data-rank='3']")
    for _ in range(3):
        three.click()
    page.click("#held-cards button.rank[data-rank='4']")
    expect(page.locator("input[name=notation]")).to_have_value("3334")
    expect(three).to_have_attribute("data-chosen", "3")
    expect(three.locator(".rank-count")).to_have_text("3/4")
    expect(page.locator("#held-cards button.rank[data-rank='4']")).to_be_disabled()
    expect(page.locator("#held-cards .joker-big")).to_have_text(
        "大王" if language == "zh" else "Big joker"
    )
    _fits_the_phone(page, "#held-cards button.rank")
    page.screenshot(path=artefacts / f"console-{language}-lead-grouped.png", full_page=True)
    version = _detail(hand)["version"]
    page.click("button.play")
    _wait_version(page, version + 1)
    lead = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert lead is not None and _ranks(lead.payload["action"]["play"]) == "3334"

    # The follow: thirty legal answers, the smallest first, twelve shown, one tap records.
    legal = page.locator("#legal-plays button.legal-play")
    expect(page.locator("section.legal h3")).to_have_text(text["legal"])
    expect(legal.first).to_have_text(text["pass"])
    visible = [b for b in legal.all() if b.is_visible()]
    assert len(legal.all()) == 31 and len(visible) == 13
    assert [b.inner_text() for b in visible[1:4]] == ["444 5", "444 6", "444 7"]
    more = page.locator("button.more-plays")
    expect(more).to_have_text(text["more"])
    _fits_the_phone(page, "#legal-plays button")
    page.screenshot(path=artefacts / f"console-{language}-follow-legal.png", full_page=True)
    more.click()
    assert len([b for b in legal.all() if b.is_visible()]) == 31
    expect(more).to_have_text(text["fewer"])
    expect(legal.last).to_have_text("888 10")
    _fits_the_phone(page, "#legal-plays button")
    page.screenshot(path=artefacts / f"console-{language}-follow-more.png", full_page=True)
    more.click()
    first = visible[1].get_attribute("data-play")
    assert first == "♠4 ♥4 ♣4 ♠5"
    visible[1].click()
    _wait_version(page, version + 2)
    follow = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert follow is not None and follow.actor_seat == 1
    assert follow.payload["action"]["play"] == first
    assert HandEvent.objects.filter(hand=hand, idempotency_key=follow.idempotency_key).count() == 1
    expect(page.locator("#queue")).to_be_hidden()

    # The last hand of the round: its last play from the console, then no "Next hand".
    last = _play_to_the_last_action(hand, referee)
    page.reload()
    page.click("button.table-open")
    _wait_version(page, last["version"])
    expect(page.locator("#round-complete")).to_have_count(0)
    held = sorted(_ranks(last["hands"][last["turn"]]))
    final = next(a for a in last["legal_actions"] if sorted(_ranks(a.get("play", ""))) == held)
    if page.locator("#legal-plays").count():
        page.locator(f"#legal-plays button.legal-play[data-play='{final['play']}']").click()
    else:
        for rank in _ranks(final["play"]):
            page.click(f"#held-cards button.rank[data-rank='{rank}']")
        page.click("button.play")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    expect(page.locator("#round-complete h2")).to_have_text(text["round_complete"])
    expect(page.locator("#round-complete")).to_contain_text(text["complete_detail"])
    expect(page.locator("button[data-deal]")).to_have_count(0)
    page.screenshot(path=artefacts / f"console-{language}-round-complete.png", full_page=True)
    context.close()


def test_offline_the_legal_plays_give_way_to_the_rank_buttons(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """While a write waits, the API's legal plays are out of date: none is offered; the
    rank buttons come from the cards the next seat would still hold."""
    table, referee = _setup("en")
    hand = _to_the_lead(table, referee)
    answer = post(
        client_for(referee), f"/api/v1/hands/{hand.pk}/actions/", {"seat": 0, "play": "3334"}
    )
    assert answer.status_code == 200
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    _sign_in_and_open(page, referee, "en")
    expect(page.locator("#legal-plays")).to_be_visible()

    _go_offline(context, page)
    page.locator("#legal-plays button.legal-play[data-play=pass]").click()
    expect(page.locator("#queue")).to_contain_text("Waiting to send (1)")
    expect(page.locator("#legal-plays")).to_have_count(0)
    expect(page.locator("#held-cards")).to_have_count(0)
    ranks = page.locator(".controls .ranks button.rank")
    seat2 = sorted(set(_ranks(_detail(hand)["hands"][2])))
    assert sorted(b.get_attribute("data-rank") or "" for b in ranks.all()) == seat2
    expect(page.locator("select[name=seat]")).to_have_value("2")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(1)
    page.screenshot(path=artefacts / "console-en-offline-no-legal-plays.png", full_page=True)

    _go_online(context)
    expect(page.locator("#queue")).to_be_hidden()
    expect(page.locator("#legal-plays")).to_be_visible()
    passes = HandEvent.objects.filter(hand=hand, kind="play", actor_seat=1)
    assert [e.payload["action"]["play"] for e in passes] == ["pass"]
    context.close()


def test_the_manifest_is_valid_json_and_its_icons_load(
    live_server: Any, console_browser: Browser, http_cookies: None
) -> None:
    context = _phone(console_browser, live_server, "zh")
    page = context.new_page()
    page.goto("/referee/login/")
    result = page.evaluate(
        """async () => {
          const link = document.querySelector('link[rel=manifest]');
          const response = await fetch(link.href);
          const manifest = JSON.parse(await response.text());
          const load = (src) => new Promise((resolve) => {
            const image = new Image();
            image.onload = () => resolve([image.naturalWidth, image.naturalHeight]);
            image.onerror = () => resolve(null);
            image.src = src;
          });
          const icons = [];
          for (const icon of manifest.icons) icons.push([icon.sizes, await load(icon.src)]);
          const favicon = await load(document.querySelector('link[rel=icon]').href);
          return { type: response.headers.get('Content-Type'), manifest, icons, favicon };
        }"""
    )
    assert result["type"] == "application/manifest+json"
    manifest = result["manifest"]
    assert (manifest["name"], manifest["short_name"]) == ("斗地主裁判控制台", "裁判")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/referee/",
        "/referee/",
        "standalone",
    )
    assert result["icons"][:3] == [
        ["192x192", [192, 192]],
        ["512x512", [512, 512]],
        ["512x512", [512, 512]],
    ]
    assert result["icons"][3][0] == "any" and result["icons"][3][1] is not None
    assert result["favicon"] is not None
    json.dumps(manifest)  # plain JSON all through
    context.close()


COMPLETIONS = {
    "en": (
        "Plays with the cards tapped: one tap records it",
        "Everyone passes (2): ",
        "The seat's longest plays: one tap records it",
    ),
    "zh": (
        "含所点牌的出法：点一下即记录",
        "其余都不要（2 家）：",
        "该座位最长的出法：点一下即记录",
    ),
}


def test_a_lead_completed_from_two_taps_and_the_trick_passed_in_one(
    live_server: Any,
    console_browser: Browser,
    http_cookies: None,
    artefacts: Path,
    language: str,
) -> None:
    """Issue 29: the landlord's trio of 9s with the 4 as kicker: 9 then 4 tapped, and the
    play is offered among the plays holding those cards (one more tap records it); the two
    farmers' passes that end the trick are one tap."""
    title, all_pass, longest = COMPLETIONS[language]
    table, referee = _setup(language)
    hand = _to_the_lead(table, referee)
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    _sign_in_and_open(page, referee, language)

    # Nothing tapped, not the whole hand: the landlord's longest plays (a plane and its wings).
    completions = page.locator("#completions button.completion")
    expect(page.locator("h3.completions-title")).to_have_text(longest)
    plays = [b.get_attribute("data-play") or "" for b in completions.all()]
    lengths = {len(_ranks(a["play"])) for a in _detail(hand)["legal_actions"]}
    assert plays and all(len(_ranks(p)) == max(lengths) for p in plays)
    page.click("#held-cards button.rank[data-rank='9']")
    expect(page.locator("h3.completions-title")).to_have_text(title)
    assert [b.inner_text() for b in completions.all()[:3]] == ["9", "99", "999"]
    page.click("#held-cards button.rank[data-rank='4']")
    expect(completions.first).to_have_text("999 4")
    assert all(
        _ranks(b.get_attribute("data-play") or "").count("9") >= 1 for b in completions.all()
    )
    _fits_the_phone(page, "#completions button")
    page.screenshot(path=artefacts / f"console-{language}-lead-completions.png", full_page=True)
    version = _detail(hand)["version"]
    completions.first.click()
    _wait_version(page, version + 1)
    lead = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert lead is not None and sorted(_ranks(lead.payload["action"]["play"])) == sorted("9994")

    button = page.locator("#all-pass")
    expect(button).to_contain_text(all_pass)
    page.screenshot(path=artefacts / f"console-{language}-all-pass.png", full_page=True)
    button.click()
    _wait_version(page, version + 3)
    passes = HandEvent.objects.filter(hand=hand).order_by("-seq")[:2]
    assert [(e.actor_seat, e.payload["action"]["play"]) for e in passes] == [
        (2, "pass"),
        (1, "pass"),
    ]
    assert _detail(hand)["turn"] == 0 and _detail(hand)["top_play"] is None
    context.close()
