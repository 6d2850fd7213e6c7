"""The one write path for hand actions (tournaments.hands.write) and its corrections."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.actions import action_from_json
from referee.rules.cards import Deal, deal_from_seed
from referee.rules.hand import HandState
from referee.rules.physical import PhysicalHandState
from referee.rules.profiles import get_profile
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands.confirmation import hand_confirm, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.replay import hand_check_replays
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_announcement_record,
    hand_create,
    hand_deal_record,
    hand_record_result,
)
from tournaments.models import Hand, HandEvent, HandSeatResult, Penalty, Table, Tournament
from tournaments.tournament.penalties import penalty_create, penalty_revoke

pytestmark = pytest.mark.django_db
SEED = 7


def play_all(hand: Hand, actions: list[dict[str, Any]], **kwargs: Any) -> Hand:
    for action in actions:
        hand = hand_action_record(hand=hand, action=action, **kwargs).hand
    return hand


def refresh(hand: Hand) -> Hand:
    return Hand.objects.get(pk=hand.pk)


def test_a_complete_hand_is_scored_from_its_log(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=1)

    hand = play_all(hand, actions)

    state = HandState.from_events(deal, actions, get_profile("comp2016"))
    stored = refresh(hand)
    assert stored.status == "finished" and stored.version == len(actions)
    assert stored.scores == list(state.scores())
    assert (stored.landlord_seat, stored.bid, stored.winner) == (
        state.landlord,
        state.bid,
        state.winner,
    )
    assert (stored.bombs, stored.rockets, stored.spring, stored.anti_spring) == (
        state.bombs,
        state.rockets,
        state.spring,
        state.anti_spring,
    )
    assert HandSeatResult.objects.filter(hand=hand).count() == 3
    assert hand_check_replays(hand=stored) == []


def test_the_same_hand_entered_result_only_scores_the_same(seated_table: Table) -> None:
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=2)
    played = play_all(hand_create(table=seated_table, seed=SEED).hand, actions)
    result = HandState.from_events(deal, actions, get_profile("comp2016")).result()
    assert result is not None

    entered = hand_record_result(
        hand=hand_create(table=seated_table).hand,
        landlord=result.landlord,
        bid=result.bid,
        winner=result.winner,
        doubled=result.doubled,
        redoubled=result.redoubled,
        bombs=result.bombs,
        rockets=result.rockets,
        spring=result.spring,
        anti_spring=result.anti_spring,
    ).hand

    assert refresh(entered).scores == refresh(played).scores


def test_r9_1_a_rejected_action_changes_nothing_and_says_why(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    first = deal_from_seed(SEED).first_bidder
    wrong_seat = (first + 1) % 3

    with pytest.raises(ApplicationError) as excinfo:
        hand_action_record(hand=hand, action={"seat": wrong_seat, "bid": 1})

    assert excinfo.value.code == "out_of_turn"
    assert excinfo.value.extra["index"] == 0
    assert refresh(hand).version == 0 and not HandEvent.objects.filter(hand=hand).exists()


def opening(deal: Deal) -> tuple[HandState, list[dict[str, Any]]]:
    """The first bidder bids 3, nobody doubles: the state at the landlord's first lead."""
    state = HandState(deal, get_profile("comp2016"))
    state.push(state.legal_actions()[-1])  # bid 3
    while state.phase.value == "doubling":
        no = [a for a in state.legal_actions() if a.to_json().get("double") is False]
        state.push(no[0] if no else state.legal_actions()[-1])
    return state, state.to_events()


def test_does_not_beat_names_the_play_to_beat(seated_table: Table) -> None:
    deal = deal_from_seed(SEED)
    state, actions = opening(deal)
    landlord = state.landlord
    assert landlord is not None
    hand = play_all(hand_create(table=seated_table, seed=SEED).hand, actions)
    highest = str(state.hand_of(landlord)[-1])
    hand = hand_action_record(hand=hand, action={"seat": landlord, "play": highest}).hand
    follower = (landlord + 1) % 3
    lowest = str(state.hand_of(follower)[0])

    with pytest.raises(ApplicationError) as excinfo:
        hand_action_record(hand=hand, action={"seat": follower, "play": lowest})

    assert excinfo.value.code == "does_not_beat"
    assert excinfo.value.extra["top"] == {"seat": landlord, "cards": highest.lstrip("♠♥♣♦")}
    assert excinfo.value.extra["index"] == len(actions) + 1


