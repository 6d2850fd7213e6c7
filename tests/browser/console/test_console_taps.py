"""How many taps a whole hand takes on the referee console (issue 29, point 4): a FIXED deal
(server-dealt from a seed, the cards known) entered from its first bid to its last card, at a
three-seat ``comp2016`` table and at a four-seat ``four_p`` one, every tap counted.

The actions are fixed by the deal alone (``_choose``: the API's legal actions, never the
console's): the first bidder bids 3, nobody doubles; a lead is the seat's whole hand when
it is one play, else its longest play; a follow is the smallest play that beats, else a pass.
Each is entered the quickest way the console offers (``_enter``): a button that records
exactly that play if one is on the screen (the legal plays, the plays that complete the
cards tapped so far), else the play's ranks tapped one by one, the body first — looking
after each tap for a button that now records it — and Play.

Before issue 29 (a lead's cards tapped one by one and Play; a follow's legal plays one
tap; each pass one tap) this script took 71 taps for the three-seat hand (52 actions) and
118 for the four-seat one (78 actions). Now a lead's play is offered once a rank or two is
tapped (``#completions``), and the passes that end a trick are one tap (``#all-pass``):
54 and 75 taps. Nearly every action left is one tap: halving again would take fewer
writes, not fewer taps.
"""

from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from referee.rules.cards import RANK_CHARS
from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import phone_context as _phone
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.replay import hand_replay
from tournaments.hands.write import hand_create
from tournaments.models import Hand, HandEvent

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-taps"
LIVE = ("bidding", "doubling", "playing")
#: (profile, seed, the most taps the hand may take on the console now)
HANDS = {
    "three": ("comp2016", 7, 54),
    "four": ("four_p", 25, 75),
}


def _ranks(cards: str) -> str:
    return "".join(c for c in cards.replace("10", "T") if c in RANK_CHARS)


def _detail(hand: Hand) -> dict[str, Any]:
    hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
    return hand_selectors.hand_detail(hand=hand, show_cards=True)


def _weight(play: str) -> tuple[int, ...]:
    return tuple(sorted((RANK_CHARS.index(r) for r in _ranks(play)), reverse=True))


def _choose(detail: dict[str, Any]) -> dict[str, Any]:
    """The action the deal's script takes now (see the module's docstring)."""
    legal = detail["legal_actions"]
    if detail["status"] != "playing":
        return next((a for a in legal if a.get("bid") == 3 or a.get("double") is False), legal[0])
    top = detail["top_play"]["cards"] if detail["top_play"] else None
    return _choose_play(legal, top, detail["hands"][detail["turn"]])


def _choose_play(legal: list[dict[str, Any]], top: str | None, held: str) -> dict[str, Any]:
    plays = [a for a in legal if a["play"] != "pass" and "as" not in a]
    if top is None:
        whole = [a for a in plays if _same(a["play"], held)]
        if whole:
            return whole[0]
        return max(plays, key=lambda a: (len(_ranks(a["play"])), [-w for w in _weight(a["play"])]))
    same = [a for a in plays if len(_ranks(a["play"])) == len(_ranks(top))]
    if not same:
        return next(a for a in legal if a["play"] == "pass")
    return min(same, key=lambda a: (_weight(a["play"]), a["play"]))


def _passes_to_trick_end(hand: Hand) -> int:
    """How many passes in a row the script makes from now when they end the trick (every
    seat up to the top play's passes), else 0."""
    state = hand_replay(hand=Hand.objects.get(pk=hand.pk)).state
    assert state is not None and state.top_play is not None
    top, top_seat = state.top_play.text(), state.top_seat
    run = 0
    while state.turn != top_seat:
        legal = state.legal_actions()
        choice = _choose_play([a.to_json() for a in legal], top, "")
        if choice["play"] != "pass":
            return 0
        state.push(next(a for a in legal if a.to_json() == choice))
        run += 1
    return run


