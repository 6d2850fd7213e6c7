"""Big Three (大三 / 挖坑, issue 31) on the director's screens and in the words every page
takes from ``hands.game_words``: the creation form offers both profiles and says what they
are; the print sheet's score slip asks what Big Three scores; the game's words and card order
by profile, in both languages; a one-round hand nobody bid is replayed with its 烂挖."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.cards import CARD_OF_ID, Card, card_order
from tests.public_data import tournament_with_tables
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.game_words import card_sort_key, game_word, plays_big3
from tournaments.hands.write import hand_action_record, hand_create, hand_record_result
from tournaments.models import Hand, Tournament
from tournaments.public.selectors import hand_page

pytestmark = pytest.mark.django_db


def test_the_creation_form_offers_both_big3_profiles_and_says_what_they_are(
    director_client: Any,
) -> None:
    for language, words in (
        ("en", ("Big Three", "digger", "烂挖")),
        ("zh-hans", ("大三", "挖坑者", "烂挖")),
    ):
        page = director_client.get("/director/new/", HTTP_ACCEPT_LANGUAGE=language)
        text = page.content.decode()
        assert 'value="big3"' in text and 'value="big3_one_round"' in text
        assert all(word in text for word in words), (language, words)
    for profile in ("big3", "big3_one_round"):
        created = director_client.post(
            "/director/new/",
            {
                "name": f"Dig {profile}",
                "slug": f"dig-{profile.replace('_', '-')}",
                "rule_profile": profile,
                "format": "table",
                "hands_per_round": 2,
            },
        )
        assert created.status_code == 302, created.content
        assert Tournament.objects.get(name=f"Dig {profile}").rule_profile == profile


def test_the_score_slip_asks_what_big3_scores(director_client: Any) -> None:
    tournament, _ = tournament_with_tables(tables=1, rule_profile="big3")
    printed = director_client.get(f"/director/t/{tournament.slug}/rounds/1/print/")
    assert printed.status_code == 200
    slip = printed.content.decode().split('id="score-slips"')[1]
    head = slip.split("</thead>")[0]
    assert "Digger (挖坑者)" in head and "Bid" in head and "Winner" in head
    for absent in ("Landlord", "Doubled", "Bombs", "Rockets"):
        assert absent not in head, absent
    # and a Dou Dizhu slip keeps its columns
    other, _ = tournament_with_tables(tables=1, rule_profile="comp2016")
    head = (
        director_client.get(f"/director/t/{other.slug}/rounds/1/print/")
        .content.decode()
        .split('id="score-slips"')[1]
        .split("</thead>")[0]
    )
    assert all(word in head for word in ("Landlord", "Doubled", "Bombs"))


@pytest.mark.parametrize(
    ("language", "big3", "doudizhu"),
    [
        ("en", ("digger (挖坑者)", "opponent", "Hole (坑)"), ("landlord (地主)", "farmer (农民)")),
        ("zh-hans", ("挖坑者", "对手", "坑（底牌）"), ("地主", "农民")),
    ],
)
def test_the_games_words_by_profile(
    language: str, big3: tuple[str, ...], doudizhu: tuple[str, ...]
) -> None:
    with translation.override(language):
        for profile in ("big3", "big3_one_round"):
            assert plays_big3(profile)
            said = (game_word("landlord", profile), game_word("farmer", profile))
            assert (*said, game_word("kitty", profile)) == big3
        for profile in ("comp2016", "classic", "four_p", "laizi", "no-such-profile"):
            assert not plays_big3(profile)
            assert (game_word("landlord", profile), game_word("farmer", profile)) == doudizhu


@given(st.lists(st.sampled_from([c for c in CARD_OF_ID.values() if not c.is_joker]), max_size=20))
def test_big3_cards_sort_4_to_3_and_dou_dizhu_cards_3_to_the_jokers(cards: list[Card]) -> None:
    """R12.2: 4 < … < K < A < 2 < 3; R1.2 unchanged for the other profiles."""
    pad = "456789TJQKA23"
    shown = [c.rank for c in sorted(cards, key=card_sort_key("big3"))]
    text = "".join("3456789TJQKA2"[r] for r in shown)
    assert [pad.index(ch) for ch in text] == sorted(pad.index(ch) for ch in text)
    plain = sorted(cards, key=card_sort_key("comp2016"))
    assert [c.rank for c in plain] == [c.rank for c in sorted(cards, key=card_order)]


def _play(hand: Hand, rng: random.Random, *, nobody: bool) -> Hand:
    while True:
        hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
        detail = hand_selectors.hand_detail(hand=hand, show_cards=True)
        if detail["status"] not in ("bidding", "playing"):
            return hand
        legal = detail["legal_actions"]
        bids = [a for a in legal if a.get("bid") == 0] if nobody else []
        hand = hand_action_record(hand=hand, action=(bids or [rng.choice(legal)])[0]).hand


@pytest.mark.parametrize(("profile", "nobody"), [("big3_one_round", True), ("big3", False)])
def test_the_replay_says_lanwa_only_when_nobody_bid_in_one_round(
    profile: str, nobody: bool
) -> None:
    _, tables = tournament_with_tables(tables=1, rule_profile=profile)
    hand = _play(hand_create(table=tables[0], seed=3).hand, random.Random(3), nobody=nobody)
    page = hand_page(hand=hand)
    forced = [step for step in page.steps if step.kind == "forced_dig"]
    bids = [step for step in page.steps if step.kind == "bid"]
    if nobody:
        assert [s.value for s in bids] == [0, 0, 0]
        assert [(s.seat, s.value) for s in forced] == [(bids[0].seat, 1)]
        assert page.steps.index(forced[0]) == 3  # after the three passes, before any play
    else:
        assert forced == [] and bids[0].value > 0  # big3's opening bid is compulsory
    # the digger's cards left count the hole: 20 before his first play (R12.6)
    digger = page.landlord
    first = next(s for s in page.steps if s.kind == "play" and s.seat == digger)
    assert first.cards_left is not None and first.cards is not None
    assert first.cards_left[digger] == 20 - len(first.cards)


def test_the_directors_hand_page_says_a_big3_result_in_its_words(director_client: Any) -> None:
    """The hand's summary and its log in the digger's words (挖坑者), in both languages; a
    Dou Dizhu hand's log keeps the landlord's."""
    tournament, tables = tournament_with_tables(tables=1, rule_profile="big3")
    hand = hand_create(table=tables[0]).hand
    hand_record_result(hand=hand, landlord=2, bid=3, winner="defenders")
    url = f"/director/t/{tournament.slug}/hands/{hand.pk}/"
    said = {
        "en": ("Digger (挖坑者)", "digger West", "bid 3, the opponents won"),
        "zh-hans": ("挖坑者", "挖坑者 西", "叫 3 分，对手胜"),
    }
    for language, words in said.items():
        page = director_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        summary = page.split('id="hand-summary"')[1].split("</dl>")[0]
        log = page.split('id="hand-log"')[1].split("</ol>")[0]
        assert words[0] in summary, (language, summary)
        assert words[1] in log and words[2] in log, (language, log)
        assert "landlord" not in log and "地主" not in log
    other, others = tournament_with_tables(tables=1, rule_profile="comp2016")
    plain = hand_create(table=others[0]).hand
    hand_record_result(hand=plain, landlord=2, bid=3, winner="defenders")
    page = director_client.get(f"/director/t/{other.slug}/hands/{plain.pk}/").content.decode()
    assert "landlord West" in page.split('id="hand-log"')[1]
