"""The referee console at the variant tables (issues 20, 32), on a phone (390×844): a ``four_p``
hand (四人斗地主) and a ``five_p`` hand (五人斗地主) entered from the first bid to the last card
at four- and five-seat tables, and a
``laizi`` hand (癞子) whose soft bomb is entered by tapping its cards and choosing what the
wild card stands for. Each action is one the API lists as legal, entered as a referee
would: the auction's buttons, the seat's cards tapped rank by rank, Play (or Pass)."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from referee.rules.cards import RANK_CHARS
from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import console_open_table
from tests.browser.console.conftest import phone_context as _phone
from tests.variant_deals import laizi_soft_bomb_deal
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.write import hand_create
from tournaments.models import Hand, HandEvent, Table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-variants"
FOUR_P_SEED = 25  # a deal the choices below play out in 58 actions, every seat playing
FIVE_P_SEED = 5
LIVE = ("bidding", "doubling", "playing")


def _referee(table: Table) -> Any:
    referee = referee_user("variant-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    return referee


def _sign_in_and_open(page: Page, referee: Any) -> None:
    console_open_table(page, referee.username, PASSWORD)


def _console_at(
    browser: Browser, live_server: Any, profile: str, table: tuple[str, str], **create: Any
) -> tuple[Hand, BrowserContext, Page]:
    """A playing table of ``profile`` (its name and slug), its referee signed in on a phone
    with the hand (``create``: ``hand_create``'s arguments) open."""
    name, slug = table
    at = playing_table(name=name, slug=slug, rule_profile=profile)
    referee = _referee(at)
    hand = hand_create(table=at, **create).hand
    context = _phone(browser, live_server, "en")
    page = context.new_page()
    _sign_in_and_open(page, referee)
    return hand, context, page


def _detail(hand: Hand) -> dict[str, Any]:
    hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
    return hand_selectors.hand_detail(hand=hand, show_cards=True)


def _ranks(cards: str) -> str:
    return "".join(c for c in cards.replace("10", "T") if c in RANK_CHARS)


def _state(page: Page) -> dict[str, str]:
    """The hand's state list (dt → dd) as the console shows it."""
    terms = page.locator("#hand-state dt").all_inner_texts()
    return dict(zip(terms, page.locator("#hand-state dd").all_inner_texts(), strict=True))


def _choose(detail: dict[str, Any]) -> dict[str, Any]:
    """The action the referee enters: the first bidder bids 3; in play the longest legal
    play (a free lead is never a pass), else pass."""
    legal = detail["legal_actions"]
    if detail["status"] != "playing":
        return next((a for a in legal if a.get("bid") == 3), legal[0])
    plays = [a for a in legal if a["play"] != "pass" and "as" not in a]
    if not plays:
        return next(a for a in legal if a["play"] == "pass")
    return max(plays, key=lambda a: (len(a["play"]), a["play"]))


def _tap_cards(page: Page, play: str) -> None:
    for rank in _ranks(play):
        page.click(f"#held-cards button.rank[data-rank='{rank}']")


def _enter(page: Page, action: dict[str, Any]) -> None:
    """Enter ``action`` on the console: its auction button, or its cards tapped and Play,
    or Pass."""
    if "bid" in action:
        page.click(f"button.action[data-action=bid][data-value='{action['bid']}']")
    elif action["play"] == "pass":
        page.locator("button.pass").first.click()
    else:
        _tap_cards(page, action["play"])
        expect(page.locator("input[name=notation]")).to_have_value(_ranks(action["play"]))
        page.click("form.composer button.play")


def _enter_to_the_end(
    page: Page, hand: Hand, before: Callable[[int, dict[str, Any]], None]
) -> dict[str, Any]:
    """Enter the hand's actions on the console (``_choose``) until it ends, each one seen
    written (the page's version moves on); ``before`` looks at the page before each entry,
    given how many were entered. A game without doubling (four_p, five_p): the console
    offers what the API lists, no more. Returns the hand's last read."""
    detail = _detail(hand)
    entered = 0
    while detail["status"] in LIVE:
        assert page.locator("button.action[data-action=double]").count() == 0
        assert page.locator("button.action[data-action=redouble]").count() == 0
        before(entered, detail)
        _enter(page, _choose(detail))
        entered += 1
        expect(page.locator("section.hand")).to_have_attribute(
            "data-version", str(detail["version"] + 1)
        )
        detail = _detail(hand)
        assert detail["status"] != "doubling"
        assert entered < 250, "the hand did not end"
    return detail


def test_a_four_seat_hand_from_the_first_bid_to_the_last_card(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    hand, context, page = _console_at(
        console_browser,
        live_server,
        "four_p",
        ("Four-player open", "four-p-open"),
        seed=FOUR_P_SEED,
    )
    assert hand.table.seats.count() == 4  # the factory seats the profile's table

    # Four seats everywhere: the seat list, the cards left, each seat's cards.
    assert page.locator("select[name=seat] option").count() == 4
    assert page.locator("ul.held li").count() == 4
    assert _state(page)["Cards left"] == "0: 25 · 1: 25 · 2: 25 · 3: 25"
    page.screenshot(path=artefacts / "console-four-p-bidding.png")

    def before(entered: int, detail: dict[str, Any]) -> None:
        if detail["status"] == "playing" and entered and detail["top_play"] is None:
            expect(page.locator(".legal-plays")).to_have_count(0)  # a free lead
        if entered == 4:
            page.screenshot(path=artefacts / "console-four-p-playing.png")

    detail = _enter_to_the_end(page, hand, before)
    assert detail["status"] == "finished"
    scores = detail["scores"]
    assert len(scores) == 4 and sum(scores) == 0 and any(scores)
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    shown = _state(page)["Scores"]
    assert shown == " · ".join(f"{seat}: {score}" for seat, score in enumerate(scores))
    row = page.locator("#table-hands .hand-row .scores")
    expect(row).to_have_text(
        " · ".join(f"{s}: {'+' if n > 0 else ''}{n}" for s, n in enumerate(scores))
    )
    # The log in words names all four seats' actions, one line an event.
    events = HandEvent.objects.filter(hand=hand).count()
    expect(page.locator("#log li")).to_have_count(events)
    assert {e.actor_seat for e in HandEvent.objects.filter(hand=hand, kind="play")} == {
        0,
        1,
        2,
        3,
    }
    page.screenshot(path=artefacts / "console-four-p-finished.png", full_page=True)
    context.close()


def test_a_five_seat_hand_from_the_first_bid_to_the_last_card(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """``five_p`` (SPEC §14): five seats on the phone, one round of bids, no doubling step,
    the landlord's 24 cards, the fifth seat named without a wind, the score of four farmers
    and a landlord who pays or takes four times."""
    hand, context, page = _console_at(
        console_browser,
        live_server,
        "five_p",
        ("Five-player open", "five-p-open"),
        seed=FIVE_P_SEED,
    )
    assert hand.table.seats.count() == 5

    assert page.locator("select[name=seat] option").count() == 5
    assert page.locator("ul.held li").count() == 5
    assert _state(page)["Cards left"] == "0: 21 · 1: 21 · 2: 21 · 3: 21 · 4: 21"
    expect(page.locator("select[name=seat] option").nth(4)).to_contain_text("Seat 4")
    page.screenshot(path=artefacts / "console-five-p-bidding.png")

    def before(entered: int, detail: dict[str, Any]) -> None:
        if entered == 1:  # the first bidder bid 3: the auction is over (R14.3)
            assert detail["status"] == "playing"
            left = _state(page)["Cards left"].split(" · ")
            assert left[detail["landlord"]] == f"{detail['landlord']}: 24"

    detail = _enter_to_the_end(page, hand, before)
    assert detail["status"] == "finished"
    scores = detail["scores"]
    landlord = detail["landlord"]
    farmers = [s for s in range(5) if s != landlord]
    assert len({scores[s] for s in farmers}) == 1 and scores[landlord] == -4 * scores[farmers[0]]
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    assert _state(page)["Scores"] == " · ".join(f"{s}: {n}" for s, n in enumerate(scores))
    events = HandEvent.objects.filter(hand=hand).count()
    expect(page.locator("#log li")).to_have_count(events)
    page.screenshot(path=artefacts / "console-five-p-finished.png", full_page=True)
    context.close()


def test_a_soft_bomb_entered_by_choosing_what_the_wild_card_stands_for(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    hand, context, page = _console_at(
        console_browser,
        live_server,
        "laizi",
        ("Wild-card open", "laizi-open"),
        deal=laizi_soft_bomb_deal(),
    )
    # No wild rank before the landlord is known (it is drawn then, R11.2.1).
    assert "Wild (癞子)" not in _state(page)

    # The auction on the console: seat 0 bids 3, nobody doubles.
    detail = _detail(hand)
    while detail["status"] != "playing":
        legal = detail["legal_actions"]
        action = next(a for a in legal if a.get("bid") == 3 or a.get("double") is False)
        what = "bid" if "bid" in action else "double"
        value = "3" if what == "bid" else "false"
        page.click(f"button.action[data-action={what}][data-value='{value}']")
        expect(page.locator("section.hand")).to_have_attribute(
            "data-version", str(detail["version"] + 1)
        )
        detail = _detail(hand)
    assert (detail["landlord"], detail["turn"], detail["wild"]) == (0, 0, "7")
    assert {"seat": 0, "play": "5557", "as": "5555"} in detail["legal_actions"]

    # The wild rank, shown once the landlord is known; the wild card among the seat's cards.
    assert _state(page)["Wild (癞子)"] == "7"
    expect(page.locator("#held-cards button.rank.wild")).to_have_attribute("data-rank", "7")

    # The soft bomb: 5 5 5 and the wild 7 tapped, then its reading chosen.
    _tap_cards(page, "5557")
    page.click("form.composer button.play")
    readings = page.locator("#readings button.reading")
    expect(readings.first).to_be_visible()
    offered = [b.get_attribute("data-as") for b in readings.all()]
    assert "5555" in offered and "" in offered  # the natural reading (trio and single) too
    expect(page.locator("#readings button.reading[data-as='5555']")).to_have_text("555 7 → 5555")
    assert HandEvent.objects.filter(hand=hand, kind="play").count() == 0  # nothing sent yet
    page.screenshot(path=artefacts / "console-laizi-readings.png")
    page.click("#readings button.reading[data-as='5555']")
    expect(page.locator("section.hand")).to_have_attribute(
        "data-version", str(detail["version"] + 1)
    )

    event = HandEvent.objects.filter(hand=hand, kind="play").get()
    assert event.payload["action"]["as"] == "5555"
    assert _ranks(event.payload["action"]["play"]) in ("5557", "5575", "7555")
    after = _detail(hand)
    assert after["bombs"] == 1 and after["turn"] == 1
    page.click("#log summary")
    line = page.locator("#log li[data-kind=play]")
    expect(line).to_have_text(f"{_seat0(page)} plays {event.payload['action']['play']} → 5555")
    page.screenshot(path=artefacts / "console-laizi-soft-bomb.png", full_page=True)
    context.close()


def _seat0(page: Page) -> str:
    return page.locator("select[name=seat] option[value='0']").inner_text()


def test_a_physical_cards_laizi_hand_takes_the_wild_rank_drawn_then_a_soft_bomb(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """Physical cards: the console cannot know the cards, so the referee taps the wild rank
    turned up once the landlord is known (no play is offered before it), then enters 5557
    on the rank buttons and says what the wild card stands for (5555)."""
    hand, context, page = _console_at(
        console_browser,
        live_server,
        "laizi",
        ("Wild-card club", "laizi-club"),
        physical_cards=True,
        first_bidder=0,
    )
    expect(page.locator("#wild-entry")).to_have_count(0)  # no landlord yet

    page.click("button.action[data-action=bid][data-value='3']")
    expect(page.locator("section.hand")).to_have_attribute("data-version", "1")
    detail = _detail(hand)
    assert detail["status"] == "doubling"
    while detail["status"] == "doubling":
        expect(page.locator("#wild-entry")).to_be_visible()  # may be typed while doubling
        page.click("button.action[data-action=double][data-value='false']")
        expect(page.locator("section.hand")).to_have_attribute(
            "data-version", str(detail["version"] + 1)
        )
        detail = _detail(hand)
    assert detail["status"] == "playing" and detail["wild_due"] is True

    # Playing, the wild rank not typed in: the console asks for it and offers no play.
    expect(page.locator("#wild-entry h3")).to_have_text(
        "Wild rank drawn (癞子): tap the rank turned up"
    )
    expect(page.locator("#wild-entry button[data-wild]")).to_have_count(13)  # 3 … 2, no joker
    expect(page.locator("form.composer")).to_have_count(0)
    page.screenshot(path=artefacts / "console-laizi-physical-wild.png")
    page.click("#wild-entry button[data-wild='7']")
    expect(page.locator("section.hand")).to_have_attribute(
        "data-version", str(detail["version"] + 1)
    )
    assert _state(page)["Wild (癞子)"] == "7"
    assert HandEvent.objects.filter(hand=hand, kind="wild").get().payload == {"wild": "7"}
    # Typed wrong? It can be typed again until the first play.
    expect(page.locator("#wild-entry button[data-wild='7']")).to_have_attribute(
        "aria-pressed", "true"
    )

    # The soft bomb from the rank buttons, with what the wild card stands for.
    detail = _detail(hand)
    for rank in "5557":
        page.click(f".ranks button.rank[data-rank='{rank}']")
    expect(page.locator("input[name=notation]")).to_have_value("5557")
    page.fill("input[name=declared]", "5555")
    page.click("form.composer button.play")
    expect(page.locator("section.hand")).to_have_attribute(
        "data-version", str(detail["version"] + 1)
    )
    event = HandEvent.objects.filter(hand=hand, kind="play").get()
    assert event.payload["action"] == {"seat": 0, "play": "5557", "as": "5555"}
    after = _detail(hand)
    assert after["bombs"] == 1 and after["bomb_classes"]["soft"] == 1
    expect(page.locator("#wild-entry")).to_have_count(0)  # fixed once a card is played
    expect(page.locator("#log li").last).to_contain_text("5557 → 5555")
    expect(page.locator("#log li").filter(has_text="Wild rank drawn (癞子): 7")).to_have_count(1)
    page.screenshot(path=artefacts / "console-laizi-physical-bomb.png", full_page=True)
    context.close()


def test_a_four_p_hand_started_from_physical_cards_on_the_console(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """At a four_p table the console starts a physical-cards hand with any of the four seats
    as first bidder (no result-only entry: a variant is refereed play by play); the rank
    buttons enter the plays; two packs' limits are the server's refusal, shown."""
    table = playing_table(name="Four-player club", slug="four-p-club", rule_profile="four_p")
    referee = _referee(table)
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    page.goto("/referee/login/")
    page.fill("input[name=username]", referee.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.click("button.table-open")
    expect(page.locator("button[data-deal=physical]")).to_be_visible()
    expect(page.locator("button[data-deal=none]")).to_have_count(0)
    assert page.locator("select[name=first_bidder] option").count() == 4
    page.select_option("select[name=first_bidder]", "3")
    page.click("button[data-deal=physical]")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "bidding")
    hand = Hand.objects.get(table=table)
    assert (hand.physical_cards, hand.first_bidder) == (True, 3)

    page.click("button.action[data-action=bid][data-value='3']")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "playing")
    assert _state(page)["Cards left"] == "0: 25 · 1: 25 · 2: 25 · 3: 33"
    for _ in range(8):
        page.click(".ranks button.rank[data-rank='3']")
    page.click("form.composer button.play")
    expect(page.locator("section.hand")).to_have_attribute("data-version", "2")
    for version in (3, 4, 5):  # three passes end the trick (R11.1)
        page.locator("button.pass").first.click()
        expect(page.locator("section.hand")).to_have_attribute("data-version", str(version))
    assert _state(page)["Cards left"] == "0: 25 · 1: 25 · 2: 25 · 3: 25"
    assert _state(page)["Turn"].startswith("North")
    page.click(".ranks button.rank[data-rank='3']")  # a ninth 3: two packs hold eight
    page.click("form.composer button.play")
    expect(page.locator("#rejected")).to_be_visible()
    plays = HandEvent.objects.filter(hand=hand, kind="play").order_by("seq")
    assert [e.payload["action"]["play"] for e in plays] == ["33333333", "pass", "pass", "pass"]
    assert Hand.objects.get(pk=hand.pk).version == 5
    page.screenshot(path=artefacts / "console-four-p-physical.png", full_page=True)
    context.close()


def test_a_soft_bomb_entered_while_earlier_writes_wait_keeps_what_the_wild_card_stands_for(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """With writes waiting (offline) the console knows no legal plays and so cannot list the
    readings of 5557: it asks what the wild card stands for, as for physical cards, and the
    play reaches the server with its declaration once the connection is back (without it the
    cards would be recorded as a trio and a single)."""
    hand, context, page = _console_at(
        console_browser,
        live_server,
        "laizi",
        ("Wild-card queue", "laizi-queue"),
        deal=laizi_soft_bomb_deal(),
    )
    # Online: seat 0 bids 3, nobody doubles, seat 0 leads a 3.
    for action in ({"bid": 3}, {"double": False}, {"double": False}, {"play": "3"}):
        version = _detail(hand)["version"]
        if "play" in action:
            _tap_cards(page, action["play"])
            page.click("form.composer button.play")
        else:
            what, value = next(iter(action.items()))
            page.click(f"button.action[data-action={what}][data-value='{str(value).lower()}']")
        expect(page.locator("section.hand")).to_have_attribute("data-version", str(version + 1))
    assert (_detail(hand)["turn"], _detail(hand)["wild"]) == (1, "7")

    # Offline: seats 1 and 2 pass (queued), and seat 0 leads again: 5 5 5 and the wild 7.
    context.set_offline(True)
    context.route("**/api/**", _no_network)
    for _ in range(2):
        page.locator("button.pass").first.click()
    expect(page.locator("#queue")).to_contain_text("(2)")
    assert page.locator("#legal-plays").count() == 0  # no legal plays known
    for rank in "5557":  # the seat's cards as the writes waiting leave them
        page.click(f".ranks button.rank[data-rank='{rank}']")
    declared = page.locator("input[name=declared]")
    expect(declared).to_be_visible()
    declared.fill("5555")
    page.click("form.composer button.play")
    expect(page.locator("#queue")).to_contain_text("(3)")
    page.screenshot(path=artefacts / "console-laizi-declared-offline.png", full_page=True)
    assert HandEvent.objects.filter(hand=hand, kind="play").count() == 1  # the 3 only

    context.unroute("**/api/**", _no_network)
    context.set_offline(False)
    expect(page.locator("#queue")).to_be_hidden()
    bomb = HandEvent.objects.filter(hand=hand, kind="play").order_by("seq").last()
    assert bomb is not None and bomb.payload["action"]["as"] == "5555"
    assert _ranks(bomb.payload["action"]["play"]) in ("5557", "5575", "7555")
    assert _detail(hand)["bombs"] == 1
    context.close()


def _no_network(route: Route) -> None:
    route.abort("internetdisconnected")
