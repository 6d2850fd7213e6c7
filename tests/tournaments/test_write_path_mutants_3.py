"""``tournaments/hands/write.py``'s survivors of mutation testing, pinned (issue 29; the
sibling of ``test_write_path_mutants``).

mutmut 2.5.1 left these mutants of ``write.py`` alive: the board check at a hand's start
(``board_not_for_profile``), the first bidder of a physical-cards hand that nothing names,
a retried 报牌, the refusal of a deal written into a dealt hand, and the transaction of a
pass-out. Each test goes through the public services and compares with values written out
by hand: the refusal's code and message, the stored event and row."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from referee.rules.cards import deal_from_seed
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.common.seat_names import seat_name
from tournaments.hands import writing as hand_writing
from tournaments.hands.confirmation import hand_confirm
from tournaments.hands.corrections import hand_void
from tournaments.hands.replay import hand_replay, hand_replay_stored
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_announcement_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
    result_entry,
)
from tournaments.models import Board, Hand, HandEvent, RoundBoard, Table
from tournaments.seating.services import seat_remove

pytestmark = pytest.mark.django_db


def _row(hand: Hand) -> Hand:
    return Hand.objects.get(pk=hand.pk)


def _events(hand: Hand) -> list[tuple[str, dict[str, Any], str | None]]:
    return [
        (e.kind, e.payload, e.idempotency_key)
        for e in HandEvent.objects.filter(hand=hand).order_by("seq")
    ]


def _refused(call: Any, hand: Hand) -> tuple[str, str, dict[str, object]]:
    """The refusal of ``call``, which left ``hand``'s row and log as they were."""
    row = _row(hand)
    before = (row.version, row.status, row.state, _events(hand))
    with pytest.raises(ApplicationError) as caught:
        call()
    row = _row(hand)
    assert (row.version, row.status, row.state, _events(hand)) == before
    return caught.value.code, caught.value.message, caught.value.extra


def _start_refused(table: Table, **fields: Any) -> tuple[str, str]:
    before = list(Hand.objects.filter(table=table).values_list("pk", flat=True))
    with pytest.raises(ApplicationError) as caught:
        hand_create(table=table, **fields)
    assert list(Hand.objects.filter(table=table).values_list("pk", flat=True)) == before
    return caught.value.code, caught.value.message


# ------------------------------------------------------------------ board_not_for_profile
def test_a_three_seat_board_is_refused_at_a_four_seat_table() -> None:
    table = factories.seated_table(rule_profile="four_p")
    board = factories.BoardFactory(tournament=table.round.tournament, number=4)
    assert _start_refused(table, board=board) == (
        "board_not_for_profile",
        "Board 4 was not dealt for the tournament's rules (four_p).",
    )


def test_a_board_without_a_wild_rank_is_refused_at_a_laizi_table() -> None:
    table = factories.seated_table(rule_profile="laizi")
    board = factories.BoardFactory(tournament=table.round.tournament, number=2)
    assert _start_refused(table, board=board) == (
        "board_not_for_profile",
        "Board 2 was not dealt for the tournament's rules (laizi).",
    )


def test_a_board_with_a_wild_rank_is_refused_at_a_table_without_wild_cards() -> None:
    table = factories.seated_table(rule_profile="comp2016")
    board = factories.BoardFactory(tournament=table.round.tournament, number=3, wild_rank=5)
    assert _start_refused(table, board=board) == (
        "board_not_for_profile",
        "Board 3 was not dealt for the tournament's rules (comp2016).",
    )


def test_a_board_dealt_for_the_tables_rules_starts_its_hand() -> None:
    table = factories.seated_table()
    board = factories.BoardFactory(tournament=table.round.tournament, number=1)
    hand = hand_create(table=table, board=board).hand
    assert (_row(hand).board_id, _row(hand).status) == (board.pk, "bidding")


# ------------------------------------------------------------------ physical first bidder
def test_a_physical_cards_hand_with_no_rotation_and_no_board_is_bid_first_by_seat_0() -> None:
    table = factories.seated_table()
    assert table.first_bidder is None
    hand = hand_create(table=table, physical_cards=True).hand
    assert (_row(hand).first_bidder, _row(hand).physical_cards, _row(hand).deal) == (0, True, None)
    assert _refused(lambda: hand_action_record(hand=hand, action={"seat": 1, "bid": 1}).hand, hand)[
        0
    ] == ("out_of_turn")
    assert hand_action_record(hand=hand, action={"seat": 0, "bid": 1}).hand.version == 1