class Taps:
    """The page's clicks, counted."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.count += 1


def _same(a: str, b: str) -> bool:
    return sorted(_ranks(a)) == sorted(_ranks(b))


def _button_for(page: Page, play: str) -> tuple[Any, bool] | None:
    """A button on the screen that records ``play`` (its cards) in one tap, and whether it
    is shown (else it waits behind the "more" toggle)."""
    for button in page.locator(".controls button[data-play]").all():
        if "as" in (button.get_attribute("class") or "") or button.get_attribute("data-as"):
            continue
        if _same(button.get_attribute("data-play") or "", play):
            return button, button.is_visible()
    return None


def _enter(taps: Taps, action: dict[str, Any]) -> None:
    page = taps.page
    if "bid" in action:
        taps.tap(f"button.action[data-action=bid][data-value='{action['bid']}']")
        return
    if "double" in action:
        taps.tap(f"button.action[data-action=double][data-value='{str(action['double']).lower()}']")
        return
    if "redouble" in action:
        taps.tap(
            f"button.action[data-action=redouble][data-value='{str(action['redouble']).lower()}']"
        )
        return
    if action["play"] == "pass":
        taps.tap("button.pass")
        return
    counts = Counter(_ranks(action["play"]))
    order = sorted(counts, key=lambda r: (-counts[r], RANK_CHARS.index(r)))
    tapped = ""
    for rank in [r for r in order for _ in range(counts[r])]:
        found = _button_for(page, action["play"])
        if found and found[1]:
            found[0].click()
            taps.count += 1
            return
        if found and page.locator("button.more-plays").count():
            taps.tap("button.more-plays")
            found[0].click()
            taps.count += 1
            return
        taps.tap(f"#held-cards button.rank[data-rank='{rank}']")
        tapped += rank
        expect(page.locator("input[name=notation]")).to_have_value(tapped)
    found = _button_for(page, action["play"])
    if found and found[1]:
        found[0].click()
        taps.count += 1
        return
    taps.tap("form.composer button.play")


@pytest.mark.parametrize("seats", sorted(HANDS))
def test_a_fixed_deal_from_the_first_bid_to_the_last_card_counting_taps(
    live_server: Any, console_browser: Browser, http_cookies: None, seats: str
) -> None:
    profile, seed, bound = HANDS[seats]
    table = playing_table(name=f"Taps {seats}", slug=f"taps-{seats}", rule_profile=profile)
    referee = referee_user("taps-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    hand = hand_create(table=table, seed=seed).hand
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    page.goto("/referee/login/")
    page.fill("input[name=username]", referee.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.click("button.table-open")
    expect(page.locator("section.hand")).to_be_visible()

    taps = Taps(page)
    detail = _detail(hand)
    script: list[dict[str, Any]] = []
    while detail["status"] in LIVE:
        action = _choose(detail)
        written = 1
        all_pass = page.locator("#all-pass")
        if action.get("play") == "pass" and all_pass.count():
            run = _passes_to_trick_end(hand)
            if run > 1 and all_pass.get_attribute("data-passes") == str(run):
                taps.tap("#all-pass")  # the trick's passes, one tap
                written = run
                turn, n = detail["turn"], len(detail["hands"])
                script += [{"seat": (turn + i) % n, "play": "pass"} for i in range(run)]
        if written == 1:
            script.append(action)
            _enter(taps, action)
        expect(page.locator("section.hand")).to_have_attribute(
            "data-version", str(detail["version"] + written), timeout=20_000
        )
        detail = _detail(hand)
        assert len(script) < 200, "the hand did not end"

    # Recorded as scripted, every action once, and scored.
    assert detail["status"] == "finished"
    recorded = [e.payload["action"] for e in HandEvent.objects.filter(hand=hand).order_by("seq")]
    assert len(recorded) == len(script)
    for got, want in zip(recorded, script, strict=True):
        assert got["seat"] == want["seat"]
        if "play" in want:
            assert _same(got["play"], want["play"]) and "as" not in got
        else:
            assert {k: v for k, v in got.items() if k != "seat"} == {
                k: v for k, v in want.items() if k != "seat"
            }
    assert sum(detail["scores"]) == 0 and any(detail["scores"])
    print(f"\n{seats}-seat hand ({profile}, seed {seed}): {len(script)} actions, {taps.count} taps")
    assert taps.count <= bound
    context.close()
