"""A spectator's pages of a six-player hand (六人斗地主, issue 32) in a real browser: before
the partner plays the partner card, the public live board and the hand page name no partner
(no badge, no row marked, no side for any seat but the landlord); from his revealing play
they name him, in both languages. Every action is written through the services, each a legal
one of the rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from referee.rules.games import six_deal_json, state_new
from referee.rules.profiles import get_profile
from referee.rules.six_hand import SixDeal, SixHandState
from tests import factories
from tests.browser.phone import PHONE, fits, sideways
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, Round, RoundStatus

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"partner": "partner (暗地主)", "farmer": "farmer (农民)", "unknown": "unknown until"},
    "zh": {"partner": "暗地主", "farmer": "农民", "unknown": "叫的牌打出前未知"},
}


def _state(hand: Hand, data: dict[str, Any]) -> SixHandState:
    actions = [e.payload["action"] for e in hand.events.order_by("seq")]
    return SixHandState.from_events(SixDeal.from_json(data), actions, get_profile("six_p"))


def _reveals(state: SixHandState, action: Any) -> bool:
    play = action.to_json().get("play", "pass")
    cards = [c.split("#")[0] for c in play.split()] if play != "pass" else []
    return action.seat == state.partner and state.partner_card in cards


def _hand_before_the_reveal() -> tuple[Hand, SixHandState]:
    """A live six-player hand, the partner card called and eight actions played, none of
    them the partner's revealing play, which is among the next seat's legal actions."""
    profile = get_profile("six_p")
    table = factories.seated_table(
        slug="six-open", name="Six Open", rule_profile="six_p", is_public=True, status="running"
    )
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    rng = random.Random(13)
    for seed in range(100, 400):
        data = six_deal_json(profile, seed)
        probe = state_new(profile, data)
        probe.push(probe.legal_actions()[0])
        if probe.partner is None:
            continue
        hand = hand_create(table=table, deal=data).hand
        for _ in range(60):
            state = _state(hand, data)
            options = state.legal_actions()
            if len(state.actions) >= 8 and any(_reveals(state, a) for a in options):
                return hand, state
            quiet = [a for a in options if not _reveals(state, a)]
            if state.is_over or not quiet:
                break
            hand = hand_action_record(hand=hand, action=rng.choice(quiet).to_json()).hand
        table = factories.seated_table(
            slug=f"six-open-{seed}", name="Six Open", rule_profile="six_p", is_public=True,
            status="running",
        )  # fmt: skip
        Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    raise AssertionError("no hand reached the partner's play")


def test_the_live_board_and_the_hand_page_name_the_partner_only_from_his_play(
    new_page: Any, screenshot: Any
) -> None:
    hand, state = _hand_before_the_reveal()
    landlord, partner = state.landlord, state.partner
    assert partner is not None and landlord is not None
    slug = hand.table.round.tournament.slug
    hand_url = reverse("public:hand", args=[slug, hand.pk])
    live_url = reverse("public:live", args=[slug])
    table = hand.table.number

    page = new_page("en")
    assert page.goto(hand_url).status == 200
    roles = page.locator("table.seats tbody td:nth-child(3)").all_inner_texts()
    assert roles[landlord] == "landlord (地主)"
    others = [r for s, r in enumerate(roles) if s != landlord]
    assert all(r.startswith(WORDS["en"]["unknown"]) for r in others), roles
    assert page.locator("table.seats tr.partner").count() == 0
    assert WORDS["en"]["partner"] not in page.locator("main").inner_text()
    screenshot(page, "six-hand-before")
    page.goto(live_url)
    card = page.locator(f'section[data-table="{table}"]')
    assert card.locator(".badge.partner").count() == 0 and card.locator("tr.partner").count() == 0
    assert card.locator(".partner-card").inner_text() == state.partner_card
    assert card.locator(".face-up").count() == 1
    screenshot(page, "six-live-before")

    reveal = next(a for a in state.legal_actions() if _reveals(state, a))
    hand = hand_action_record(hand=hand, action=reveal.to_json()).hand
    assert hand.partner_seat == partner

    for language, words in WORDS.items():
        page = new_page(language)
        assert page.goto(hand_url).status == 200
        marked = page.locator("table.seats tbody tr.partner")
        assert marked.count() == 1
        roles = page.locator("table.seats tbody td:nth-child(3)").all_inner_texts()
        assert roles[partner] == words["partner"]
        farmers = [r for s, r in enumerate(roles) if s not in (landlord, partner)]
        assert farmers == [words["farmer"]] * 4, roles
        screenshot(page, f"six-hand-after-{language}")
        page.goto(live_url)
        card = page.locator(f'section[data-table="{table}"]')
        rows = card.locator("tbody tr").all()
        assert "partner" in (rows[partner].get_attribute("class") or "")
        assert words["partner"] in rows[partner].inner_text()
        assert card.locator(".badge.partner").count() == 1
        screenshot(page, f"six-live-after-{language}")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_finished_six_player_hand_page_fits_a_phone(
    new_page: Any, screenshot: Any, language: str
) -> None:
    """Six seats, 33 cards a hand dealt and the score breakdown: the page scrolls down, never
    sideways (its wide tables scroll inside their own box)."""
    profile = get_profile("six_p")
    table = factories.seated_table(
        slug="six-phone", name="Six Phone", rule_profile="six_p", is_public=True, status="running"
    )
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    data = six_deal_json(profile, 7)
    hand = hand_create(table=table, deal=data).hand
    rng = random.Random(7)
    while not (state := _state(hand, data)).is_over:
        hand = hand_action_record(
            hand=hand, action=rng.choice(state.legal_actions()).to_json()
        ).hand
    assert hand.status == "finished"

    phone = new_page(language, viewport=PHONE, is_mobile=True)
    assert phone.goto(reverse("public:hand", args=["six-phone", hand.pk])).status == 200
    assert phone.locator("table.seats tbody tr").count() == 6
    assert fits(phone), sideways(phone)
    screenshot(phone, f"six-hand-phone-{language}")