def test_a_physical_cards_hand_follows_the_tables_rotation() -> None:
    table = factories.seated_table()
    Table.objects.filter(pk=table.pk).update(first_bidder=1)
    table.refresh_from_db()
    first = hand_create(table=table, physical_cards=True).hand
    assert _row(first).first_bidder == 1  # hand 1: the table's seat


def test_a_hand_without_physical_cards_keeps_no_first_bidder_of_its_own() -> None:
    table = factories.seated_table()
    Table.objects.filter(pk=table.pk).update(first_bidder=2)
    table.refresh_from_db()
    hand = hand_create(table=table).hand  # result-only entry
    assert (_row(hand).first_bidder, _row(hand).physical_cards) == (None, False)


# ------------------------------------------------------------------ a retried 报牌
def _announcement_due() -> tuple[Hand, int]:
    """A dealt hand played until a seat owes its 报牌 (deal 7, play seed 4), and the seat."""
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=4):
        hand = hand_action_record(hand=hand, action=action).hand
        state = hand_replay_stored(hand=_row(hand))
        if state.announcements_due:
            return _row(hand), state.announcements_due[0].seat
    raise AssertionError("no 报牌 came due")


def test_a_retried_announcement_answers_the_original_and_writes_nothing() -> None:
    hand, seat = _announcement_due()
    original = hand_announcement_record(hand=hand, seat=seat, idempotency_key="bao")
    assert original.event is not None
    events = _events(hand)
    assert events[-1][0] == "announce" and events[-1][2] == "bao"

    retried = hand_announcement_record(hand=_row(hand), seat=seat, idempotency_key="bao")
    assert retried.event is not None
    assert retried.event.pk == original.event.pk
    assert (_events(hand), _row(hand).version) == (events, original.hand.version)


@pytest.mark.parametrize("other", ["seat", "made"])
def test_an_announcement_key_reused_for_another_seat_or_a_missing_one_is_a_conflict(
    other: str,
) -> None:
    hand, seat = _announcement_due()
    hand = hand_announcement_record(hand=hand, seat=seat, idempotency_key="bao").hand
    changed = {"seat": (seat + 1) % 3} if other == "seat" else {"seat": seat, "made": False}
    assert _refused(
        lambda: hand_announcement_record(hand=_row(hand), idempotency_key="bao", **changed).hand,
        hand,
    ) == (
        "idempotency_conflict",
        "This idempotency key was already used for a different request.",
        {},
    )


# ------------------------------------------------------------------ not_physical_cards
def test_a_deal_written_into_a_dealt_hand_is_refused_naming_physical_cards() -> None:
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=4):
        hand = hand_action_record(hand=hand, action=action).hand
    assert _row(hand).status == "finished"
    assert _refused(lambda: hand_deal_record(hand=_row(hand), deal=deal.to_json()).hand, hand) == (
        "not_physical_cards",
        "Only a physical-cards hand has its deal written in.",
        {},
    )


def test_a_deal_written_into_a_result_only_hand_is_refused_naming_physical_cards() -> None:
    hand = hand_record_passed_out(hand=hand_create(table=factories.seated_table()).hand).hand
    deal = deal_from_seed(7)
    assert _refused(lambda: hand_deal_record(hand=_row(hand), deal=deal.to_json()).hand, hand)[
        0
    ] == ("not_physical_cards")


