"""Variant hands refereed from physical cards (issue 20).

laizi (point 4): the wild rank is drawn at the table once the landlord is known and typed in
by the referee (``POST .../wild/``, R11.2.1); no card is played before it; the plays are
checked as far as the cards seen allow, scored with the bomb classes, and the deal written in
afterwards is checked with the wild rank.

four_p and five_p: four or five seats and two packs, checked as far as the cards seen allow
(no rank more than eight times, no card more than twice, no seat beyond its 25 or 33 cards,
21 or 24 in five_p); the deal written in afterwards is checked against the log."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.rules.games import deal_json_from_seed, state_new, state_replayed
from referee.rules.profiles import get_profile
from tests.api.helpers import assign, client_for, post, referee_user
from tests.variant_deals import laizi_soft_bomb_deal
from tournaments.common.seats import MAX_SEATS, seat_count
from tournaments.hands.audit import hands_audit
from tournaments.models import Hand, HandEvent, Player, Table
from tournaments.rounds.services import round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.tournament.services import entry_create, tournament_create

pytestmark = pytest.mark.django_db


def _table(profile: str = "laizi", slug: str = "laizi") -> Table:
    tournament = tournament_create(name=slug, slug=slug, rule_profile=profile)
    for i in range(seat_count(profile)):
        entry_create(tournament=tournament, player=Player.objects.create(name=f"{slug}{i}"))
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    return Table.objects.get(round=round_)


@pytest.fixture
def referee() -> tuple[Any, Table]:
    table = _table()
    user = referee_user("laizi-referee")
    assign(user, table)
    return client_for(user), table


def _start(client: Any, table: Table, first_bidder: int = 0) -> dict[str, Any]:
    answer = post(
        client,
        f"/api/v1/tables/{table.pk}/hands/",
        {"deal": "physical", "first_bidder": first_bidder},
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def _write(client: Any, hand_id: int, path: str, body: dict[str, Any], **kw: Any) -> Any:
    return post(client, f"/api/v1/hands/{hand_id}/{path}", body, **kw)


def _refused(answer: Any, status: int, code: str) -> None:
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.json()


def _unchanged(hand_id: int, before: tuple[int, int]) -> None:
    hand = Hand.objects.get(pk=hand_id)
    assert (hand.version, HandEvent.objects.filter(hand=hand).count()) == before


def _state(hand_id: int) -> tuple[int, int]:
    hand = Hand.objects.get(pk=hand_id)
    return hand.version, HandEvent.objects.filter(hand=hand).count()


def _auction(client: Any, hand_id: int, actions: list[dict[str, Any]]) -> int:
    """Enter the auction and doubling of ``actions`` (up to the first play); returns how
    many were entered."""
    entered = 0
    for action in actions:
        if "play" in action:
            break
        answer = _write(client, hand_id, "actions/", action)
        assert answer.status_code == 200, answer.json()
        entered += 1
    return entered


def _dealt_hand(seed: int, play_seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A laizi deal and the log of one hand played to its end on it (not passed out)."""
    laizi = get_profile("laizi")
    data = deal_json_from_seed(laizi, seed, first_bidder=0)
    rng = random.Random(play_seed)
    state = state_new(laizi, data)
    state.push(next(a for a in state.legal_actions() if a.to_json().get("bid") == 3))
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    return data, state.to_events()


