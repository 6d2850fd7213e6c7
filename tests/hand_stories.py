"""Hands whose logs hold every kind of event, written through the services: for the tests
of the log in words (public replay, director's log) and the screens in 简体中文."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from referee.rules.cards import Deal, deal_from_seed
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands.confirmation import hand_confirm, hand_dispute
from tournaments.hands.corrections import hand_irregular_keep, hand_result_correct, hand_void
from tournaments.hands.replay import hand_deal
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_announcement_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
)
from tournaments.models import Hand, Table
from tournaments.tournament.penalties import penalty_create


@dataclass
class Story:
    """The hands of one table: ``logged`` played card by card (an undo, a missing 报牌,
    a director's override, a dispute and a confirmation), ``result`` entered as a result
    then voided, ``passed_out``, and ``irregular`` (physical cards whose written-in deal
    does not fit, kept as played)."""

    table: Table
    logged: Hand
    result: Hand
    passed_out: Hand
    irregular: Hand


def _play(hand: Hand, actions: list[dict[str, Any]], *, missing: int = 0) -> Hand:
    """Record ``actions``; the first ``missing`` 报牌 due are logged as missing, the others
    made."""
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
        for seat in range(3):
            with contextlib.suppress(ApplicationError):  # nothing due for this seat
                hand = hand_announcement_record(hand=hand, seat=seat, made=missing <= 0).hand
                missing -= 1
    return hand


def story(table: Table, *, seed: int = 5) -> Story:
    """Every kind of hand event at ``table`` (its tournament needs confirmation)."""
    referee = factories.UserFactory(username="story-referee")
    director = factories.UserFactory(username="story-director", is_staff=True)

    logged = hand_create(table=table, seed=seed).hand
    deal = hand_deal(hand=logged)
    assert deal is not None
    actions = random_hand_actions(Deal.from_json(deal.to_json()), seed=seed)
    logged = _play(logged, actions[:6])
    logged = hand_action_undo(hand=logged, reason="wrong card tapped", recorded_by=referee).hand
    logged = _play(logged, actions[5:], missing=1)
    assert logged.status == "finished"
    logged = hand_dispute(hand=logged, reason="the score looks wrong", recorded_by=director).hand
    other = "landlord" if logged.winner == "defenders" else "defenders"
    logged = hand_result_correct(
        hand=logged,
        reason="the table agreed",
        landlord=logged.landlord_seat,
        bid=logged.bid,
        winner=other,
        doubled=logged.doubled,
        redoubled=logged.redoubled,
        bombs=logged.bombs,
        rockets=logged.rockets,
        override=True,
        recorded_by=director,
    ).hand
    logged = hand_confirm(hand=logged, recorded_by=referee).hand
    penalty_create(
        entry=table.seats.get(position=1).entry,
        points=-5,
        reason="late 报牌",
        hand=logged,
        recorded_by=director,
    )

    result = hand_create(table=table).hand
    result = hand_record_result(
        hand=result,
        landlord=1,
        bid=2,
        winner="landlord",
        doubled=(True, False, False),
        bombs=1,
        spring=True,
        recorded_by=referee,
    ).hand
    result = hand_void(hand=result, reason="misdeal", recorded_by=director).hand

    passed_out = hand_record_passed_out(
        hand=hand_create(table=table).hand, recorded_by=referee
    ).hand

    physical = deal_from_seed(seed + 100)
    irregular = hand_create(
        table=table, physical_cards=True, first_bidder=physical.first_bidder
    ).hand
    for action in random_hand_actions(physical, seed=seed):
        irregular = hand_action_record(hand=irregular, action=action).hand
    written = deal_from_seed(seed + 101, first_bidder=physical.first_bidder)
    irregular = hand_deal_record(hand=irregular, deal=written.to_json(), recorded_by=referee).hand
    irregular = hand_irregular_keep(
        hand=irregular, reason="the deal was written in wrongly", recorded_by=director
    ).hand
    return Story(table, logged, result, passed_out, irregular)
