"""How many taps a whole hand takes on the referee console (issue 29, point 4): a FIXED deal
(server-dealt from a seed, the cards known) entered from its first bid to its last card, at a
three-seat ``comp2016`` table and at a four-seat ``four_p`` one, every tap counted.

The actions are fixed by the deal alone (``_choose``: the API's legal actions, never the
console's): the first bidder bids 3, nobody doubles; a lead is the seat's whole hand when
it is one play, else its longest play; a follow is the smallest play that beats, else a pass.
Each is entered the quickest way the console offers. The declines in a row (passes, no
bid, no double) and the action after them (``_run``) are one tap where the console offers
it (``_combined``): "<seat> passes, then <seat> plays X" (``.ahead-plays``); the trick's
passes and the next lead (``#lead-after``: the leader's ranks tapped, the body first, until
its lead is offered, then that play); "Nobody doubles" and the landlord's lead after it
(``#lead-after`` too); a bid after no bids. Else one action (``_enter``): a button that
records exactly that play if one is on the screen (the legal plays, the whole hand or the
longest plays of a lead, the plays that complete the cards tapped so far), else the play's
ranks tapped one by one, the body first — looking after each tap for a button that now
records it — and Play.

Before issue 29 (a lead's cards tapped one by one and Play; a follow's legal plays one
tap; each pass one tap) this script took 71 taps for the three-seat hand (52 actions) and
118 for the four-seat one (78 actions). With a lead's completions after a rank or two and
the trick's passes in one tap (``#all-pass``): 54 and 75. Now, with one tap recording the
"no"s the referee saw and the action after them (each still its own write, in order) and
a lead's longest plays offered before any rank is tapped: 34 taps (three seats) and 47
(four seats), under half the 71 and 118.
"""

from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from referee.rules.cards import RANK_CHARS
from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import console_open_table
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
    "three": ("comp2016", 7, 34),
    "four": ("four_p", 25, 47),
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


def _decline(action: dict[str, Any]) -> bool:
    return (
        action.get("play") == "pass"
        or action.get("bid") == 0
        or action.get("double") is False
        or action.get("redouble") is False
    )


def _run(hand: Hand) -> list[dict[str, Any]]:
    """The script's next actions from now: the declines in a row (passes, no bid, no
    double) and the action after them (or the declines alone, when the hand ends)."""
    state = hand_replay(hand=Hand.objects.get(pk=hand.pk)).state
    assert state is not None
    run: list[dict[str, Any]] = []
    while not state.is_over:
        legal = state.legal_actions()
        top = state.top_play.text() if state.top_play is not None else None
        seat = state.turn
        choice = _choose(
            {
                "status": str(state.phase),
                "legal_actions": [a.to_json() for a in legal],
                "top_play": {"cards": top} if top else None,
                "turn": seat,
                "hands": {seat: state.hand_cards_text(seat)},
            }
        )
        run.append(choice)
        state.push(next(a for a in legal if a.to_json() == choice))
        if not _decline(choice):
            break
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


def _button_for(page: Page, play: str, within: str = ".controls") -> tuple[Any, bool] | None:
    """A button on the screen that records ``play`` (its cards) in one tap, and whether it
    is shown (else it waits behind the "more" toggle)."""
    for button in page.locator(f"{within} button[data-play]").all():
        classes = button.get_attribute("class") or ""
        if "as" in classes.split() or button.get_attribute("data-as"):
            continue
        if "ahead-play" in classes or "lead-after-play" in classes:
            continue  # another seat's, after passes (_combined)
        if _same(button.get_attribute("data-play") or "", play):
            return button, button.is_visible()
    return None