def test_a_whole_laizi_hand_from_physical_cards_scores_as_the_dealt_hand(
    referee: tuple[Any, Table],
) -> None:
    client, table = referee
    laizi = get_profile("laizi")
    for seed in (3, 11):
        data, log = _dealt_hand(seed, play_seed=seed)
        dealt = state_replayed(laizi, data, log)
        hand = _start(client, table)
        hand_id = hand["id"]
        assert hand["wild"] is None and hand["wild_due"] is False
        entered = _auction(client, hand_id, log)
        answer = client.get(f"/api/v1/hands/{hand_id}/")
        assert answer.json()["wild_due"] is True and answer.json()["wild"] is None
        first_play = log[entered]
        before = _state(hand_id)
        _refused(_write(client, hand_id, "actions/", first_play), 409, "wild_rank_missing")
        _unchanged(hand_id, before)
        answer = _write(client, hand_id, "wild/", {"wild": data["wild"]})
        assert answer.status_code == 200, answer.json()
        assert answer.json()["wild"] == data["wild"]
        assert answer.json()["wild_due"] is False
        for action in log[entered:]:
            answer = _write(client, hand_id, "actions/", action)
            assert answer.status_code == 200, (action, answer.json())
        row = Hand.objects.get(pk=hand_id)
        assert row.status == "finished"
        assert row.scores == list(dealt.scores() or ())
        final = client.get(f"/api/v1/hands/{hand_id}/").json()
        assert final["bomb_classes"] == dealt.bomb_classes
        assert final["wild"] == data["wild"]
        # the deal written in afterwards fits the log, with the wild rank typed in
        deal = {k: data[k] for k in ("hands", "kitty", "first_bidder")}
        answer = _write(client, hand_id, "deal/", deal)
        assert answer.status_code == 200, answer.json()
        assert answer.json()["deal_check"] == {"ok": True}
        assert list(hands_audit(tournament_slugs=["laizi"])) == []


def _playing(client: Any, table: Table) -> int:
    """A physical-cards laizi hand whose first bidder (seat 0) bid 3 and nobody doubled."""
    hand_id = int(_start(client, table)["id"])
    _write(client, hand_id, "actions/", {"seat": 0, "bid": 3})
    while True:
        hand = client.get(f"/api/v1/hands/{hand_id}/").json()
        if hand["status"] == "playing":
            return hand_id
        action = next(a for a in hand["legal_actions"] if a.get("double") is False)
        assert _write(client, hand_id, "actions/", action).status_code == 200


def test_r11_2_1_the_wild_rank_is_typed_in_once_the_landlord_is_known(
    referee: tuple[Any, Table],
) -> None:
    client, table = referee
    hand_id = int(_start(client, table)["id"])
    before = _state(hand_id)
    _refused(_write(client, hand_id, "wild/", {"wild": "7"}), 409, "wild_before_landlord")
    _unchanged(hand_id, before)
    _write(client, hand_id, "actions/", {"seat": 0, "bid": 3})
    hand = client.get(f"/api/v1/hands/{hand_id}/").json()
    assert hand["status"] == "doubling" and hand["wild_due"] is True
    for wild, status, code in (
        ("X", 422, "invalid_wild_rank"),  # a joker is never wild
        ("77", 422, "invalid_wild_rank"),
        ("Z", 422, "bad_notation"),
        (" ", 422, "invalid_wild_rank"),
        ("", 400, "validation"),  # the schema says one character at least
    ):
        before = _state(hand_id)
        _refused(_write(client, hand_id, "wild/", {"wild": wild}), status, code)
        _unchanged(hand_id, before)
    _refused(_write(client, hand_id, "wild/", {"seat": 0, "wild": "7"}), 400, "validation")
    # typed during the doubling, typed again (a slip) while no card has been played
    assert _write(client, hand_id, "wild/", {"wild": "10"}).status_code == 200
    answer = _write(client, hand_id, "wild/", {"wild": "7"})
    assert answer.status_code == 200 and answer.json()["wild"] == "7"
    kinds = list(HandEvent.objects.filter(hand_id=hand_id).values_list("kind", "payload"))
    assert kinds[-2:] == [("wild", {"wild": "T"}), ("wild", {"wild": "7"})]


