"""The referee console at a six-player table (六人斗地主, issue 32), on a phone (390×844): the
console shows the referee what the table may know (R13.11) — no seat's cards, no legal play
(they would name the secret partner), the face-up card, the partner card once called, the
partner only from his revealing play. The referee enters the call by the card's suit and
rank, and each play card by card, suit then rank, as the table shows them; the server picks
the copies (R13.10)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from referee.rules.games import six_deal_json, state_new
from referee.rules.profiles import get_profile
from referee.rules.six_hand import SixHandState
from tests.api.helpers import assign, playing_table, referee_user
from tests.browser.console.conftest import console_open_table, console_sign_in
from tests.browser.console.conftest import phone_context as _phone
from tests.rules.helpers import random_six_hand
from tournaments.common.seat_names import seat_name
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "console-pass-six"


def _reveals(state: SixHandState, action: Any) -> bool:
    play = action.to_json().get("play", "pass")
    cards = [c.split("#")[0] for c in play.split()] if play != "pass" else []
    return action.seat == state.partner and state.partner_card in cards


def _a_hand_to_the_reveal() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A deal and its actions from the call to the partner's revealing play (short: a
    referee enters each), found by playing random legal actions on the rules' state."""
    profile = get_profile("six_p")
    rng = random.Random(32)
    for seed in range(300, 600):
        data = six_deal_json(profile, seed)
        state = state_new(profile, data)
        actions = []
        while len(actions) < 14 and not state.is_over:
            options = state.legal_actions()
            reveal = [a for a in options if _reveals(state, a)] if state.partner is not None else []
            if reveal and len(actions) >= 4:
                actions.append(reveal[0].to_json())
                return data, actions
            quiet = [a for a in options if not _reveals(state, a)]
            action = rng.choice(quiet)
            state.push(action)
            actions.append(action.to_json())
    raise AssertionError("no short hand to the reveal")


def _state(page: Page) -> dict[str, str]:
    terms = page.locator("#hand-state dt").all_inner_texts()
    return dict(zip(terms, page.locator("#hand-state dd").all_inner_texts(), strict=True))


def _card(token: str) -> tuple[str | None, str]:
    """A card as the table sees it (``♠10#2`` → ♠, T; ``X#1`` → None, X)."""
    face = token.split("#")[0].replace("10", "T")
    return (None, face) if face in ("X", "D") else (face[0], face[1:])


def _enter(page: Page, action: dict[str, Any]) -> None:
    if "call" in action:
        suit, rank = _card(action["call"])
        page.click(f"#call-entry button.suit[data-suit='{suit}']")
        page.click(f"#call-entry button.rank[data-call-rank='{rank}']")
        page.click("#call-card")
        return
    seat = page.locator("select[name=seat]")
    seat.select_option(str(action["seat"]))
    if action["play"] == "pass":
        page.locator("button.pass").first.click()
        return
    typed = ""
    for token in action["play"].split():
        suit, rank = _card(token)
        if suit is not None:
            page.click(f".controls .suits button.suit[data-suit='{suit}']")
        page.click(f".controls .ranks button.rank[data-rank='{rank}']")
        typed += (rank if suit is None else suit + rank) + " "
    expect(page.locator("input[name=notation]")).to_have_value(typed)
    page.click("form.composer button.play")