def _enter(taps: Taps, action: dict[str, Any]) -> int:
    """``action`` alone, the quickest way the console offers: one write."""
    page = taps.page
    if "bid" in action:
        taps.tap(f"button.action[data-action=bid][data-value='{action['bid']}']")
        return 1
    if "double" in action:
        taps.tap(f"button.action[data-action=double][data-value='{str(action['double']).lower()}']")
        return 1
    if "redouble" in action:
        taps.tap(
            f"button.action[data-action=redouble][data-value='{str(action['redouble']).lower()}']"
        )
        return 1
    if action["play"] == "pass":
        taps.tap("button.pass")
        return 1
    counts = Counter(_ranks(action["play"]))
    order = sorted(counts, key=lambda r: (-counts[r], RANK_CHARS.index(r)))
    tapped = ""
    for rank in [r for r in order for _ in range(counts[r])]:
        found = _button_for(page, action["play"])
        if found and found[1]:
            found[0].click()
            taps.count += 1
            return 1
        if found and page.locator("button.more-plays").count():
            taps.tap("button.more-plays")
            found[0].click()
            taps.count += 1
            return 1
        taps.tap(f"#held-cards button.rank[data-rank='{rank}']")
        tapped += rank
        expect(page.locator("input[name=notation]")).to_have_value(tapped)
    found = _button_for(page, action["play"])
    if found and found[1]:
        found[0].click()
        taps.count += 1
        return 1
    taps.tap("form.composer button.play")
    return 1


def _ahead_button(page: Page, selector: str, play: str) -> Any | None:
    for button in page.locator(selector).all():
        if not button.get_attribute("data-as") and _same(
            button.get_attribute("data-play") or "", play
        ):
            return button
    return None


def _combined(taps: Taps, run: list[dict[str, Any]]) -> int:
    """The declines that start ``run`` and, when the console offers it, the action after
    them, in one tap (or the lead after the trick's passes: the leader's ranks, then the
    play): how many actions were written; 0 when the console offers no such tap."""
    page = taps.page
    declines = [a for a in run if _decline(a)]
    k = len(declines)
    if not k:
        return 0
    after = run[k] if len(run) > k else None
    if after is not None and "bid" in after:
        found = page.locator(f".ahead-bid[data-declines='{k}'][data-value='{after['bid']}']")
        if found.count():
            taps.tap(f".ahead-bid[data-declines='{k}'][data-value='{after['bid']}']")
            return k + 1
    if after is not None and "play" in after:
        seat = after["seat"]
        button = _ahead_button(
            page, f".ahead-plays button[data-declines='{k}'][data-seat='{seat}']", after["play"]
        )
        if button is not None:
            button.click()  # "<seat> passes, then <seat> plays X"
            taps.count += 1
            return k + 1
        lead = page.locator(f"#lead-after[data-seat='{seat}'][data-declines='{k}']")
        if lead.count():
            if _lead_after(taps, after["play"]):
                return k + 1
            # the play was not offered: the declines alone
            taps.tap("#all-pass" if page.locator("#all-pass").count() else "#nobody-doubles")
            return k
    all_pass = page.locator("#all-pass")
    if k > 1 and all_pass.count() and all_pass.get_attribute("data-passes") == str(k):
        taps.tap("#all-pass")  # the trick's passes, one tap
        return k
    nobody = page.locator("#nobody-doubles")
    if k > 1 and nobody.count() and nobody.get_attribute("data-declines") == str(k):
        taps.tap("#nobody-doubles")
        return k
    return 0


def _lead_after(taps: Taps, play: str) -> bool:
    """The next leader's ranks tapped (the body first) until its lead is offered, then
    that play: whether it was."""
    page = taps.page
    counts = Counter(_ranks(play))
    order = sorted(counts, key=lambda r: (-counts[r], RANK_CHARS.index(r)))
    plays = "#lead-after-plays button.lead-after-play"
    tapped: Counter[str] = Counter()
    for rank in [r for r in order for _ in range(counts[r])]:
        button = _ahead_button(page, plays, play)
        if button is not None and button.is_visible():
            button.click()
            taps.count += 1
            return True
        taps.tap(f"#lead-after-cards button.rank[data-rank='{rank}']")
        tapped[rank] += 1
        expect(
            page.locator(f"#lead-after-cards button.rank[data-rank='{rank}']")
        ).to_have_attribute("data-chosen", str(tapped[rank]))
    button = _ahead_button(page, plays, play)
    if button is not None and button.is_visible():
        button.click()
        taps.count += 1
        return True
    return False


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
    console_open_table(page, referee.username, PASSWORD, language=None)

    taps = Taps(page)
    detail = _detail(hand)
    script: list[dict[str, Any]] = []
    while detail["status"] in LIVE:
        run = _run(hand)
        written = _combined(taps, run) or _enter(taps, run[0])
        script += run[:written]
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