def test_a_soft_bomb_from_physical_cards_and_the_wild_rank_fixed_after_a_play(
    referee: tuple[Any, Table],
) -> None:
    client, table = referee
    hand_id = _playing(client, table)
    first = _write(client, hand_id, "wild/", {"wild": "7"}, key="wild-once")
    again = _write(client, hand_id, "wild/", {"wild": "7"}, key="wild-once")
    assert first.status_code == again.status_code == 200
    assert first.json()["event"]["seq"] == again.json()["event"]["seq"]
    before = _state(hand_id)
    other = _write(client, hand_id, "wild/", {"wild": "8"}, key="wild-once")
    _refused(other, 409, "idempotency_conflict")
    _unchanged(hand_id, before)
    assert HandEvent.objects.filter(hand_id=hand_id, kind="wild").count() == 1

    bomb = {"seat": 0, "play": "5557", "as": "5555"}
    answer = _write(client, hand_id, "actions/", bomb)
    assert answer.status_code == 200, answer.json()
    hand = answer.json()
    assert hand["bomb_classes"] == {"soft": 1, "hard": 0, "pure_wild": 0}
    assert hand["top_play"]["cards"] == "5555"
    assert answer.json()["event"]["payload"]["action"] == bomb
    before = _state(hand_id)
    _refused(_write(client, hand_id, "wild/", {"wild": "8"}), 409, "wild_rank_fixed")
    _unchanged(hand_id, before)

    # the play undone, the wild rank may be typed again; 7 is then no wild card
    assert _write(client, hand_id, "undo/", {"reason": "wrong wild rank"}).status_code == 200
    assert _write(client, hand_id, "wild/", {"wild": "8"}).status_code == 200
    before = _state(hand_id)
    _refused(_write(client, hand_id, "actions/", bomb), 422, "invalid_substitution")
    _unchanged(hand_id, before)


def test_only_a_physical_laizi_hand_has_its_wild_rank_typed_in() -> None:
    dealt_table = _table(slug="dealt")
    classic_table = _table(profile="comp2016", slug="classic")
    user = referee_user("two-tables")
    assign(user, dealt_table)
    assign(user, classic_table)
    client = client_for(user)
    dealt = post(client, f"/api/v1/tables/{dealt_table.pk}/hands/", {"deal": "random"})
    assert dealt.status_code == 201
    hand_id = dealt.json()["id"]
    before = _state(hand_id)
    _refused(_write(client, hand_id, "wild/", {"wild": "7"}), 409, "wild_rank_dealt")
    _unchanged(hand_id, before)
    classic = _start(client, classic_table)
    before = _state(classic["id"])
    _refused(_write(client, classic["id"], "wild/", {"wild": "7"}), 422, "no_wild_cards")
    _unchanged(classic["id"], before)


def test_the_referee_of_another_table_cannot_type_a_wild_rank(
    referee: tuple[Any, Table],
) -> None:
    client, table = referee
    hand_id = _playing(client, table)
    other = _table(slug="other")
    stranger = referee_user("stranger")
    assign(stranger, other)
    before = _state(hand_id)
    for who in (client_for(stranger), client_for(None)):
        answer = _write(who, hand_id, "wild/", {"wild": "7"})
        assert answer.status_code in (401, 403, 404), answer.json()
    _unchanged(hand_id, before)
    assert client.get(f"/api/v1/hands/{hand_id}/").json()["wild_due"] is True


def test_a_physical_laizi_deal_written_in_is_checked_with_the_wild_rank_typed_in(
    referee: tuple[Any, Table],
) -> None:
    """The soft bomb 5557 = 5555 fits the deal when 7 is wild; typed in as 8, the deal
    written in afterwards breaks the log at that play (the hand is held back)."""
    client, table = referee
    data = laizi_soft_bomb_deal()
    laizi = get_profile("laizi")
    rng = random.Random(5)
    state = state_new(laizi, data)
    state.push(next(a for a in state.legal_actions() if a.to_json().get("bid") == 3))
    while not state.is_over:
        options = state.legal_actions()
        bomb = [a for a in options if a.to_json().get("as") == "5555"]
        state.push(bomb[0] if bomb else rng.choice(options))
    log = state.to_events()
    assert {"seat": 0, "play": "5557", "as": "5555"} in log
    deal = {k: data[k] for k in ("hands", "kitty", "first_bidder")}
    for typed, fits in (("7", True), ("8", False)):
        hand_id = int(_start(client, table)["id"])
        entered = _auction(client, hand_id, log)
        assert _write(client, hand_id, "wild/", {"wild": typed}).status_code == 200
        for action in log[entered:]:
            answer = _write(client, hand_id, "actions/", action)
            if answer.status_code != 200:  # with 8 wild, 5557 is no bomb: enter it as played
                assert not fits and answer.json()["code"] == "invalid_substitution"
                break
        if not fits:
            continue
        answer = _write(client, hand_id, "deal/", deal)
        assert answer.json()["deal_check"] == {"ok": True}


