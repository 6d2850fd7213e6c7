"""Every score the rules can produce is stored and summed exactly (no 32-bit column, cast or
check on the way): six players are uncapped (R13.9: a landlord alone who springs five
farmers with 41 bombs takes 5 × 2^42), and a five-player landlord pays four times a farmer's
bid × 2^28 (R14.7), both beyond 2^31 − 1. On PostgreSQL an ``integer`` anywhere between the
hand's result and the standings (the per-seat rows, the hand's zero-sum check, the trigger
that holds a per-seat row to its hand, the standings' sums and snapshot) failed the hand's
write or the recompute with "integer out of range"."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse

from referee.rules.six_five_scoring import (
    MAX_BOMBS_FIVE,
    MAX_BOMBS_SIX,
    FiveResult,
    SixResult,
    score_five,
    score_six,
)
from tests import factories
from tournaments.common.profiles import rules_of
from tournaments.common.transactions import hand_write_atomic
from tournaments.hands.write import hand_create
from tournaments.hands.writing import HandWrite, NewEvent, hand_write
from tournaments.models import (
    Entry,
    Hand,
    HandEventKind,
    HandSeatResult,
    HandStatus,
    Round,
    RoundStatus,
    Seat,
    StandingSnapshot,
    Table,
)
from tournaments.standings.queries import entry_totals, standings_compute
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.penalties import penalty_create

pytestmark = pytest.mark.django_db

INT4_MAX = 2**31 - 1


@hand_write_atomic
def _close(hand: Hand, result: dict[str, Any], scores: tuple[int, ...]) -> HandWrite:
    """Close ``hand`` with a result event of ``result`` scored ``scores`` (the rules' own):
    the hand write every result goes through (``hand_write``: the event, then
    ``hand_commit``: the row's summary and the per-seat rows by ``hand_results_sync``), as
    a result-only entry writes it. A five-player hand's result comes from its log in the
    service; a log of 27 bombs is beyond a test, and its last play closes the hand through
    the same ``hand_commit``."""
    profile = rules_of(hand)
    payload = {
        "result": {"doubled": [False] * hand.seats, "redoubled": False, "rockets": 0, **result},
        "scores": list(scores),
        "rule_profile": profile.key,
        "rule_profile_hash": profile.content_hash,
        "needs_confirmation": False,
    }
    return hand_write(
        hand=hand,
        idempotency_key=None,
        expected_version=None,
        same_request=lambda e: False,
        decide=lambda locked, replay: NewEvent(HandEventKind.RESULT, payload),
    )


def _table(profile: str) -> Table:
    table = factories.seated_table(
        rule_profile=profile, tiebreaks=["head_to_head", "registration"], hands_per_round=4
    )
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    return table


def _entries(table: Table) -> dict[int, Entry]:
    return {s.position: s.entry for s in Seat.objects.filter(table=table).select_related("entry")}


def _check_stored(table: Table, totals: dict[int, int], penalties: dict[int, int]) -> None:
    """The per-seat rows, the standings computed and their snapshot say ``totals`` (seat →
    the exact sum of its scores) plus ``penalties``, as Python ints."""
    entries = _entries(table)
    tournament = table.round.tournament
    by_entry = {entries[p].pk: t for p, t in totals.items()}
    rows = HandSeatResult.objects.filter(tournament=tournament)
    sums: dict[int, int] = {}
    for entry_id, score in rows.values_list("entry_id", "score"):
        assert type(score) is int
        sums[entry_id] = sums.get(entry_id, 0) + score
    assert sums == by_entry
    standings = {s.entry_id: s for s in standings_compute(tournament=tournament)}
    for position, entry in entries.items():
        wanted = totals[position] + penalties.get(position, 0)
        assert standings[entry.pk].deal_points == totals[position]
        assert standings[entry.pk].total == wanted
        read = entry_totals(entry=entry)  # the player page's one query (Django's Sum)
        assert (read.deal_points, read.penalty_points) == (
            totals[position],
            penalties.get(position, 0),
        )
        assert type(read.deal_points) is int and type(read.penalty_points) is int
    version = standings_snapshot_update(tournament_id=tournament.pk)
    assert version is not None
    snapshot = {
        s.entry_id: s for s in StandingSnapshot.objects.filter(tournament=tournament)
    }  # the database's own check held the rows to their sums (migration 0027)
    for position, entry in entries.items():
        row = snapshot[entry.pk]
        assert (row.deal_points, row.penalty_points, row.total) == (
            totals[position],
            penalties.get(position, 0),
            totals[position] + penalties.get(position, 0),
        )
    assert standings_snapshot_update(tournament_id=tournament.pk) == version  # idempotent


def test_six_players_uncapped_store_and_sum_a_landlord_alone_springing_41_bombs() -> None:
    table = _table("six_p")
    assert table.round.tournament.stake_cap is None  # uncapped: the rules' own bound
    totals = dict.fromkeys(range(6), 0)
    for _ in range(2):
        hand = hand_create(table=table, random_deal=True).hand
        landlord = hand.landlord_seat  # the face-up card's holder (R13.3)
        assert landlord is not None
        result = SixResult(
            landlord=landlord,
            partner=None,
            bombs=MAX_BOMBS_SIX,
            spring=True,
            anti_spring=False,
            winner="landlord",
        )
        scores = score_six(result)
        assert scores[landlord] == 5 * 2**42 > INT4_MAX
        assert all(s == -(2**42) for p, s in enumerate(scores) if p != landlord)
        _close(hand, {**result.to_json(), "bid": 1}, scores)
        hand.refresh_from_db()
        assert hand.status == HandStatus.FINISHED and hand.scores == list(scores)
        rows = HandSeatResult.objects.filter(hand=hand).order_by("position")
        assert [r.score for r in rows] == list(scores)
        assert [r.won for r in rows] == [p == landlord for p in range(6)]
        for position, score in enumerate(scores):
            totals[position] += score
    entries = _entries(table)
    seat = next(p for p, t in totals.items() if t < 0)
    penalty_create(entry=entries[seat], points=-10_000, reason="slow play")
    _check_stored(table, totals, {seat: -10_000})


def test_five_players_store_a_landlord_paying_four_times_a_farmer_beyond_2_31() -> None:
    table = _table("five_p")
    hand = hand_create(table=table, random_deal=True).hand
    result = FiveResult(
        landlord=2, bid=3, bombs=MAX_BOMBS_FIVE, spring=False, anti_spring=True, winner="defenders"
    )
    scores = score_five(result)
    assert scores[2] == -4 * 3 * 2**28 < -INT4_MAX - 1
    assert all(s == 3 * 2**28 for p, s in enumerate(scores) if p != 2)
    _close(hand, result.to_json(), scores)
    hand.refresh_from_db()
    assert hand.scores == list(scores)
    assert [r.score for r in HandSeatResult.objects.filter(hand=hand).order_by("position")] == list(
        scores
    )
    _check_stored(table, dict(enumerate(scores)), {})


def test_the_public_standings_show_totals_beyond_2_31(client: Any) -> None:
    table = _table("six_p")
    tournament = table.round.tournament
    hand = hand_create(table=table, random_deal=True).hand
    landlord = hand.landlord_seat
    assert landlord is not None
    result = SixResult(landlord, None, MAX_BOMBS_SIX, True, False, "landlord")
    _close(hand, {**result.to_json(), "bid": 1}, score_six(result))
    standings_snapshot_update(tournament_id=tournament.pk)
    response = client.get(reverse("public:standings-csv", args=[tournament.slug]))
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert sorted(int(r["Total"]) for r in rows) == [-(2**42)] * 5 + [5 * 2**42]
    winner = _entries(table)[landlord]
    for url in (
        reverse("public:standings", args=[tournament.slug]),
        reverse("public:player", args=[tournament.slug, winner.pk]),  # ``entry_totals``
    ):
        page = client.get(url)
        assert page.status_code == 200
        assert str(5 * 2**42) in page.content.decode()