def test_retry_with_the_same_key_records_once(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    action = {"seat": deal_from_seed(SEED).first_bidder, "bid": 1}
    hand_action_record(hand=hand, action=action, idempotency_key="k1")
    again = hand_action_record(hand=hand, action=action, idempotency_key="k1").hand
    assert again.version == 1 and HandEvent.objects.filter(hand=hand).count() == 1
    with pytest.raises(ApplicationError) as excinfo:
        hand_action_record(hand=hand, action={**action, "bid": 2}, idempotency_key="k1")
    assert excinfo.value.code == "idempotency_conflict"


def test_a_stale_version_is_a_conflict(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    first = deal_from_seed(SEED).first_bidder
    hand_action_record(hand=hand, action={"seat": first, "bid": 1}, expected_version=0)
    with pytest.raises(ApplicationError) as excinfo:
        hand_action_record(
            hand=hand, action={"seat": (first + 1) % 3, "bid": 2}, expected_version=0
        )
    assert excinfo.value.code == "version_conflict"
    assert excinfo.value.extra == {"version": 1}


def test_undo_takes_back_the_last_action_and_reopens_a_finished_hand(seated_table: Table) -> None:
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=3)
    hand = play_all(hand_create(table=seated_table, seed=SEED).hand, actions)
    assert refresh(hand).status == "finished"

    hand = hand_action_undo(hand=hand, reason="wrong cards typed").hand

    stored = refresh(hand)
    assert stored.status == "playing" and stored.scores is None
    assert not HandSeatResult.objects.filter(hand=hand).exists()
    assert HandEvent.objects.filter(hand=hand).count() == len(actions) + 1  # nothing deleted
    hand = hand_action_record(hand=hand, action=actions[-1]).hand
    assert refresh(hand).status == "finished"
    assert hand_check_replays(hand=refresh(hand)) == []


def test_undo_needs_a_reason_and_an_action(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    with pytest.raises(ApplicationError) as excinfo:
        hand_action_undo(hand=hand, reason="x")
    assert excinfo.value.code == "nothing_to_undo"
    with pytest.raises(ApplicationError) as excinfo:
        hand_action_undo(hand=hand, reason=" ")
    assert excinfo.value.code == "reason_required"


def test_r6_1_announcements_are_due_then_confirmed_or_logged_missing(seated_table: Table) -> None:
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=4)
    state = HandState(deal, get_profile("comp2016"))
    hand = hand_create(table=seated_table, seed=SEED).hand
    made = 0
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
        state.push(action_from_json(action))
        due = state.announcement_due
        if due is not None and not state.is_over:
            hand = hand_announcement_record(hand=hand, seat=due.seat, made=made % 2 == 0).hand
            made += 1
            with pytest.raises(ApplicationError) as excinfo:
                hand_announcement_record(hand=hand, seat=due.seat)
            assert excinfo.value.code == "no_announcement_due"
    kinds = list(HandEvent.objects.filter(hand=hand).values_list("kind", flat=True))
    assert kinds.count("announce") + kinds.count("announce_missing") == made > 0
    assert hand_check_replays(hand=refresh(hand)) == []


def test_void_and_correct_are_new_events(seated_table: Table) -> None:
    hand = hand_record_result(
        hand=hand_create(table=seated_table).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    corrected = hand_result_correct(
        hand=hand, reason="bid was 3", landlord=0, bid=3, winner="landlord"
    ).hand
    assert refresh(corrected).scores == [6, -3, -3]
    assert HandSeatResult.objects.filter(hand=hand, position=0).get().score == 6
    voided = hand_void(hand=hand, reason="misdeal").hand
    stored = refresh(voided)
    assert stored.status == "voided" and not stored.counts
    assert not HandSeatResult.objects.filter(hand=hand).exists()
    assert list(HandEvent.objects.filter(hand=hand).values_list("kind", flat=True)) == [
        "result",
        "correction",
        "void",
    ]
    with pytest.raises(ApplicationError) as excinfo:
        hand_action_record(hand=hand, action={"seat": 0, "bid": 1})
    assert excinfo.value.code == "hand_closed"


def test_a_live_hand_is_not_corrected_and_a_logged_hand_takes_no_result(
    seated_table: Table,
) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    hand = hand_action_record(
        hand=hand, action={"seat": deal_from_seed(SEED).first_bidder, "bid": 1}
    ).hand
    with pytest.raises(ApplicationError) as excinfo:
        hand_result_correct(hand=hand, reason="r", landlord=0, bid=1, winner="landlord")
    assert excinfo.value.code == "hand_not_closed"
    with pytest.raises(ApplicationError) as excinfo:
        hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord")
    assert excinfo.value.code == "hand_logged_live"


def test_confirmation_needs_a_second_person(referee: Any, director: Any) -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=1,
        bid=1,
        winner="defenders",
        recorded_by=referee,
    ).hand
    assert refresh(hand).confirmation == "pending" and not refresh(hand).counts
    assert not HandSeatResult.objects.filter(hand=hand).exists()
    with pytest.raises(ApplicationError) as excinfo:
        hand_confirm(hand=hand, recorded_by=referee)
    assert excinfo.value.code == "second_person_required"

    hand_dispute(hand=hand, reason="winner was the landlord", recorded_by=director)
    assert refresh(hand).confirmation == "disputed"
    hand_result_correct(
        hand=hand, reason="fixed", landlord=1, bid=1, winner="landlord", recorded_by=director
    )
    assert refresh(hand).confirmation == "pending"
    hand_confirm(hand=hand, recorded_by=referee)
    stored = refresh(hand)
    assert stored.confirmation == "confirmed" and stored.counts
    assert HandSeatResult.objects.filter(hand=hand).count() == 3
    assert hand_check_replays(hand=stored) == []


def test_penalties_are_records_revoked_not_deleted(seated_table: Table, director: Any) -> None:
    entry = seated_table.seats.get(position=0).entry
    tournament = Tournament.objects.get(pk=entry.tournament_id)
    before = tournament.log_version
    penalty = penalty_create(
        entry=entry, points=-2, reason="signal", recorded_by=director, idempotency_key="p1"
    )
    again = {"reason": "signal", "recorded_by": director, "idempotency_key": "p1"}
    assert penalty_create(entry=entry, points=-2, **again) == penalty
    with pytest.raises(ApplicationError) as excinfo:
        penalty_create(entry=entry, points=-3, **again)
    assert excinfo.value.code == "idempotency_conflict"
    revoked = penalty_revoke(penalty=penalty, reason="mistake", recorded_by=director)
    assert revoked.revoked_at is not None and Penalty.objects.count() == 1
    tournament.refresh_from_db()
    assert tournament.log_version == before + 2
    with pytest.raises(ApplicationError) as excinfo:
        penalty_create(entry=entry, points=0, reason="x")
    assert excinfo.value.code == "invalid_penalty"


def test_physical_cards_hand_is_played_then_checked_against_its_deal(seated_table: Table) -> None:
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=5)
    hand = hand_create(table=seated_table, physical_cards=True, first_bidder=deal.first_bidder).hand
    hand = play_all(hand, actions)
    expected = HandState.from_events(deal, actions, get_profile("comp2016")).scores()
    assert refresh(hand).scores == list(expected)

    hand = hand_deal_record(hand=hand, deal=deal.to_json()).hand
    last = HandEvent.objects.filter(hand=hand).last()
    assert last is not None and last.payload["check"] == {"ok": True}

    other = deal_from_seed(SEED + 1, first_bidder=deal.first_bidder)
    hand = hand_deal_record(hand=hand, deal=other.to_json()).hand
    last = HandEvent.objects.filter(hand=hand, kind="deal").last()
    assert last is not None and last.payload["check"]["ok"] is False
    assert last.payload["check"]["code"] == "not_held"
    assert isinstance(last.payload["check"]["index"], int)
    assert hand_check_replays(hand=refresh(hand)) == []
    assert not refresh(hand).counts  # irregular until a director keeps, corrects or voids it


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), play_seed=st.integers(0, 10_000), undo=st.booleans())
def test_every_stored_summary_is_the_replay_of_its_log(
    seated_table: Table, seed: int, play_seed: int, undo: bool
) -> None:
    seated_table = factories.seated_table()  # a table per example: one live hand per table
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed, bid_first=False)
    hand = play_all(hand_create(table=seated_table, seed=seed).hand, actions[: len(actions) // 2])
    if undo and hand.version:
        hand = hand_action_undo(hand=hand, reason="typo").hand
    for hand in Hand.objects.filter(table=seated_table):
        assert hand_check_replays(hand=hand) == []


def _independent_scores(hand: Hand) -> tuple[int, int, int] | None:
    """Scores from the log without the service's replay: actions minus undone ones, through
    the rules library; the last result or correction wins; a void clears them."""
    actions: list[dict[str, Any]] = []
    result: tuple[int, int, int] | None = None
    voided = False
    for event in HandEvent.objects.filter(hand=hand).order_by("seq"):
        if event.kind in ("bid", "double", "redouble", "play"):
            actions.append(event.payload["action"])
        elif event.kind == "undo":
            actions.pop()
        elif event.kind in ("result", "correction"):
            s0, s1, s2 = event.payload["scores"]
            result = (s0, s1, s2)
        elif event.kind == "void":
            voided = True
    if voided:
        return None
    if result is not None:
        return result
    if not actions:
        return None
    profile = get_profile(hand.rule_profile)
    if hand.physical_cards:
        return PhysicalHandState.from_events(hand.first_bidder or 0, actions, profile).scores()
    deal = Deal.from_json(hand.deal) if hand.deal else None
    assert deal is not None
    return HandState.from_events(deal, actions, profile).scores()


def test_every_hand_in_the_database_is_a_projection_of_its_log(director: Any) -> None:
    def table() -> Any:
        """A table per hand: one live hand per table, and an undo reopens a hand."""
        return factories.seated_table(requires_confirmation=True)

    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=9)
    played = play_all(hand_create(table=table(), seed=SEED).hand, actions)
    hand_action_undo(hand=played, reason="typo")
    play_all(
        hand_create(table=table(), seed=SEED + 1).hand,
        random_hand_actions(deal_from_seed(SEED + 1), seed=1),
    )
    half = hand_create(table=table(), seed=SEED + 2).hand
    play_all(half, random_hand_actions(deal_from_seed(SEED + 2), seed=2)[:7])
    entered = hand_record_result(
        hand=hand_create(table=table()).hand, landlord=2, bid=2, winner="defenders"
    ).hand
    hand_result_correct(hand=entered, reason="r", landlord=2, bid=3, winner="defenders")
    hand_confirm(hand=entered, recorded_by=director)
    voided = hand_record_result(
        hand=hand_create(table=table()).hand, landlord=0, bid=1, winner="landlord"
    ).hand
    hand_void(hand=voided, reason="misdeal")
    physical = play_all(
        hand_create(table=table(), physical_cards=True, first_bidder=deal.first_bidder).hand,
        actions,
    )
    hand_deal_record(hand=physical, deal=deal.to_json())

    hands = list(Hand.objects.all())
    assert len(hands) == 6
    for hand in hands:
        assert hand_check_replays(hand=hand) == [], hand
        independent = _independent_scores(hand)
        assert refresh(hand).scores == (None if independent is None else list(independent)), hand