#: The two-pack games: (profile, first bidder, seed of a deal, a seat's cards, the landlord's).
TWO_PACKS = [("four_p", 2, 21, 25, 33), ("five_p", 4, 5, 21, 24)]


@pytest.mark.parametrize(("profile", "first", "seed", "cards", "landlord"), TWO_PACKS)
def test_a_two_pack_hand_from_physical_cards_and_its_deal_written_in(
    profile: str, first: int, seed: int, cards: int, landlord: int
) -> None:
    """The same log entered twice at a four_p or five_p table from physical cards: it scores
    as the dealt hand; the deal written in afterwards fits it, another deal does not (the
    hand is then held back as irregular)."""
    slug = f"{profile}-club"
    table = _table(profile=profile, slug=slug)
    user = referee_user(f"{profile}-referee")
    assign(user, table)
    client = client_for(user)
    rules = get_profile(profile)
    seats = rules.seats
    data = deal_json_from_seed(rules, seed, first_bidder=first)
    rng = random.Random(seed)
    dealt = state_new(rules, data)
    dealt.push(next(a for a in dealt.legal_actions() if a.to_json().get("bid") == 1))
    while not dealt.is_over:
        dealt.push(rng.choice(dealt.legal_actions()))
    log = dealt.to_events()
    assert dealt.phase.value == "finished"
    other = deal_json_from_seed(rules, seed + 1, first_bidder=first)
    for written, fits in ((data, True), (other, False)):
        hand_id = int(_start(client, table, first_bidder=first)["id"])
        start = client.get(f"/api/v1/hands/{hand_id}/").json()
        assert start["seats"] == seats and start["cards_left"] == [cards] * seats
        for action in log:
            answer = _write(client, hand_id, "actions/", action)
            assert answer.status_code == 200, (action, answer.json())
        row = Hand.objects.get(pk=hand_id)
        assert row.status == "finished" and row.scores == list(dealt.scores() or ())
        answer = _write(client, hand_id, "deal/", written)
        assert answer.status_code == 200, answer.json()
        check = answer.json()["deal_check"]
        assert check["ok"] is fits
        if not fits:
            assert check["code"] == "not_held" and answer.json()["irregular"] == "deal_check_failed"
            assert Hand.objects.get(pk=hand_id).confirmation == "disputed"
    assert list(hands_audit(tournament_slugs=[slug])) == []


@pytest.mark.parametrize(("profile", "first", "seed", "cards", "landlord"), TWO_PACKS)
def test_two_pack_physical_cards_refuse_what_two_packs_cannot_hold(
    profile: str, first: int, seed: int, cards: int, landlord: int
) -> None:
    table = _table(profile=profile, slug=f"{profile}-packs")
    seats = seat_count(profile)
    user = referee_user("packs-referee")
    assign(user, table)
    client = client_for(user)
    hand_id = int(_start(client, table, first_bidder=0)["id"])
    assert _write(client, hand_id, "actions/", {"seat": 0, "bid": 3}).status_code == 200
    left = client.get(f"/api/v1/hands/{hand_id}/").json()["cards_left"]
    assert left == [landlord] + [cards] * (seats - 1)
    for action in (
        {"seat": 0, "play": "33333333"},
        *({"seat": seat, "play": "pass"} for seat in range(1, seats)),
    ):
        assert _write(client, hand_id, "actions/", action).status_code == 200
    for action, code in (
        ({"seat": 0, "play": "3"}, "not_held"),  # a ninth 3
        ({"seat": 1, "play": "4"}, "out_of_turn"),
        ({"seat": MAX_SEATS, "play": "4"}, "validation"),  # no table has that seat
    ):
        before = _state(hand_id)
        answer = _write(client, hand_id, "actions/", action)
        assert answer.json()["code"] == code, answer.json()
        assert answer.status_code in (400, 422)
        _unchanged(hand_id, before)