def test_a_six_seat_hand_from_the_call_to_the_partners_reveal(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    data, actions = _a_hand_to_the_reveal()
    table = playing_table(name="Six-player open", slug="six-p-open", rule_profile="six_p")
    referee = referee_user("six-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    hand = hand_create(table=table, deal=data).hand
    context = _phone(console_browser, live_server, "en")
    page = context.new_page()
    console_open_table(page, referee.username, PASSWORD)

    # What the table may know: the face-up card and its holder, no seat's cards, no play.
    assert page.locator("ul.held li").count() == 0
    assert page.locator("select[name=seat] option").count() == 6
    shown = _state(page)
    with translation.override("en"):
        landlord_name = seat_name(hand.landlord_seat)
    assert shown["Landlord (地主)"].startswith(landlord_name)
    assert shown["Face-up card"] == data["face_up"].split("#")[0]
    assert shown["Partner (暗地主)"] == "unknown until the partner card is played"
    expect(page.locator("#call-entry")).to_be_visible()
    page.screenshot(path=artefacts / "console-six-calling.png", full_page=True)

    partner = None
    for entered, action in enumerate(actions):
        if entered:  # the partner stays unknown on the phone until his card is played
            assert _state(page)["Partner (暗地主)"] == "unknown until the partner card is played"
            assert page.locator(".legal-plays").count() == 0
            assert page.locator("#held-cards").count() == 0
        _enter(page, action)
        expect(page.locator("section.hand")).to_have_attribute("data-version", str(entered + 1))
        if entered == 0:
            assert _state(page)["Partner card"] == action["call"]
            expect(page.locator("#cards-hidden")).to_be_visible()
            page.screenshot(path=artefacts / "console-six-playing.png", full_page=True)
        partner = Hand.objects.get(pk=hand.pk).partner_seat
    assert partner is not None and partner == actions[-1]["seat"]
    with translation.override("en"):
        partner_name = seat_name(partner)
    assert _state(page)["Partner (暗地主)"].startswith(partner_name)
    events = Hand.objects.get(pk=hand.pk).events.order_by("seq")
    assert events.last().payload.get("reveals_partner") is True
    expect(page.locator("#log li").last).to_contain_text("partner")
    page.screenshot(path=artefacts / "console-six-revealed.png", full_page=True)
    context.close()


def _six_table_open(browser: Browser, live_server: Any, slug: str) -> tuple[Any, Any, Page]:
    """A six-player table with no hand yet, its referee's phone signed in and the table open
    (its start screen)."""
    table = playing_table(name=slug, slug=slug, rule_profile="six_p")
    referee = referee_user(f"{slug}-ref")
    referee.set_password(PASSWORD)
    referee.save()
    assign(referee, table)
    context = _phone(browser, live_server, "en")
    page = context.new_page()
    console_sign_in(page, referee.username, PASSWORD, "en")
    page.click("button.table-open")
    return table, context, page


def test_a_six_seat_hand_entered_by_its_result(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """Result only at a six-player table: the form asks the landlord, his partner (or
    nobody), the winner, the bombs and a spring — no bid, doubling, rocket or "passed out"
    (R13.3, R13.9); the summary names the partner and shows the server's pairwise scores
    before saving (landlord and partner +4×, each farmer −2×, R13.9)."""
    table, context, page = _six_table_open(console_browser, live_server, "six-p-results")
    page.click("button[data-deal=none]")

    form = page.locator("#result-form")
    expect(form).to_have_attribute("data-game", "six_p")
    assert "Bid" not in _state(page)  # no auction in six players (R13.3)
    names = form.locator("select, input").evaluate_all("els => els.map(e => e.name)")
    assert names == ["landlord", "partner", "winner", "bombs", "spring", "anti_spring"]
    expect(page.locator("#passed-out")).to_have_count(0)
    partners = form.locator("select[name=partner] option")
    assert partners.count() == 7
    assert partners.first.inner_text() == "Nobody: the landlord played alone"
    form.locator("select[name=landlord]").select_option("3")
    form.locator("select[name=partner]").select_option("3")  # his own partner: refused
    form.locator("select[name=winner]").select_option("landlord")
    form.locator("input[name=bombs]").fill("2")
    page.click("#review-result")
    expect(page.locator("#result-refusal")).to_contain_text("R13.4")
    form.locator("select[name=partner]").select_option("0")
    page.click("#review-result")

    summary = page.locator("#result-summary")
    expect(summary).to_be_visible()
    with translation.override("en"):
        partner_name = seat_name(0)
    terms, values = summary.locator("dt").all_inner_texts(), summary.locator("dd").all_inner_texts()
    rows = dict(zip(terms, values, strict=True))
    assert rows["Partner (暗地主)"].startswith(partner_name)
    assert "Bid" not in rows
    scores = summary.locator("#summary-scores li")
    expect(scores).to_have_count(6)
    assert [s.get_attribute("data-score") for s in scores.all()] == [
        "16", "-8", "-8", "16", "-8", "-8",
    ]  # fmt: skip
    page.screenshot(path=artefacts / "console-six-result.png", full_page=True)
    page.click("#save-result")

    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    hand = Hand.objects.get(table=table)
    assert (hand.partner_seat, hand.landlord_seat, hand.bombs) == (0, 3, 2)
    assert hand.scores == [16, -8, -8, 16, -8, -8]
    expect(page.locator("#log li").last).to_contain_text("partner")
    context.close()


def _hand_ending_before_the_reveal() -> tuple[SixHandState, list[dict[str, Any]]]:
    """A random legal hand whose partner never plays the partner card and whose last play
    is short (the referee taps it), with its events as written at the table (no copies)."""
    for seed in range(600):
        _, state, events = random_six_hand("six_p", seed)
        short = len(events[-1]["play"].split()) <= 3
        if state.partner is not None and state.revealed_at is None and short:
            return state, events
    raise AssertionError("no such hand")


def test_physical_cards_name_the_partner_who_never_played_his_card(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    """Physical cards at a six-player table: the referee starts the hand from the landlord's
    seat (the face-up card's holder, R13.3); the hand ends before the partner played the
    partner card, so the phone asks which seat shows its third copy (R13.8): every seat but
    the landlord's and the one gone out; the tap scores the hand."""
    dealt, events = _hand_ending_before_the_reveal()
    landlord = dealt.landlord
    assert landlord is not None
    table, context, page = _six_table_open(console_browser, live_server, "six-p-cards")
    expect(page.locator("#first-bidder-hint")).to_contain_text("face-up card is the landlord")
    page.locator("select[name=first_bidder]").select_option(str(landlord))
    page.click("button[data-deal=physical]")
    expect(page.locator("#call-entry")).to_be_visible()
    hand = Hand.objects.get(table=table)
    assert (hand.physical_cards, hand.landlord_seat) == (True, landlord)
    for event in events[:-1]:  # the hand up to its last play, as the table's log
        hand_action_record(hand=Hand.objects.get(pk=hand.pk), action=event)
    page.reload()  # the phone reads the hand as the table's log left it: its home, then the table
    page.click("button.table-open")
    expect(page.locator("section.hand")).to_have_attribute("data-version", str(len(events) - 1))
    _enter(page, events[-1])
    naming = page.locator("#partner-naming")
    expect(naming).to_be_visible()
    expect(naming.locator("h3")).to_contain_text(dealt.partner_card or "")
    assert _state(page)["Partner card"] == dealt.partner_card  # called, not "alone"
    assert _state(page)["Partner (暗地主)"] == "unknown until the partner card is played"
    offered = {int(b.get_attribute("data-seat") or -1) for b in naming.locator("button").all()}
    out = events[-1]["seat"]
    assert landlord not in offered and out not in offered and dealt.partner in offered
    page.screenshot(path=artefacts / "console-six-naming.png", full_page=True)
    naming.locator(f"button[data-seat='{dealt.partner}']").click()
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.partner_seat, stored.scores) == (dealt.partner, list(dealt.scores() or ()))
    expect(page.locator("#log li").last).to_contain_text("shows the partner card")
    context.close()
