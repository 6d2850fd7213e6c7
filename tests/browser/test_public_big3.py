"""A spectator's pages of Big Three events (大三 / 挖坑, issue 31) in a real browser, in both
languages: the game's own words (the digger 挖坑者, his opponents, the hole 坑, 烂挖), never
Dou Dizhu's landlord, farmers or kitty; the cards in Big Three's order, 4 … A 2 3, and no
joker; its score, ±2B for the digger and ∓B for each opponent (R12.11). Every row is written
through the services, each action one the hand's read lists as legal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from referee.rules.big3_combos import RANKS_LOW_TO_HIGH
from referee.rules.cards import RANK_CHARS
from tests.public_data import tournament_with_tables
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.boards import board_create
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand
from tournaments.standings.snapshots import standings_snapshot_update

pytestmark = pytest.mark.django_db(transaction=True)
LIVE = ("bidding", "doubling", "playing")
#: The ranks as a page shows them, low to high in Big Three's order (R12.2).
SHOWN_ORDER = ["10" if RANK_CHARS[r] == "T" else RANK_CHARS[r] for r in RANKS_LOW_TO_HIGH]

#: Each language's words of the game, and Dou Dizhu's that a Big Three page never says.
WORDS = {
    "en": {
        "digger": "digger (挖坑者)",
        "opponent": "opponent",
        "hole": "Hole (坑)",
        "forced": "digs at 1: nobody bid (烂挖)",
        "stake": "Stake per opponent",
        "as_digger": "As digger (挖坑者)",
        "score_rule": "Big Three (R12.11)",
        "never": ("landlord", "farmer", "Kitty", "joker"),
    },
    "zh": {
        "digger": "挖坑者",
        "opponent": "对手",
        "hole": "坑（底牌）",
        "forced": "无人叫分，以 1 分烂挖",
        "stake": "每位对手的注额",
        "as_digger": "当挖坑者",
        "score_rule": "大三（R12.11）",
        "never": ("地主", "农民", "底牌：", "小王", "大王"),
    },
}


def _play(hand: Hand, rng: random.Random, *, upto: int | None = None, nobody: bool = False) -> Hand:
    """Play ``hand`` with random legal actions (up to ``upto`` of them), as its read lists
    them: ``nobody``: every seat passes the auction (烂挖, big3_one_round)."""
    done = 0
    while True:
        hand = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
        detail = hand_selectors.hand_detail(hand=hand, show_cards=True)
        if detail["status"] not in LIVE or (upto is not None and done >= upto):
            return hand
        legal = detail["legal_actions"]
        if detail["status"] == "bidding" and nobody:
            action = next(a for a in legal if a.get("bid") == 0)
        else:
            action = rng.choice(legal)
        hand = hand_action_record(hand=hand, action=action).hand
        done += 1


def _card_ranks(locator: Any) -> list[str]:
    return [b.inner_text() for b in locator.locator(".card b").all()]


def _in_big3_order(ranks: list[str]) -> bool:
    shown = [SHOWN_ORDER.index(r) for r in ranks]
    return shown == sorted(shown)


def test_big3_pages_in_both_languages(new_page: Any, screenshot: Any) -> None:
    rng = random.Random(31)
    # A one-round event: table 1's hand nobody bid (the first bidder digs at 1, 烂挖) and is
    # played out; table 2's still in play.
    tournament, tables = tournament_with_tables(
        tables=2, rule_profile="big3_one_round", name="Big Three Open"
    )
    finished = _play(hand_create(table=tables[0], seed=7).hand, rng, nobody=True)
    assert finished.status == "finished"
    live = _play(hand_create(table=tables[1], seed=8).hand, rng, upto=5)
    assert live.status == "playing"  # the one round of bids is over: a digger, cards played
    standings_snapshot_update(tournament_id=tournament.pk)
    detail = hand_selectors.hand_detail(hand=finished, show_cards=True)
    digger = detail["landlord"]
    assert (digger, detail["bid"]) == (detail["deal"]["first_bidder"], 1)  # 烂挖: R12.5.3
    won = 1 if detail["winner"] == "landlord" else -1
    assert finished.scores == [2 * won if s == digger else -won for s in range(3)]

    # A duplicate board of the until-two-passes profile, played and so released.
    duplicate, boards_tables = tournament_with_tables(
        tables=1, rule_profile="big3", format="duplicate", name="Big Three Pairs"
    )
    board = board_create(tournament=duplicate, number=1, seed=5)
    on_board = _play(hand_create(table=boards_tables[0], board=board).hand, rng)
    assert on_board.status == "finished"

    slug = tournament.slug
    hand_url = reverse("public:hand", args=[slug, finished.pk])
    for language, words in WORDS.items():
        page = new_page(language)
        assert page.goto(hand_url).status == 200
        page.locator('[data-step="last"]').click()
        main = page.locator("main")
        body = main.inner_text()
        roles = page.locator("table.seats tbody td:nth-child(3)").all_inner_texts()
        assert roles[digger] == words["digger"]
        assert [r for s, r in enumerate(roles) if s != digger] == [words["opponent"]] * 2
        assert page.locator("#kitty").inner_text().startswith(words["hole"])
        assert words["forced"] in page.locator("#steps").inner_text()
        assert words["score_rule"] in page.locator("#score-rule").inner_text()
        scores = page.locator("table.breakdown.big3 td.score").all_inner_texts()
        assert scores == [str(n) for n in finished.scores]
        # the deal and the hole in Big Three's order, 16 cards each and 4 in the hole, no joker
        for row in page.locator("table.seats tbody tr").all():
            ranks = _card_ranks(row)
            assert len(ranks) == 16 and _in_big3_order(ranks), ranks
        hole = _card_ranks(page.locator("#kitty"))
        assert len(hole) == 4 and _in_big3_order(hole)
        assert page.locator(".card.joker").count() == 0
        for never in words["never"]:
            assert never not in body, (language, never)
        screenshot(page, f"big3-hand-{language}")

        page.goto(reverse("public:live", args=[slug]))
        card = page.locator('section[data-table="2"]')
        assert words["digger"] in card.locator(".badge").inner_text()
        assert words["stake"] in card.locator(".live-facts").inner_text()
        board_text = page.locator("main").inner_text()
        for never in words["never"]:
            assert never not in board_text, (language, never)
        screenshot(page, f"big3-live-{language}")

        page.goto(reverse("public:standings", args=[slug]))
        assert words["as_digger"] in page.locator("main").inner_text()
        screenshot(page, f"big3-standings-{language}")

        page.goto(reverse("public:board", args=[duplicate.slug, board.number]))
        deal = page.locator("table.deal")
        assert words["hole"] in deal.inner_text()
        for row in deal.locator("tr").all()[:3]:
            ranks = _card_ranks(row)
            assert len(ranks) == 16 and _in_big3_order(ranks), ranks
        assert page.locator(".card.joker").count() == 0
        assert words["digger"] in page.locator("table.traveller").inner_text()
        screenshot(page, f"big3-board-{language}")
