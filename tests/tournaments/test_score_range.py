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
import json
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
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
from tests.api.helpers import assign, client_for, post, referee_user
from tournaments.hands.results import hand_results_sync
from tournaments.models import (
    Entry,
    Hand,
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


def _closed(table: Table, result: SixResult | FiveResult, scores: tuple[int, ...]) -> Hand:
    """A hand of ``table`` closed with ``result`` and its scores (the rules' own), and its
    per-seat rows written as every closed hand's are (``hand_results_sync``: the rows, the
    tournament's log version). The row is built, not played: a log of 41 (or 27) bombs is
    beyond a test, and whatever closes a hand (its last play, a result entry) ends here."""
    seats = len(scores)
    hand = factories.HandFactory(
        table=table,
        seats=seats,
        doubled=[False] * seats,
        status=HandStatus.FINISHED,
        landlord_seat=result.landlord,
        partner_seat=getattr(result, "partner", None),
        bid=getattr(result, "bid", 1),
        winner=result.winner,
        bombs=result.bombs,
        spring=result.spring,
        anti_spring=result.anti_spring,
        scores=list(scores),
    )
    hand_results_sync(hand=hand)
    hand.refresh_from_db()
    assert hand.counts and hand.scores == list(scores)
    rows = HandSeatResult.objects.filter(hand=hand).order_by("position")
    assert [(r.position, r.score) for r in rows] == list(enumerate(scores))
    return hand


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
    for landlord in (3, 0):
        result = SixResult(
            landlord=landlord,
            partner=None,  # alone (R13.5)
            bombs=MAX_BOMBS_SIX,
            spring=True,
            anti_spring=False,
            winner="landlord",
        )
        scores = score_six(result)
        assert scores[landlord] == 5 * 2**42 > INT4_MAX
        assert all(s == -(2**42) for p, s in enumerate(scores) if p != landlord)
        hand = _closed(table, result, scores)
        rows = HandSeatResult.objects.filter(hand=hand).order_by("position")
        assert [r.won for r in rows] == [p == landlord for p in range(6)]
        for position, score in enumerate(scores):
            totals[position] += score
    entries = _entries(table)
    seat = next(p for p, t in totals.items() if t < 0)
    penalty_create(entry=entries[seat], points=-10_000, reason="slow play")
    _check_stored(table, totals, {seat: -10_000})


def test_five_players_store_a_landlord_paying_four_times_a_farmer_beyond_2_31() -> None:
    table = _table("five_p")
    result = FiveResult(
        landlord=2, bid=3, bombs=MAX_BOMBS_FIVE, spring=False, anti_spring=True, winner="defenders"
    )
    scores = score_five(result)
    assert scores[2] == -4 * 3 * 2**28 < -INT4_MAX - 1
    assert all(s == 3 * 2**28 for p, s in enumerate(scores) if p != 2)
    _closed(table, result, scores)
    _check_stored(table, dict(enumerate(scores)), {})


def test_the_public_standings_show_totals_beyond_2_31(client: Any) -> None:
    table = _table("six_p")
    tournament = table.round.tournament
    landlord = 4
    result = SixResult(landlord, None, MAX_BOMBS_SIX, True, False, "landlord")
    _closed(table, result, score_six(result))
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


@pytest.mark.parametrize(
    ("scores", "sound"),
    [
        ([5 * 2**42, *[-(2**42)] * 5], True),
        ([2**63 - 1, -(2**63 - 1), 0, 0, 0, 0], True),
        ([5 * 2**42, *[-(2**42)] * 4, -(2**42) + 1], False),  # not zero-sum
    ],
)
def test_the_hand_check_takes_every_64_bit_score_and_refuses_others(
    scores: list[int], sound: bool
) -> None:
    table = _table("six_p")
    fields = {
        "table": table, "rule_profile": "six_p", "seats": 6, "doubled": [False] * 6,
        "status": HandStatus.FINISHED, "landlord_seat": 0, "bid": 1, "winner": "landlord",
        "scores": scores,
    }  # fmt: skip
    if sound:
        hand = factories.HandFactory(**fields)
        hand.refresh_from_db()
        assert hand.scores == scores
        return
    with (
        pytest.raises(IntegrityError, match="hand_scores_one_a_seat_zero_sum"),
        transaction.atomic(),
    ):
        factories.HandFactory(**fields)


@pytest.mark.postgresql
@pytest.mark.parametrize(
    ("scores", "sound"),
    [
        ([5 * 2**42, *[-(2**42)] * 5], True),
        ([2**63 - 1, 2**63 - 1, -(2**63 - 1), -(2**63 - 1), 0, 0], True),  # sums past 2^63
        ([2**63, -(2**63), 0, 0, 0, 0], False),  # no bigint: refused, not an error
        ([10**30, -(10**30), 0, 0, 0, 0], False),
    ],
)
def test_postgresql_scores_check_adds_up_without_overflow(scores: list[int], sound: bool) -> None:
    """PostgreSQL's ``hand_scores_sound`` (migration 0038) answers for any JSON integer: it
    adds the scores as numeric and refuses one that no bigint column could hold."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT hand_scores_sound(%s::jsonb, 6)", [json.dumps(scores)])
        assert cursor.fetchone() == (sound,)


def test_a_referee_enters_a_six_player_result_beyond_2_31_through_the_api() -> None:
    """The result-only entry of the referee's phone: the hand that answered a 500 on
    PostgreSQL ("integer out of range") is recorded, and the standings add it up."""
    table = _table("six_p")
    referee = referee_user("six-range-referee")
    assign(referee, table)
    client = client_for(referee)
    totals = dict.fromkeys(range(6), 0)
    for landlord in (1, 5):
        hand = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()
        body = {"landlord": landlord, "partner": None, "winner": "landlord", "bombs": 41}
        answer = post(client, f"/api/v1/hands/{hand['id']}/result/", {**body, "spring": True})
        assert answer.status_code == 200, answer.json()
        scores = score_six(SixResult(landlord, None, MAX_BOMBS_SIX, True, False, "landlord"))
        assert answer.json()["scores"] == list(scores)
        for position, score in enumerate(scores):
            totals[position] += score
    _check_stored(table, totals, {})
