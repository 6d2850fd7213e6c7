"""The referee console at a Big Three table (大三 / 挖坑, issue 31), on a phone (390×844): a
hand entered play by play, from the first bidder's compulsory bid to the last card, on the
seat's own cards in Big Three's order (4 … A 2 3, no joker), with the console's one-tap
"passes, then bids" and "passes, then plays"; a physical-cards hand's pad of thirteen ranks;
and a hand entered by its result, which asks only what Big Three scores (the digger, the
bid, the winner). Each action is one the API lists as legal, entered as a referee would."""

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, expect

from referee.rules.big3_combos import RANKS_LOW_TO_HIGH
from referee.rules.cards import RANK_CHARS
from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import console_open_table, console_sign_in
from tests.browser.console.conftest import phone_context as _phone
from tournaments.common.seat_names import seat_name
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.write import hand_create
from tournaments.models import Hand, HandEvent, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-big3"
SEED = 31
LIVE = ("bidding", "doubling", "playing")
#: Big Three's ranks low to high, in rank notation (R12.2).
BIG3_ORDER = "".join(RANK_CHARS[r] for r in RANKS_LOW_TO_HIGH)


def _referee(table: Table) -> Any:
    referee = referee_user("big3-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    return referee


def _table(profile: str = "big3") -> tuple[Table, Any]:
    table = playing_table(name=f"Big Three {profile}", slug=f"{profile}-open", rule_profile=profile)
    return table, _referee(table)


def _detail(hand: Hand) -> dict[str, Any]:
    hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
    return hand_selectors.hand_detail(hand=hand, show_cards=True)


def _ranks(cards: str) -> str:
    return "".join(c for c in cards.replace("10", "T") if c in RANK_CHARS)


def _state(page: Page) -> dict[str, str]:
    """The hand's state list (dt → dd) as the console shows it."""
    terms = page.locator("#hand-state dt").all_inner_texts()
    return dict(zip(terms, page.locator("#hand-state dd").all_inner_texts(), strict=True))


def _version(page: Page, version: int) -> None:
    expect(page.locator("section.hand")).to_have_attribute("data-version", str(version))


def _choose(detail: dict[str, Any]) -> dict[str, Any]:
    """The referee's next action in play: the longest legal play (a lead is never a pass),
    else pass."""
    legal = detail["legal_actions"]
    plays = [a for a in legal if a["play"] != "pass"]
    if not plays:
        return next(a for a in legal if a["play"] == "pass")
    return max(plays, key=lambda a: (len(_ranks(a["play"])), a["play"]))


def _shown_ranks(page: Page, where: str) -> str:
    return "".join(b.get_attribute("data-rank") or "" for b in page.locator(where).all())


def test_a_big3_hand_entered_play_by_play(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    table, referee = _table("big3")
    hand = hand_create(table=table, seed=SEED).hand
    context: BrowserContext = _phone(console_browser, live_server, "en")
    page = context.new_page()
    console_open_table(page, referee.username, PASSWORD)

    detail = _detail(hand)
    first = detail["deal"]["first_bidder"]
    assert detail["turn"] == first and detail["status"] == "bidding"
    # The game's own words: the digger (挖坑者), and no hole shown while the hand is live.
    state = _state(page)
    assert state["Digger (挖坑者)"] == "—" and "Landlord (地主)" not in state
    assert "Hole (坑)" not in state and "Kitty (底牌)" not in state
    assert _state(page)["Cards left"] == "0: 16 · 1: 16 · 2: 16"

    # The compulsory opening (R12.5.1): the first bidder has no "No bid".
    bids = page.locator("section.controls button.action[data-action=bid]")
    expect(bids).to_have_count(3)
    assert [b.get_attribute("data-value") for b in bids.all()] == ["1", "2", "3"]
    page.click("button.action[data-action=bid][data-value='1']")
    _version(page, detail["version"] + 1)

    # One tap: the next seat does not bid, then the third bids 2 (two writes, in turn).
    detail = _detail(hand)
    second, third = (first + 1) % 3, (first + 2) % 3
    ahead = page.locator(f"button.ahead-bid[data-seat='{third}'][data-value='2']")
    expect(ahead).to_have_attribute("data-declines", "1")
    ahead.click()
    _version(page, detail["version"] + 2)
    bids_made = [
        e.payload["action"] for e in HandEvent.objects.filter(hand=hand, kind="bid").order_by("seq")
    ]
    assert bids_made == [
        {"seat": first, "bid": 1},
        {"seat": second, "bid": 0},
        {"seat": third, "bid": 2},
    ]
    # The first bidder passed nothing yet: it may bid again (re-entry), or pass; then the
    # auction ends after two passes and the third seat digs at 2.
    for _ in range(2):
        detail = _detail(hand)
        page.click("section.controls button.action[data-action=bid][data-value='0']")
        _version(page, detail["version"] + 1)
    detail = _detail(hand)
    assert (detail["status"], detail["landlord"], detail["bid"]) == ("playing", third, 2)
    # No doubling step; the first bidder leads, not the digger (R12.7.1).
    assert detail["turn"] == first
    state = _state(page)
    with translation.override("en"):
        assert state["Digger (挖坑者)"].startswith(seat_name(third))
    assert state["Bid"] == "2" and state["Cards left"].split(" · ")[third] == f"{third}: 20"
    assert page.locator("button.action[data-action=double]").count() == 0
    page.screenshot(path=artefacts / "console-big3-playing.png", full_page=True)

    # The seat's cards in Big Three's order, no joker.
    held = _shown_ranks(page, "#held-cards button.rank")
    assert held == "".join(r for r in BIG3_ORDER if r in held)
    assert "X" not in held and "D" not in held
    assert page.locator("#held-cards button.joker").count() == 0

    combined = led_after = 0
    entered = 0
    while detail["status"] in LIVE:
        assert detail["status"] == "playing"
        assert page.locator("#announce, .announce").count() == 0  # no 报牌 in Big Three
        action = _choose(detail)
        ahead_plays = page.locator("section.ahead button.ahead-play")
        lead_after = page.locator("#lead-after-plays button.lead-after-play")
        following = detail["top_play"] is not None
        if following and not led_after and lead_after.count():
            # The trick's passes, then the next leader's lead (R12.7.3): one tap, each its
            # own write, the leads offered the leader's own.
            button = lead_after.first
            declines = int(button.get_attribute("data-declines") or 0)
            leader = int(button.get_attribute("data-seat") or -1)
            assert declines == 2 and leader == detail["top_play"]["seat"]
            button.click()
            _version(page, detail["version"] + declines + 1)
            led_after += 1
        elif following and (action["play"] == "pass" or not combined) and ahead_plays.count():
            # What the referee saw: this seat passes, then the next plays (one tap).
            button = ahead_plays.first
            seat, play = (
                int(button.get_attribute("data-seat") or -1),
                button.get_attribute("data-play"),
            )
            assert {"seat": seat, "play": play} in [
                a for e in detail["ahead"] for a in e["legal_actions"] if e["turn"] == seat
            ]
            button.click()
            _version(page, detail["version"] + 2)
            combined += 1
        elif action["play"] == "pass":
            page.locator("button.pass").first.click()
            _version(page, detail["version"] + 1)
        else:
            for rank in _ranks(action["play"]):
                page.click(f"#held-cards button.rank[data-rank='{rank}']")
            expect(page.locator("input[name=notation]")).to_have_value(_ranks(action["play"]))
            page.click("form.composer button.play")
            _version(page, detail["version"] + 1)
        entered += 1
        detail = _detail(hand)
        assert entered < 200, "the hand did not end"

    assert detail["status"] == "finished"
    digger, bid = detail["landlord"], detail["bid"]
    won = 1 if detail["winner"] == "landlord" else -1
    scores = detail["scores"]
    assert scores[digger] == 2 * bid * won and sum(scores) == 0  # R12.11
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    assert _state(page)["Scores"] == " · ".join(f"{s}: {n}" for s, n in enumerate(scores))
    assert combined >= 1  # "<seat> passes, then <seat> plays": one tap, two writes
    assert led_after == 1  # "everyone passes, then <seat> leads": one tap, three writes
    events = HandEvent.objects.filter(hand=hand).count()
    expect(page.locator("#log li")).to_have_count(events)
    page.screenshot(path=artefacts / "console-big3-finished.png", full_page=True)
    context.close()


#: The result-only form's words at a Big Three table, by the phone's language.
RESULT_WORDS = {
    "en": {"digger": "Digger (挖坑者)", "opponents": "Opponents", "first": "First bidder (♥4"},
    "zh": {"digger": "挖坑者", "opponents": "对手", "first": "首叫座位（红心 4"},
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_big3_hand_entered_by_its_result(
    language: str,
    live_server: Any,
    console_browser: Browser,
    http_cookies: None,
    artefacts: Path,
) -> None:
    """The one-round profile (big3_one_round): the hand started as "Result only", its form
    asks the digger, the bid and who went out first, nothing else (no doubles, bombs,
    rocket, spring, nor "passed out": R12.5.2, R12.11.1), and the server's scores are shown
    before saving: the digger −2B, each opponent +B (R12.11)."""
    words = RESULT_WORDS[language]
    table, referee = _table("big3_one_round")
    context = _phone(console_browser, live_server, language)
    page = context.new_page()
    console_sign_in(page, referee.username, PASSWORD, language)
    page.click("button.table-open")
    # Before any hand: the first bidder said in Big Three's terms (R12.4).
    expect(page.locator("#first-bidder-hint")).to_contain_text(words["first"])
    page.click("button[data-deal=none]")

    form = page.locator("#result-form")
    expect(form).to_have_attribute("data-game", "big3")
    assert form.locator("select, input").evaluate_all("els => els.map(e => e.name)") == [
        "landlord",
        "bid",
        "winner",
    ]
    assert form.locator("input[type=checkbox]").count() == 0
    expect(page.locator("#passed-out")).to_have_count(0)
    assert words["digger"] in form.inner_text()
    assert form.locator("select[name=winner] option").all_inner_texts()[1] == words["opponents"]
    form.locator("select[name=landlord]").select_option("1")
    form.locator("input[name=bid]").fill("2")
    form.locator("select[name=winner]").select_option("defenders")
    page.click("#review-result")

    summary = page.locator("#result-summary")
    expect(summary).to_be_visible()
    assert summary.locator("dt").all_inner_texts()[0] == words["digger"]
    assert summary.locator("dt").count() == 3
    scores = summary.locator("#summary-scores li")
    expect(scores).to_have_count(3)
    assert [s.get_attribute("data-score") for s in scores.all()] == ["2", "-4", "2"]
    page.screenshot(path=artefacts / f"console-big3-result-{language}.png", full_page=True)
    page.click("#save-result")

    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    hand = Hand.objects.get(table=table)
    assert (hand.status, hand.scores) == ("finished", [2, -4, 2])
    detail = _detail(hand)
    assert (detail["landlord"], detail["bid"], detail["winner"]) == (1, 2, "defenders")
    assert detail["doubled"] == [False] * 3 and detail["bombs"] == 0
    context.close()


def test_a_physical_big3_hand_taps_its_thirteen_ranks(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """Physical cards at a Big Three table: the first bidder given (the holder of ♥4, or the
    lowest heart, R12.4), the pad's ranks Big Three's thirteen, 4 … A 2 3, no joker; a bid
    of 3 ends the auction (R12.5) and the first bidder leads (R12.7.1)."""
    table, referee = _table("big3")
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    console_sign_in(page, referee.username, PASSWORD, "en")
    page.click("button.table-open")
    page.select_option("select[name=first_bidder]", "2")
    page.click("button[data-deal=physical]")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "bidding")
    hand = Hand.objects.get(table=table)
    assert _detail(hand)["turn"] == 2
    expect(page.locator("#auction-rule")).to_contain_text("must bid")
    page.click("button.action[data-action=bid][data-value='3']")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "playing")

    pad = page.locator("section.controls div.ranks button.rank")
    expect(pad).to_have_count(13)
    assert "".join(pad.evaluate_all("bs => bs.map(b => b.dataset.rank)")) == BIG3_ORDER
    assert pad.all_inner_texts() == [
        "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3",
    ]  # fmt: skip
    assert _state(page)["Digger (挖坑者)"].startswith("West")
    version = _detail(hand)["version"]
    for rank in "456":
        page.click(f"section.controls div.ranks button.rank[data-rank='{rank}']")
    page.click("form.composer button.play")
    _version(page, version + 1)
    last = HandEvent.objects.filter(hand=hand, kind="play").order_by("seq").last()
    assert last is not None and last.payload["action"] == {"seat": 2, "play": "456"}
    page.screenshot(path=artefacts / "console-big3-physical.png", full_page=True)
    context.close()
