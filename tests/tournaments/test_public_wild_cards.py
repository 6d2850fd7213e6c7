"""The public hand page of a wild-card (癞子, ``laizi``) hand (issue 20): the wild rank once
the landlord is known (R11.2.1), and a declared play with both its cards and what its wild
cards stood for, in English and 简体中文."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.urls import reverse

from tests import factories
from tests.api.helpers import playing_table
from tests.public_data import tournament_with_tables
from tests.variant_deals import laizi_soft_bomb_deal
from tournaments.hands.boards import board_create
from tournaments.hands.replay import hand_replay, hand_wild_shown
from tournaments.hands.wild import hand_wild_record
from tournaments.hands.words import event_words
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, RoundBoard, Tournament
from tournaments.public.selectors import hand_page

pytestmark = pytest.mark.django_db


def _hand() -> Hand:
    table = playing_table(name="Wild-card open", slug="laizi-open", rule_profile="laizi")
    return hand_create(table=table, deal=laizi_soft_bomb_deal()).hand


def _record(hand: Hand, *actions: dict[str, Any]) -> None:
    for action in actions:
        hand_action_record(hand=hand, action=action)


def _url(hand: Hand) -> str:
    return reverse("public:hand", args=[hand.table.round.tournament.slug, hand.pk])


AUCTION = ({"seat": 0, "bid": 3}, {"seat": 1, "double": False}, {"seat": 2, "double": False})
SOFT_BOMB = {"seat": 0, "play": "5557", "as": "5555"}


def test_the_wild_rank_is_shown_once_the_landlord_is_known(client: Any) -> None:
    hand = _hand()
    before = client.get(_url(hand)).content.decode()
    assert hand_page(hand=hand).wild is None and 'id="wild-rank"' not in before
    _record(hand, AUCTION[0])
    assert hand_page(hand=hand).wild == "7"
    page = client.get(_url(hand)).content.decode()
    assert '<p class="wild" id="wild-rank">Wild (癞子): <strong>7</strong></p>' in page


def test_a_declared_play_shows_its_cards_and_what_they_stood_for(client: Any) -> None:
    hand = _hand()
    _record(hand, *AUCTION, SOFT_BOMB)
    steps = hand_page(hand=hand).steps
    play = next(s for s in steps if s.kind == "play")
    assert [c.rank for c in play.cards or []] == [2, 2, 2, 4]
    assert [c.rank for c in play.declared or []] == [2, 2, 2, 2]
    page = client.get(_url(hand)).content.decode()
    declared = page.split('<span class="declared"', 1)[1].split("</span></span>", 1)[0]
    assert declared.count("<b>5</b>") == 4 and "<b>7</b>" not in declared
    zh = client.get(_url(hand), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "癞子所当的牌" in zh and '<p class="wild" id="wild-rank">癞子: <strong>7</strong>' in zh


def test_a_plain_play_declares_nothing(client: Any) -> None:
    hand = _hand()
    _record(hand, *AUCTION, {"seat": 0, "play": "3"})
    play = next(s for s in hand_page(hand=hand).steps if s.kind == "play")
    assert play.declared is None
    assert '<span class="declared"' not in client.get(_url(hand)).content.decode()


def test_the_log_says_the_cards_and_their_reading(client: Any) -> None:
    text = event_words("play", {"action": SOFT_BOMB})
    assert text == "East (东) · seat 0 plays 5 5 5 7 → 5 5 5 5 (癞子)"
    plain = event_words("play", {"action": {"seat": 0, "play": "5557"}})
    assert plain == "East (东) · seat 0 plays 5 5 5 7"


def test_the_bomb_classes_are_shown_with_their_factors(client: Any) -> None:
    """R11.2.3/R11.2.4: a soft bomb is listed as such, with its factor ×2; the other classes
    with theirs."""
    hand = _hand()
    _record(hand, *AUCTION)
    assert 'id="bomb-classes"' not in client.get(_url(hand)).content.decode()
    _record(hand, SOFT_BOMB)
    assert hand_page(hand=hand).bomb_classes == [
        ("soft", 1, 2),
        ("hard", 0, 4),
        ("pure_wild", 0, 4),
    ]
    page = client.get(_url(hand)).content.decode()
    line = page.split('id="bomb-classes">', 1)[1].split("</p>", 1)[0]
    assert '<span data-class="soft">soft (软炸弹) <b>1</b> ×2</span>' in line
    assert '<span data-class="hard">hard (硬炸弹) <b>0</b> ×4</span>' in line
    zh = client.get(_url(hand), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert '<span data-class="soft">软炸弹 <b>1</b> ×2</span>' in zh


def test_a_physical_cards_hand_shows_the_wild_rank_typed_in_and_its_bombs(
    client: Any, director_client: Any
) -> None:
    """Physical cards: the wild rank is the one the referee typed in once the landlord was
    known; the page and the log show it as for a dealt hand."""
    table = playing_table(name="Wild-card club", slug="laizi-club", rule_profile="laizi")
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    _record(hand, *AUCTION)
    assert hand_page(hand=hand).wild is None  # the landlord known, nothing typed in yet
    assert 'id="wild-rank"' not in client.get(_url(hand)).content.decode()
    hand_wild_record(hand=hand, wild="7")
    _record(hand, SOFT_BOMB)
    page = hand_page(hand=hand)
    assert page.wild == "7"
    assert page.bomb_classes is not None and ("soft", 1, 2) in page.bomb_classes
    html = client.get(_url(hand)).content.decode()
    assert '<p class="wild" id="wild-rank">Wild (癞子): <strong>7</strong></p>' in html
    slug = hand.table.round.tournament.slug
    log = director_client.get(reverse("director:hand", args=[slug, hand.pk])).content.decode()
    assert "Wild rank drawn (癞子): 7." in log
    assert event_words("wild", {"wild": "T"}) == "Wild rank drawn (癞子): 10."


def _live(client: Any, hand: Hand) -> str:
    tournament = hand.table.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    factories.tournament_set(tournament.pk, status="running")
    return client.get(f"/t/{tournament.slug}/live/").content.decode()


def test_the_live_board_shows_the_wild_rank_and_what_the_last_play_stood_for(
    client: Any, settings: Any
) -> None:
    settings.PUBLIC_BOARD_SECONDS = 0  # each read renders the board afresh
    hand = _hand()
    assert "Wild (癞子)" not in _live(client, hand)
    _record(hand, *AUCTION)
    assert '· Wild (癞子): <b class="wild">7</b>' in _live(client, hand)
    _record(hand, SOFT_BOMB)
    last = _live(client, hand).split('<p class="last-play">', 1)[1].split("</p>", 1)[0]
    declared = last.split('<span class="declared"', 1)[1]
    assert declared.count("<b>5</b>") == 4 and "<b>7</b>" not in declared
    _record(hand, {"seat": 1, "play": "pass"})
    assert '<span class="declared"' in _live(client, hand)  # still the last play, one pass


def test_a_secret_board_shows_no_wild_rank_on_the_live_board(client: Any, settings: Any) -> None:
    """A duplicate laizi board still in play at another table of its section: the live board
    shows neither its cards nor its wild rank nor its auction (card_secrecy), though the
    landlord is known."""
    tournament, tables = tournament_with_tables(tables=2, rule_profile="laizi", format="duplicate")
    settings.PUBLIC_BOARD_SECONDS = 0
    board = board_create(tournament=tournament, number=1, seed=918_273_645_501)
    RoundBoard.objects.create(round=tables[0].round, section=1, hand_number=1, board=board)
    hand = hand_create(table=tables[0]).hand
    assert hand.board_id == board.pk
    bid = next(a for a in hand_detail_of(hand)["legal_actions"] if a.get("bid") == 3)
    hand_action_record(hand=hand, action=bid)
    assert hand_wild_shown(replay=hand_replay(hand=Hand.objects.get(pk=hand.pk))) is not None

    live = _live(client, hand)

    assert "Wild (癞子)" not in live and '<b class="wild">' not in live
    # nor anything else of the board: the auction tells where the strong hand sits (issue 28)
    assert 'class="bid">' not in live and "board-secret" in live


def hand_detail_of(hand: Hand) -> dict[str, Any]:
    from tournaments.hands import selectors as hand_selectors

    row = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
    return hand_selectors.hand_detail(hand=row, show_cards=True)


def test_a_farmers_stake_counts_the_soft_bomb_live_and_in_the_score_breakdown(
    client: Any, settings: Any
) -> None:
    """R11.2.4: the soft bomb doubles each farmer's stake (bid 3 × 2 = 6) on the live board
    and in the hand's read; once the hand is over, the breakdown on its page shows the soft
    bomb as a factor, and each farmer's score is its stake, won or lost."""
    settings.PUBLIC_BOARD_SECONDS = 0
    hand = _hand()
    _record(hand, *AUCTION, SOFT_BOMB)
    assert hand_detail_of(hand)["stakes"] == [None, 6, 6]
    live = _live(client, hand)
    assert 'title="3 (bid) × 2 (1 soft bomb) = 6"' in live
    rng = random.Random(7)
    while (detail := hand_detail_of(hand))["status"] == "playing":
        hand_action_record(hand=hand, action=rng.choice(detail["legal_actions"]))
    detail = hand_detail_of(hand)
    rows = hand_page(hand=Hand.objects.get(pk=hand.pk)).breakdown
    farmers = [row for row in rows if not row["landlord"]]
    assert [row["seat"] for row in farmers] == [1, 2]
    for row in farmers:
        kinds = {factor.kind: factor.value for factor in row["stake"].factors}
        assert kinds["soft_bombs"] == 2 ** detail["bomb_classes"]["soft"]
        assert abs(detail["scores"][row["seat"]]) == row["stake"].value
    page = client.get(_url(hand)).content.decode()
    soft = detail["bomb_classes"]["soft"]
    assert re.search(rf"\b{soft} soft bombs?\)", page.split('<table class="breakdown">', 1)[1])
