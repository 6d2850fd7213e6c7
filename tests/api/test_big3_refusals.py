"""What the service refuses on a Big Three hand (issue 31), each refusal a 4xx with its stable
code and the hand unchanged, and what its result-only entry asks: the digger, the bid and the
winner (R12.11). Live: the first bidder's compulsory opening (R12.5.1), no doubling step, no
joker (R12.1), no bomb or rocket (R12.9: a quad answers only a quad), the first bidder's
first lead (R12.7.1), seats of the table only. Result-only and corrections: nothing its rules
cannot produce (a double, a bomb, a rocket, a spring, a passed-out deal: R12.11.1, R12.9,
R12.10, R12.5.2). Physical cards: the 52-card pack seen, the first bidder given (R12.13)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.cards import parse_cards
from referee.rules.games import deal_json_from_seed, state_new
from referee.rules.profiles import get_profile
from tests import factories
from tests.api.helpers import assign, client_for, post, referee_user
from tournaments.common.errors import ApplicationError
from tournaments.hands.boards import board_create
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.replay import hand_check_replays
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
    result_entry_fields,
)
from tournaments.models import Hand, HandEvent, HandSeatResult, Player, Table
from tournaments.rounds.services import round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.tournament.services import entry_create, tournament_create, tournament_update

pytestmark = pytest.mark.django_db

PROFILES = ["big3", "big3_one_round"]


def _table(profile: str) -> Table:
    tournament = tournament_create(
        name=profile, slug=profile.replace("_", "-"), rule_profile=profile
    )
    for i in range(3):
        entry_create(tournament=tournament, player=Player.objects.create(name=f"p{i}"))
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    return Table.objects.get(round=round_)


@pytest.fixture(params=PROFILES)
def profile(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def referee(profile: str) -> tuple[Any, Table]:
    table = _table(profile)
    user = referee_user(f"referee-{profile}")
    assign(user, table)
    return client_for(user), table


def _written(hand_id: int) -> tuple[int, int, list[Any]]:
    stored = Hand.objects.get(pk=hand_id)
    rows = list(HandSeatResult.objects.filter(hand_id=hand_id).values_list("position", "score"))
    return stored.version, HandEvent.objects.filter(hand_id=hand_id).count(), rows


def _refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.json()
    return dict(answer.json())


def _act(client: Any, hand: dict[str, Any], body: dict[str, Any]) -> Any:
    return post(client, f"/api/v1/hands/{hand['id']}/actions/", body)


def _seeded(client: Any, table: Table, seed: int) -> dict[str, Any]:
    """A hand dealt from ``seed`` (the service's own deal), read through the API."""
    hand = hand_create(table=table, seed=seed).hand
    answer = client.get(f"/api/v1/hands/{hand.pk}/")
    assert answer.status_code == 200
    return dict(answer.json())


# --------------------------------------------------------------------------- live play


def test_the_opening_and_the_auction(referee: tuple[Any, Table], profile: str) -> None:
    """``big3``: the first bidder may not pass (R12.5.1); ``big3_one_round``: he may, and
    three passes make him the digger at 1 (烂挖, R12.5.3). A seat not on turn, or of no
    table, is refused; a bid over 3 too."""
    client, table = referee
    hand = _seeded(client, table, seed=5)
    first = hand["deal"]["first_bidder"]
    other = (first + 1) % 3
    before = _written(hand["id"])
    _refused(_act(client, hand, {"seat": other, "bid": 1}), 422, "out_of_turn")
    _refused(_act(client, hand, {"seat": 3, "bid": 1}), 422, "seat_not_at_table")
    _refused(_act(client, hand, {"seat": first, "bid": 4}), 422, "invalid_bid")
    _refused(_act(client, hand, {"seat": first, "double": True}), 422, "invalid_double")
    assert _written(hand["id"]) == before
    legal = hand["legal_actions"]
    if profile == "big3":
        assert {"seat": first, "bid": 0} not in legal
        _refused(_act(client, hand, {"seat": first, "bid": 0}), 422, "invalid_bid")
        assert _written(hand["id"]) == before
        return
    assert {"seat": first, "bid": 0} in legal
    for seat in (first, (first + 1) % 3, (first + 2) % 3):
        hand = _act(client, hand, {"seat": seat, "bid": 0}).json()
    assert hand["status"] == "playing"
    assert (hand["landlord"], hand["bid"], hand["turn"]) == (first, 1, first)


def test_no_doubling_the_first_bidder_leads_no_joker(
    referee: tuple[Any, Table], profile: str
) -> None:
    """After the auction the hand goes straight to play (no doubling step): a double is
    ``invalid_double``; the first bidder leads even when another seat digs (R12.7.1); a
    joker is no card of the pack (``not_held``), a pass on a lead ``lead_pass``."""
    client, table = referee
    hand = _seeded(client, table, seed=8)
    first = hand["deal"]["first_bidder"]
    digger = (first + 1) % 3
    hand = _act(client, hand, {"seat": first, "bid": 1}).json()
    hand = _act(client, hand, {"seat": digger, "bid": 3}).json()  # a 3 closes it at once
    assert (hand["status"], hand["landlord"], hand["turn"]) == ("playing", digger, first)
    assert hand["stakes"] == [None if s == digger else 3 for s in range(3)]
    assert len(parse_cards(hand["hands"][digger])) == 20  # the hole taken (R12.6)
    assert not any("double" in a or "redouble" in a for a in hand["legal_actions"])
    before = _written(hand["id"])
    _refused(_act(client, hand, {"seat": digger, "double": True}), 422, "invalid_double")
    _refused(_act(client, hand, {"seat": digger, "redouble": True}), 422, "invalid_double")
    lowest = hand["hands"][digger][0]
    _refused(_act(client, hand, {"seat": digger, "play": lowest}), 422, "out_of_turn")
    for joker in ("X", "D", "XD"):
        _refused(_act(client, hand, {"seat": first, "play": joker}), 422, "not_held")
    _refused(_act(client, hand, {"seat": first, "play": "pass"}), 422, "lead_pass")
    _refused(_act(client, hand, {"seat": first, "play": "Z"}), 422, "bad_notation")
    assert _written(hand["id"]) == before


def test_no_bombs_a_quad_answers_only_a_quad(referee: tuple[Any, Table]) -> None:
    """A quad is no bomb (R12.9): it does not answer a pair; no kickers (R12.8.6)."""
    client, table = referee
    deal = _deal_with_quads()
    hand = hand_create(table=table, deal=deal).hand
    read = client.get(f"/api/v1/hands/{hand.pk}/").json()
    assert read["deal"]["first_bidder"] == 0
    read = _act(client, read, {"seat": 0, "bid": 3}).json()  # seat 0 digs and leads
    read = _act(client, read, {"seat": 0, "play": "44"}).json()
    assert read["top_play"]["kind"] == "pair"
    before = _written(hand.pk)
    _refused(_act(client, read, {"seat": 1, "play": "5555"}), 422, "does_not_beat")
    _refused(_act(client, read, {"seat": 1, "play": "5555T"}), 422, "invalid_combination")
    assert _written(hand.pk) == before
    read = _act(client, read, {"seat": 1, "play": "pass"}).json()
    read = _act(client, read, {"seat": 2, "play": "pass"}).json()
    read = _act(client, read, {"seat": 0, "play": "6666"}).json()
    assert read["top_play"]["kind"] == "quad" and read["bombs"] == 0
    read = _act(client, read, {"seat": 1, "play": "7777"}).json()
    assert read["top_play"] == {"seat": 1, "cards": "7777", "kind": "quad"}
    assert read["bombs"] == 0 and read["rockets"] == 0


def _deal_with_quads() -> dict[str, Any]:
    """Seat 0 holds ♥4 (the first bidder), 44 and 6666; seat 1 holds 5555 and 7777; seat 2
    the other 44; the rest in order, the hole last. Each heart lies in the first place that
    holds its rank."""
    rest = "".join(r * 4 for r in "89TJQKA23")
    parts = ["446666" + rest[:10], "55557777" + rest[10:18], "44" + rest[18:32], rest[32:]]
    hearts = ["", "", "", ""]
    for rank in "456789TJQKA23":
        where = next(i for i, part in enumerate(parts) if rank in part)
        hearts[where] += rank
    return {"hands": parts[:3], "kitty": parts[3], "first_bidder": 0, "hearts": hearts}


def test_a_dealt_hand_takes_its_first_bidder_from_the_hearts(
    referee: tuple[Any, Table],
) -> None:
    client, table = referee
    answer = post(
        client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random", "first_bidder": 1}
    )
    _refused(answer, 422, "first_bidder_from_hearts")
    answer = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical"})
    _refused(answer, 422, "first_bidder_required")
    assert not Hand.objects.filter(table=table).exists()


def test_a_deal_the_pack_cannot_give_is_refused(referee: tuple[Any, Table]) -> None:
    """A Dou Dizhu deal (17/17/17/3, jokers) or hearts naming another first bidder."""
    _client, table = referee
    ddz = deal_json_from_seed(get_profile("comp2016"), 3)
    wrong_hearts = {**_deal_with_quads(), "first_bidder": 1}
    for deal in (ddz, wrong_hearts):
        with pytest.raises(ApplicationError) as info:
            hand_create(table=table, deal=deal)
        assert info.value.code == "invalid_deal"
    assert not Hand.objects.filter(table=table).exists()


# --------------------------------------------------------------------------- result only


def test_result_only_entry_asks_the_digger_the_bid_and_the_winner(
    referee: tuple[Any, Table], profile: str
) -> None:
    client, table = referee
    assert result_entry_fields(profile) == ("landlord", "bid", "winner")
    assignment = client.get("/api/v1/assignments/").json()[0]
    assert assignment["result_only"] is True
    assert assignment["result_fields"] == ["landlord", "bid", "winner"]
    assert assignment["passed_out_possible"] is False
    started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"})
    assert started.status_code == 201, started.json()
    hand = started.json()
    url = f"/api/v1/hands/{hand['id']}/"
    preview = post(client, url + "result/preview/", {"landlord": 1, "bid": 2, "winner": "landlord"})
    assert preview.status_code == 200, preview.json()
    assert preview.json()["scores"] == [-2, 4, -2]
    before = _written(hand["id"])
    base = {"landlord": 0, "bid": 3, "winner": "defenders"}
    refusals = [
        ({"doubled": [False, True, False]}, "R12.11.1"),
        ({"redoubled": True}, "R12.11.1"),
        ({"bombs": 1}, "R12.9"),
        ({"rockets": 1}, "R12.9"),
        ({"spring": True}, "R12.10"),
        ({"anti_spring": True}, "R12.10"),
    ]
    for extra, rule in refusals:
        for path in ("result/preview/", "result/"):
            body = _refused(post(client, url + path, {**base, **extra}), 422, "invalid_result")
            assert body["details"]["rule_number"] == rule, body
    _refused(post(client, url + "result/", {**base, "landlord": 3}), 422, "seat_not_at_table")
    _refused(post(client, url + "passed-out/", {}), 422, "no_passed_out")
    assert _written(hand["id"]) == before
    done = post(client, url + "result/", base)
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "finished"
    assert done.json()["scores"] == [-6, 3, 3]
    rows = HandSeatResult.objects.filter(hand_id=hand["id"]).order_by("position")
    assert [r.score for r in rows] == [-6, 3, 3]
    assert [r.is_landlord for r in rows] == [True, False, False]
    assert [r.won for r in rows] == [False, True, True]


def test_corrections_keep_to_what_big_three_can_produce(referee: tuple[Any, Table]) -> None:
    _client, table = referee
    hand = hand_create(table=table).hand
    with pytest.raises(ApplicationError) as info:
        hand_record_passed_out(hand=hand)
    assert info.value.code == "no_passed_out"
    hand = hand_record_result(hand=hand, landlord=2, bid=1, winner="landlord").hand
    assert hand.scores == [-1, -1, 2]
    before = _written(hand.pk)
    for fields, code in (
        ({"passed_out": True}, "no_passed_out"),
        ({"landlord": 2, "bid": 1, "winner": "landlord", "bombs": 2}, "invalid_result"),
        ({"landlord": 2, "bid": 1, "winner": "landlord", "spring": True}, "invalid_result"),
    ):
        with pytest.raises(ApplicationError) as info:
            hand_result_correct(hand=hand, reason="slip", **fields)
        assert info.value.code == code
    assert _written(hand.pk) == before
    hand = hand_result_correct(
        hand=hand, reason="the opponents went out first", landlord=2, bid=1, winner="defenders"
    ).hand
    assert hand.scores == [1, 1, -2] and hand.status == "finished"


def test_a_logged_hand_is_corrected_only_against_its_log(referee: tuple[Any, Table]) -> None:
    """A hand played through keeps to its log: a correction that says another digger is
    ``contradicts_log``."""
    client, table = referee
    hand = _seeded(client, table, seed=2)
    profile = get_profile(hand["rule_profile"])
    state = state_new(profile, hand["deal"])
    while not state.is_over:  # the first legal action each time: a short hand
        action = state.legal_actions()[0]
        state.push(action)
        hand = _act(client, hand, action.to_json()).json()
    stored = Hand.objects.get(pk=hand["id"])
    assert list(stored.scores) == list(state.scores())
    other = (stored.landlord_seat + 1) % 3
    with pytest.raises(ApplicationError) as info:
        hand_result_correct(
            hand=stored, reason="x", landlord=other, bid=stored.bid, winner=stored.winner
        )
    assert info.value.code == "contradicts_log"
    assert info.value.extra["field"] == "landlord"


def test_the_director_corrects_a_big_three_hand_by_its_own_fields(
    director_client: Any, profile: str
) -> None:
    table = factories.seated_table(rule_profile=profile)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    slug = table.round.tournament.slug
    page = director_client.get(f"/director/t/{slug}/hands/{hand.pk}/")
    form = page.context["correct_form"]
    assert list(form.fields) == ["landlord", "bid", "winner", "override", "reason"]
    assert page.context["passed_out_possible"] is False
    director_client.post(
        f"/director/t/{slug}/hands/{hand.pk}/correct/",
        {"landlord": 1, "bid": 3, "winner": "defenders", "bombs": 2, "reason": "slip"},
    )
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.scores == [3, -6, 3] and stored.bombs == 0  # a field it has not: ignored


# --------------------------------------------------------------------------- physical cards


def test_physical_cards_over_the_big_three_pack(referee: tuple[Any, Table]) -> None:
    """The first bidder given; plays checked against the 52-card pack seen (no joker, four a
    rank), the digger's 20 cards; the deal written in afterwards is checked against the log."""
    client, table = referee
    started = post(
        client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical", "first_bidder": 2}
    )
    assert started.status_code == 201, started.json()
    hand = started.json()
    assert hand["turn"] == 2 and hand["mode"] == "physical"
    hand = _act(client, hand, {"seat": 2, "bid": 2}).json()
    hand = _act(client, hand, {"seat": 0, "bid": 0}).json()
    hand = _act(client, hand, {"seat": 1, "bid": 0}).json()
    assert (hand["status"], hand["landlord"], hand["turn"]) == ("playing", 2, 2)
    assert hand["cards_left"] == [16, 16, 20]
    before = _written(hand["id"])
    _refused(_act(client, hand, {"seat": 2, "play": "X"}), 422, "not_held")
    _refused(_act(client, hand, {"seat": 2, "play": "44445"}), 422, "invalid_combination")
    _refused(_act(client, hand, {"seat": 2, "double": True}), 422, "invalid_double")
    assert _written(hand["id"]) == before
    hand = _act(client, hand, {"seat": 2, "play": "4444"}).json()
    hand = _act(client, hand, {"seat": 0, "play": "pass"}).json()
    _refused(_act(client, hand, {"seat": 1, "play": "♠6"}), 422, "does_not_beat")
    _refused(_act(client, hand, {"seat": 1, "play": "♠4"}), 422, "not_held")  # a fifth 4
    _refused(_act(client, hand, {"seat": 1, "play": "66"}), 422, "does_not_beat")
    hand = _act(client, hand, {"seat": 1, "play": "5555"}).json()
    assert hand["top_play"]["kind"] == "quad" and hand["bombs"] == 0
    _refused(_act(client, hand, {"seat": 2, "play": "8"}), 422, "does_not_beat")


@pytest.mark.parametrize("seed", [4, 6])  # seed + 1: another first bidder; the same
def test_a_physical_hand_and_its_deal_written_in(profile: str, seed: int) -> None:
    """A hand played from its deal, entered as physical cards (the first bidder given): it
    scores as the dealt hand does; the deal written in afterwards passes its check, another
    deal names the first action it makes illegal (the hand is held back as irregular)."""
    rules = get_profile(profile)
    deal = deal_json_from_seed(rules, seed)
    state = state_new(rules, deal)
    while not state.is_over:
        state.push(state.legal_actions()[-1])
    for written_in, irregular in ((deal, False), (deal_json_from_seed(rules, seed + 1), True)):
        table = factories.seated_table(rule_profile=profile)
        hand = hand_create(table=table, physical_cards=True, first_bidder=deal["first_bidder"])
        stored = hand.hand
        for action in state.to_events():
            stored = hand_action_record(hand=stored, action=action).hand
        assert stored.status == "finished" and list(stored.scores) == list(state.scores())
        if written_in["first_bidder"] != deal["first_bidder"]:
            with pytest.raises(ApplicationError) as info:
                hand_deal_record(hand=stored, deal=written_in)
            assert info.value.code == "first_bidder_mismatch"
            continue
        stored = hand_deal_record(hand=stored, deal=written_in).hand
        check = stored.events.filter(kind="deal").get().payload["check"]
        assert check["ok"] is not irregular, check
        assert hand_check_replays(hand=stored) == []


def test_a_board_dealt_under_dou_dizhu_is_no_big_three_board(profile: str) -> None:
    """A board dealt before the tournament's profile became Big Three (17/17/17 + 3, jokers)
    is refused at the hand's start (``board_not_for_profile``), not played into a 500."""
    tournament = tournament_create(name="changed", slug="changed", rule_profile="comp2016")
    board = board_create(tournament=tournament, number=1, seed=5)
    tournament = tournament_update(tournament=tournament, rule_profile=profile)
    for i in range(3):
        entry_create(tournament=tournament, player=Player.objects.create(name=f"p{i}"))
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    table = Table.objects.get(round=round_)
    with pytest.raises(ApplicationError) as info:
        hand_create(table=table, board=board)
    assert info.value.code == "board_not_for_profile"
    assert not Hand.objects.filter(table=table).exists()