# ------------------------------------------------------------------ pass-out transaction
@pytest.mark.django_db(transaction=True)
def test_a_pass_out_that_fails_after_its_append_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In autocommit (a command, a worker): the pass-out's own transaction rolls back the
    event it appended when a later step of the write fails."""

    def broken(*, hand: Hand, replay: Any = None) -> Hand:
        raise RuntimeError("the connection dropped after the append")

    hand = hand_create(table=factories.seated_table()).hand
    monkeypatch.setattr(hand_writing, "hand_commit", broken)  # every write commits there
    with pytest.raises(RuntimeError):
        hand_record_passed_out(hand=hand, idempotency_key="flop")
    assert _events(hand) == []
    assert (_row(hand).version, _row(hand).status) == (0, "bidding")
    monkeypatch.undo()
    done = hand_record_passed_out(hand=_row(hand), idempotency_key="flop").hand
    assert (done.status, done.version, _events(hand)[0][2]) == ("passed_out", 1, "flop")


# ------------------------------------------------------------------ refusals no test reached
# (the full mutmut run of write.py found these branches reached by none of the tests that
# exercise it)
def _played_out(table: Table) -> Hand:
    deal = deal_from_seed(7)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=4):
        hand = hand_action_record(hand=hand, action=action).hand
    return _row(hand)


def test_an_action_that_is_no_action_is_refused_with_the_rules_words() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    assert _refused(lambda: hand_action_record(hand=hand, action={"seat": 2}).hand, hand) == (
        "bad_request",
        "The action must be a bid, double, redouble, play or pass.",
        {"rule": "an event is a seat and exactly one of bid, double, redouble, play"},
    )


def test_an_undo_on_a_voided_hand_is_refused() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    hand = hand_void(
        hand=hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand, reason="x"
    ).hand
    assert _refused(lambda: hand_action_undo(hand=_row(hand), reason="wrong").hand, hand) == (
        "hand_closed",
        "Only actions of a live hand can be undone.",
        {},
    )


def test_an_undo_on_a_result_only_hand_is_refused() -> None:
    hand = hand_record_result(
        hand=hand_create(table=factories.seated_table()).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    assert _refused(lambda: hand_action_undo(hand=_row(hand), reason="wrong").hand, hand)[:2] == (
        "hand_closed",
        "Only actions of a live hand can be undone.",
    )


def test_an_undo_on_a_confirmed_hand_is_refused() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _played_out(table)
    official = get_user_model().objects.create_user(username="second", password="x")
    hand = hand_confirm(hand=hand, recorded_by=official).hand
    assert _row(hand).confirmation == "confirmed"
    assert _refused(lambda: hand_action_undo(hand=_row(hand), reason="wrong").hand, hand) == (
        "hand_closed",
        "A confirmed hand cannot be undone.",
        {},
    )


def test_a_deal_written_in_that_is_no_deal_is_refused_naming_the_rule() -> None:
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=0).hand
    assert _refused(lambda: hand_deal_record(hand=hand, deal={}).hand, hand) == (
        "invalid_deal",
        "The deal does not split the pack into the seats' hands and the kitty as the rules say.",
        {"rule": "a deal needs three hands"},
    )


@pytest.mark.parametrize(
    "source",
    [{"seed": 3}, {"random_deal": True}, {"physical_cards": True}, {"deal": {}}],
    ids=["seed", "random", "physical", "deal"],
)
def test_a_hand_from_the_movement_with_another_source_is_refused(source: dict[str, Any]) -> None:
    table = factories.seated_table()
    assert _start_refused(table, board_from_movement=True, **source) == (
        "board_and_deal",
        "Give one of a board, an ad-hoc deal, a seed or physical cards, not several.",
    )


def test_no_hand_starts_once_the_tournament_is_finished() -> None:
    table = factories.seated_table()
    factories.tournament_set(table.round.tournament_id, status="finished")
    assert _start_refused(table) == (
        "results_final",
        "The final standings are published: the results are locked. A director can reopen "
        "them, with a reason.",
    )


def test_a_table_with_an_empty_seat_is_refused_saying_how_many_are_filled() -> None:
    table = factories.seated_table()
    seat_remove(seat=table.seats.get(position=2), reason="left ill")
    assert _start_refused(table) == (
        "table_not_full",
        f"Table {table.number} has 2 of its 3 seats filled: seat it first.",
    )


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_hand_starts_in_autocommit_in_its_own_transaction() -> None:
    """A command or a worker starts a hand outside any transaction: ``hand_create`` is its
    own (on PostgreSQL the table's row lock needs one: ``select_for_update`` outside a
    transaction is refused)."""
    table = factories.seated_table()
    hand = hand_create(table=table, deal=deal_from_seed(7).to_json()).hand
    assert (_row(hand).number, _row(hand).status) == (1, "bidding")


# ------------------------------------------------------------------ the full run's survivors
def test_an_ad_hoc_deal_that_is_not_an_object_is_refused_naming_the_field() -> None:
    table = factories.seated_table()
    with pytest.raises(ApplicationError) as caught:
        hand_create(table=table, deal=[1])  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.message, caught.value.extra) == (
        "invalid",
        "deal: must be an object.",
        {"fields": {"deal": ["must be an object."]}},
    )
    assert not Hand.objects.filter(table=table).exists()


def test_a_hand_number_taken_is_refused_naming_the_table_and_the_number() -> None:
    table = factories.seated_table()
    hand_void(hand=hand_create(table=table, number=2).hand, reason="misdeal")
    assert _start_refused(table, number=2) == (
        "hand_number_taken",
        f"Table {table.number} already has a hand 2.",
    )


def test_a_variant_hand_from_a_result_alone_is_refused_with_its_whole_message() -> None:
    table = factories.seated_table(rule_profile="four_p")
    assert _start_refused(table) == (
        "variant_needs_deal",
        "Hands under the four_p rules are refereed play by play (from a known deal or from "
        "physical cards), not from a result alone.",
    )


@pytest.mark.parametrize(
    "source",
    [{"seed": 3}, {"physical_cards": True, "first_bidder": 1}],
    ids=["seed", "physical"],
)
def test_a_hand_dealt_otherwise_in_a_duplicate_round_plays_no_board(source: dict[str, Any]) -> None:
    """The round's board is hand k's only when nothing else deals it."""
    table = factories.seated_table(format="duplicate")
    board = factories.BoardFactory(tournament=table.round.tournament, number=5)
    RoundBoard.objects.create(round=table.round, section=1, hand_number=1, board=board)
    hand = hand_create(table=table, **source).hand
    assert _row(hand).board_id is None


def test_a_new_hand_stores_the_empty_logs_snapshot() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    stored = _row(hand).state
    assert stored is not None and stored == hand_replay(hand=_row(hand)).snapshot
    assert (stored["actions"], stored["announced"]) == ([], [])


@pytest.mark.parametrize("seat", [6, 7, -1])
def test_a_seat_of_no_table_is_refused_by_the_rules_reading_of_the_action(seat: int) -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    assert _refused(
        lambda: hand_action_record(hand=hand, action={"seat": seat, "bid": 1}).hand, hand
    ) == (
        "bad_request",
        "The action must be a bid, double, redouble, play or pass.",
        {"rule": f"event seat must be 0, 1 or 2, got {seat}"},
    )


@pytest.mark.parametrize("seat", [3, 4, 5])  # a four-, five- or six-seat table's
def test_a_seat_of_bigger_tables_only_is_refused_naming_the_field(seat: int) -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    assert _refused(
        lambda: hand_action_record(hand=hand, action={"seat": seat, "bid": 1}).hand, hand
    ) == (
        "seat_not_at_table",
        "seat: must be a seat of the table, 0 to 2.",
        {"fields": {"seat": ["must be a seat of the table, 0 to 2."]}},
    )


def test_a_declaration_without_wild_cards_is_refused_with_its_whole_message() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    action = {"seat": 2, "play": "3", "as": "3"}
    assert _refused(lambda: hand_action_record(hand=hand, action=action).hand, hand) == (
        "no_wild_cards",
        f"The {hand.rule_profile} rules have no wild cards: a play declares nothing (as).",
        {},
    )


def test_a_play_before_the_wild_rank_is_entered_is_refused_with_its_whole_message() -> None:
    table = factories.seated_table(rule_profile="laizi")
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    hand = hand_action_record(hand=hand, action={"seat": 0, "bid": 3}).hand
    while hand.status == "doubling":  # nobody doubles
        state = hand_replay_stored(hand=_row(hand)).state
        assert state is not None
        hand = hand_action_record(hand=hand, action={"seat": state.turn, "double": False}).hand
    assert hand.status == "playing"
    assert _refused(
        lambda: hand_action_record(hand=hand, action={"seat": 0, "play": "3"}).hand, hand
    ) == (
        "wild_rank_missing",
        "Enter the wild rank drawn before the first play: it is drawn once the landlord is "
        "known (R11.2.1).",
        {},
    )


def test_a_retried_undo_answers_the_original_and_another_reason_is_a_conflict() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}, idempotency_key="bid").hand
    hand = hand_action_undo(hand=hand, reason="wrong seat", idempotency_key="undo").hand
    events = _events(hand)
    assert [e[0] for e in events] == ["bid", "undo"]
    written = hand_action_undo(hand=_row(hand), reason="wrong seat", idempotency_key="undo")
    assert (_events(hand), written.hand.version) == (events, 2)
    assert written.event is not None and written.event.seq == 2
    conflict = (
        "idempotency_conflict",
        "This idempotency key was already used for a different request.",
        {},
    )
    assert (
        _refused(
            lambda: (
                hand_action_undo(hand=_row(hand), reason="another", idempotency_key="undo").hand
            ),
            hand,
        )
        == conflict
    )
    # the key of the bid, sent for an undo with the bid's own words: another request
    assert (
        _refused(
            lambda: (
                hand_action_undo(hand=_row(hand), reason="wrong seat", idempotency_key="bid").hand
            ),
            hand,
        )
        == conflict
    )


def test_a_deal_with_another_first_bidder_is_refused_naming_the_hands() -> None:
    hand = _deal_ready()  # seat 2 bid first
    other = deal_from_seed(7, first_bidder=0).to_json()
    assert _refused(lambda: hand_deal_record(hand=hand, deal=other).hand, hand) == (
        "first_bidder_mismatch",
        f"The deal's first bidder must be the hand's ({seat_name(2)}).",
        {},
    )


def test_a_deal_that_breaks_the_log_is_disputed_as_irregular_with_the_checks_words() -> None:
    hand = _deal_ready()
    other = deal_from_seed(8, first_bidder=2).to_json()
    hand = hand_deal_record(hand=hand, deal=other, idempotency_key="deal").hand
    (deal_kind, deal_payload, key), (kind, payload, no_key) = _events(hand)[-2:]
    assert (deal_kind, key, kind, no_key) == ("deal", "deal", "dispute", None)
    assert deal_payload["check"]["ok"] is False
    assert payload == {"irregular": "deal_check_failed", "reason": deal_payload["check"]["rule"]}
    device = HandEvent.objects.filter(hand=hand).order_by("seq").last()
    assert device is not None and device.device_id == ""


def test_a_deal_key_reused_for_another_deal_or_after_an_action_is_a_conflict() -> None:
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    actions = random_hand_actions(deal, seed=4)
    hand = hand_action_record(hand=hand, action=actions[0], idempotency_key="first").hand
    for action in actions[1:]:
        hand = hand_action_record(hand=hand, action=action).hand
    conflict = (
        "idempotency_conflict",
        "This idempotency key was already used for a different request.",
        {},
    )
    assert (
        _refused(
            lambda: (
                hand_deal_record(hand=_row(hand), deal=deal.to_json(), idempotency_key="first").hand
            ),
            hand,
        )
        == conflict
    )
    hand = hand_deal_record(hand=_row(hand), deal=deal.to_json(), idempotency_key="deal").hand
    other = deal_from_seed(8, first_bidder=2).to_json()
    assert (
        _refused(
            lambda: hand_deal_record(hand=_row(hand), deal=other, idempotency_key="deal").hand, hand
        )
        == conflict
    )
    again = hand_deal_record(hand=_row(hand), deal=deal.to_json(), idempotency_key="deal").hand
    assert again.version == hand.version


def test_a_variant_result_alone_is_refused_with_its_whole_message() -> None:
    table = factories.seated_table(rule_profile="four_p")
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    entry = {"landlord": 0, "bid": 2, "winner": "landlord"}
    assert _refused(lambda: hand_record_result(hand=hand, **entry).hand, hand) == (
        "result_from_log",
        "Under the four_p rules a hand's result comes from its log of actions: play it to its "
        "end, or correct it to passed out, or void it.",
        {},
    )


def test_a_landlord_of_bigger_tables_only_is_refused_naming_the_field() -> None:
    hand = hand_create(table=factories.seated_table()).hand
    entry = {"landlord": 3, "bid": 2, "winner": "landlord"}
    assert _refused(lambda: hand_record_result(hand=hand, **entry).hand, hand) == (
        "seat_not_at_table",
        "landlord: must be a seat of the table, 0 to 2.",
        {"fields": {"landlord": ["must be a seat of the table, 0 to 2."]}},
    )


@pytest.mark.parametrize("landlord", [6, -1])
def test_a_landlord_of_no_table_is_refused_by_the_rules(landlord: int) -> None:
    hand = hand_create(table=factories.seated_table()).hand
    entry = {"landlord": landlord, "bid": 2, "winner": "landlord"}
    assert _refused(lambda: hand_record_result(hand=hand, **entry).hand, hand) == (
        "invalid_result",
        "The result contradicts itself.",
        {"rule": f"R2.2: landlord must be seat 0, 1 or 2, got {landlord}", "rule_number": "R2.2"},
    )


def test_a_result_entry_with_a_field_it_does_not_know_is_a_programming_error() -> None:
    hand = hand_create(table=factories.seated_table()).hand
    with pytest.raises(TypeError) as caught:
        result_entry({"landlord": 0, "bid": 2, "winner": "landlord", "x": 1}, hand=hand)
    assert str(caught.value) == "result_entry() got unexpected fields ['x']"


def test_a_retried_pass_out_answers_the_original_and_a_results_key_is_a_conflict() -> None:
    table = factories.seated_table()
    hand = hand_record_passed_out(hand=hand_create(table=table).hand, idempotency_key="flop").hand
    events = _events(hand)
    assert events == [("pass_out", events[0][1], "flop")]
    device = HandEvent.objects.get(hand=hand)
    assert device.device_id == ""
    again = hand_record_passed_out(hand=_row(hand), idempotency_key="flop").hand
    assert (_events(hand), again.version) == (events, 1)

    other = hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=0,
        bid=2,
        winner="landlord",
        idempotency_key="k",
    ).hand
    assert _refused(
        lambda: hand_record_passed_out(hand=_row(other), idempotency_key="k").hand, other
    ) == (
        "idempotency_conflict",
        "This idempotency key was already used for a different request.",
        {},
    )


def _fail_after_append(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*, hand: Hand, replay: Any = None) -> Hand:
        raise RuntimeError("the connection dropped after the append")

    monkeypatch.setattr(hand_writing, "hand_commit", broken)  # every write commits there


def _undo_ready() -> Hand:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    return hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand


def _deal_ready() -> Hand:
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    for action in random_hand_actions(deal, seed=4):
        hand = hand_action_record(hand=hand, action=action).hand
    return _row(hand)


_ONE_TRANSACTION = {
    "action": (
        lambda: hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand,
        lambda hand: hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand,
    ),
    "undo": (_undo_ready, lambda hand: hand_action_undo(hand=hand, reason="wrong seat").hand),
    "announcement": (
        lambda: _announcement_due()[0],
        lambda hand: (
            hand_announcement_record(
                hand=hand, seat=hand_replay_stored(hand=hand).announcements_due[0].seat
            ).hand
        ),
    ),
    "result": (
        lambda: hand_create(table=factories.seated_table()).hand,
        lambda hand: hand_record_result(hand=hand, landlord=0, bid=2, winner="landlord").hand,
    ),
    "deal": (
        _deal_ready,
        lambda hand: hand_deal_record(hand=hand, deal=deal_from_seed(7).to_json()).hand,
    ),
}


@pytest.mark.parametrize("write", sorted(_ONE_TRANSACTION))
def test_each_hand_write_is_one_transaction(write: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the append leaves no event behind: the service's own atomic block (a
    savepoint inside the test's transaction) rolls it back."""
    ready, call = _ONE_TRANSACTION[write]
    hand = ready()
    before = (_events(hand), _row(hand).version, _row(hand).state)
    _fail_after_append(monkeypatch)
    with pytest.raises(RuntimeError):
        call(_row(hand))
    assert (_events(hand), _row(hand).version, _row(hand).state) == before


def test_boards_are_what_the_tests_above_say() -> None:
    """The factory's board is a three-seat deal with no wild rank (the refusals above rest on
    it)."""
    board = factories.BoardFactory()
    assert (len(board.seat_cards), board.wild_rank) == (3, None)
    assert isinstance(board, Board)
