"""The JSON archive covers the whole model: every event kind, seating, byes, round logs,
corrections, penalties (one revoked), confirmation, exclusions, the rounds planned;
export → import → export is identical."""

import json
from typing import Any, cast

import pytest
from django.db import transaction

from tests import factories
from tests.play import random_hand_actions
from tournaments.archive.export import archive_dumps, tournament_archive
from tournaments.archive.restore import ArchiveError, tournament_import
from tournaments.hands.confirmation import hand_confirm, hand_dispute
from tournaments.hands.corrections import hand_void
from tournaments.hands.exclusions import exclusions_shown, hand_exclude
from tournaments.hands.gate import round_gate
from tournaments.hands.replay import hand_check_replays, hand_deal, hand_replay
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_announcement_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
)
from tournaments.models import (
    Hand,
    HandEvent,
    HandEventKind,
    HandExclusion,
    HandSeatResult,
    RoundBye,
    RoundLog,
    Seat,
    Tournament,
)
from tournaments.rounds.services import round_create, round_start
from tournaments.seating.services import round_seat, seat_correct
from tournaments.standings.queries import standings_compute
from tournaments.tournament.penalties import penalty_create, penalty_revoke

pytestmark = pytest.mark.django_db


def _play(hand: Hand, actions: list[dict[str, Any]], *, announce: bool = True) -> Hand:
    """Record ``actions`` through the write path; each due 报牌 is confirmed (the first)
    or logged as missing (the rest)."""
    made = True
    for action in actions:
        hand = hand_action_record(hand=hand, action=action, device_id="phone-1").hand
        if announce and hand.status == "playing":
            for due in hand_replay(hand=hand).announcements_due:
                hand = hand_announcement_record(hand=hand, seat=due.seat, made=made).hand
                made = False
    return hand


def _eventful(director: Any) -> Tournament:
    """Seven players (two tables and a bye), seated by the engine, with every kind of hand,
    three rounds planned, and two exclusions: a disputed hand and one table two never played."""
    tournament = factories.TournamentFactory(
        requires_confirmation=True,
        separate_clubs=True,
        tiebreaks=["registration"],
        rounds_planned=3,
    )
    entries = [
        factories.EntryFactory(tournament=tournament, registration_order=i + 1) for i in range(7)
    ]
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=5, recorded_by=director)
    round_start(round=round_, recorded_by=director)
    one, two = round_.tables.order_by("number")

    played = hand_create(table=one, seed=3).hand
    deal = hand_deal(hand=played)  # the seed's cards, the table's first-bidder turn
    assert deal is not None
    actions = random_hand_actions(deal, seed=4)
    played = _play(played, actions[:-1])
    played = hand_action_undo(hand=played, reason="wrong card").hand
    played = _play(played, actions[-2:])
    hand_confirm(hand=played, recorded_by=director)
    disputed = hand_record_result(
        hand=hand_create(table=one).hand, landlord=1, bid=2, winner="landlord"
    ).hand
    hand_dispute(hand=disputed, reason="kitty miscounted", recorded_by=director)
    hand_record_passed_out(hand=hand_create(table=one).hand)
    voided = hand_record_result(
        hand=hand_create(table=one).hand, landlord=0, bid=1, winner="defenders"
    ).hand
    hand_void(hand=voided, reason="misdeal")
    physical = _play(
        hand_create(table=one, physical_cards=True, first_bidder=deal.first_bidder).hand,
        actions,
        announce=False,
    )
    hand_deal_record(hand=physical, deal=deal.to_json())

    at_two = hand_record_result(
        hand=hand_create(table=two).hand, landlord=2, bid=3, winner="landlord"
    ).hand
    bye = RoundBye.objects.get(round=round_)
    seat = Seat.objects.get(table=two, position=0)
    seat_correct(seat=seat, entry=bye.entry, reason="sat at the wrong table", recorded_by=director)
    at_two_entry = Seat.objects.get(table=two, position=1).entry
    penalty_create(entry=at_two_entry, points=-2, reason="R9.2 slow play", hand=at_two)
    mistaken = penalty_create(entry=entries[1], points=-5, reason="R9.3")
    penalty_revoke(penalty=mistaken, reason="wrong player", recorded_by=director)
    hand_exclude(table=one, number=2, reason="kitty lost, 牌丢了", recorded_by=director)
    hand_exclude(table=two, number=2, reason="table left early", recorded_by=director)
    return cast(Tournament, tournament)


Ranking = list[tuple[int, int, int]]


def _ranking(tournament: Tournament) -> Ranking:
    return [
        (s.rank, s.total, s.registration_order) for s in standings_compute(tournament=tournament)
    ]


@pytest.fixture(scope="module")
def eventful(django_db_setup: Any, django_db_blocker: Any) -> tuple[str, Ranking]:
    """The eventful tournament's archive and standings, built once for the module (it plays
    hands action by action through the write path) and rolled back: each test starts from
    an empty database and imports the archive."""
    with django_db_blocker.unblock(), transaction.atomic():
        director = factories.UserFactory(username="director-archive", is_staff=True)
        tournament = _eventful(director)
        text = archive_dumps(tournament_archive(tournament=tournament))
        ranking = _ranking(tournament)
        transaction.set_rollback(True)
    return text, ranking


def test_the_archive_round_trip_keeps_every_row_and_kind(eventful: tuple[str, Ranking]) -> None:
    text, ranking = eventful
    data = json.loads(text)
    kinds = {
        e["kind"]
        for r in data["rounds"]
        for t in r["tables"]
        for h in t["hands"]
        for e in h["events"]
    }
    assert kinds >= {
        HandEventKind.BID, HandEventKind.PLAY, HandEventKind.UNDO, HandEventKind.ANNOUNCE,
        HandEventKind.ANNOUNCE_MISSING, HandEventKind.DEAL, HandEventKind.CONFIRM,
        HandEventKind.DISPUTE, HandEventKind.PASS_OUT, HandEventKind.VOID,
        HandEventKind.RESULT, HandEventKind.SEAT_CORRECTION,
    }  # fmt: skip
    round_ = data["rounds"][0]
    assert round_["seed"] == 5 and round_["seating_explanation"]
    assert [row["kind"] for row in round_["log"]] == ["seated", "started", "seat_correction"]
    assert len(round_["byes"]) == 1
    assert {t["section"] for t in round_["tables"]} == {1}
    assert round_["tables"][0]["first_bidder"] is not None
    hands = round_["tables"][0]["hands"]
    assert [h["confirmation"] for h in hands[:2]] == ["confirmed", "disputed"]
    assert hands[4]["physical_cards"] is True and hands[4]["deal"] is not None
    assert any(e["device_id"] == "phone-1" for e in hands[0]["events"])
    assert data["tournament"]["separate_clubs"] is True
    assert [p["revoked_at"] is not None for p in data["penalties"]] == [False, True]
    assert [p["revoked_by"] for p in data["penalties"]] == [None, "director-archive"]
    assert data["tournament"]["rounds_planned"] == 3
    assert [
        (t["number"], e["number"], e["hand"], e["state"], e["recorded_by"])
        for t in round_["tables"]
        for e in t["exclusions"]
    ] == [(1, 2, 2, "disputed", "director-archive"), (2, 2, None, "missing", "director-archive")]

    restored = tournament_import(text=text)

    assert archive_dumps(tournament_archive(tournament=restored)) == text
    for hand in Hand.objects.filter(table__round__tournament=restored):
        assert hand.state is not None, hand  # rebuilt on import: the archive does not carry it
        assert hand_check_replays(hand=hand) == [], hand
    # Only confirmed hands count (requires_confirmation): the first, at three seats.
    assert HandSeatResult.objects.filter(tournament=restored).count() == 3
    # The seat correction's ids now point at the restored entries.
    corrected = RoundLog.objects.get(round__tournament=restored, kind="seat_correction")
    assert {s["new_entry"] for s in corrected.payload["seats"]} <= set(
        restored.entries.values_list("pk", flat=True)
    )
    assert _ranking(restored) == ranking
    assert restored.rounds_planned == 3
    # The imported round's gate sees the exclusions: only the rest of its hands wait.
    gate = round_gate(round=restored.rounds.get())
    assert {(e.table.number, e.number) for e in gate.excluded} == {(1, 2), (2, 2)}
    assert (1, 2) not in {(u.table, u.number) for u in gate.unsettled}
    shown = exclusions_shown(tournament=restored)
    assert [(e.table.number, e.number, e.reason) for e in shown] == [
        (1, 2, "kitty lost, 牌丢了"),
        (2, 2, "table left early"),
    ]
    disputed = HandExclusion.objects.get(table__round__tournament=restored, table__number=1)
    assert disputed.hand == Hand.objects.get(table=disputed.table, number=2)


def _exclusion(data: dict[str, Any], table: int) -> dict[str, Any]:
    exclusions: list[dict[str, Any]] = data["rounds"][0]["tables"][table - 1]["exclusions"]
    return exclusions[0]


def _hand(data: dict[str, Any], number: int) -> dict[str, Any]:
    hands: list[dict[str, Any]] = data["rounds"][0]["tables"][0]["hands"]
    return hands[number - 1]


def _four_seats(hand: dict[str, Any]) -> None:
    """A hand of four seats, its arrays one a seat, in a three-seat (comp2016) tournament."""
    scores = hand["scores"]
    hand.update(
        seats=4,
        doubled=[*hand["doubled"], False],
        scores=None if scores is None else [*scores, 0],
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: _hand(d, 1).update(confirmation="pending"), "hands[0].confirmation"),
        (lambda d: _hand(d, 2).update(confirmation="confirmed"), "hands[1].confirmation"),
        (lambda d: _hand(d, 3).update(status="finished"), "hands[2].status"),
        (lambda d: _hand(d, 4).update(scores=[1, -1, 0]), "hands[3]"),
        (lambda d: _hand(d, 4).update(scores=[2, -1, -1, 0]), "hands[3].scores"),
        (lambda d: _hand(d, 4).update(scores=[2, -1, "-1"]), "hands[3].scores"),
        (lambda d: _hand(d, 4).update(scores=[2.0, -1, -1]), "hands[3].scores"),
        (lambda d: _hand(d, 4).update(doubled=[False, False]), "hands[3].doubled"),
        (lambda d: _hand(d, 4).update(doubled=[False, 0, False]), "hands[3].doubled"),
        (lambda d: _four_seats(_hand(d, 4)), "hands[3]"),  # the log replays three seats
        (lambda d: _hand(d, 4).update(seats=2), "hands[3].seats"),
        (lambda d: _hand(d, 5).update(deal=None), "hands[4].deal"),
        (lambda d: _hand(d, 5).update(physical_cards="yes"), "hands[4].physical_cards"),
        (lambda d: _hand(d, 1)["events"][0].update(device_id=7), "events[0].device_id"),
        (lambda d: d["rounds"][0].update(byes=[99]), "rounds[0].byes[0]: no entry 99"),
        (lambda d: d["rounds"][0]["log"][2]["payload"]["hands"].append({"round": 9}), "log[2]"),
        (lambda d: d["rounds"][0]["tables"][0].update(first_bidder=4), "first_bidder"),
        (lambda d: d["rounds"][0].update(seed="x"), "rounds[0].seed"),
        (lambda d: d["tournament"].update(rounds_planned=-1), "tournament.rounds_planned"),
        (lambda d: d["tournament"].update(rounds_planned="3"), "tournament.rounds_planned"),
        (lambda d: d["tournament"].pop("rounds_planned"), "tournament.rounds_planned: missing"),
        (lambda d: d["rounds"][0]["tables"][0].pop("exclusions"), "tables[0].exclusions: missing"),
        (lambda d: _exclusion(d, 1).update(hand=9), "exclusions[0].hand: no hand 9"),
        (lambda d: _exclusion(d, 1).update(hand=1), "exclusions[0].hand"),  # not its number
        (lambda d: _exclusion(d, 1).update(hand=None), "exclusions[0].state"),  # not missing
        (lambda d: _exclusion(d, 2).update(state="disputed"), "exclusions[0].state"),  # no hand
        (lambda d: _exclusion(d, 1).update(state="confirmed"), "exclusions[0].state"),
        (lambda d: _exclusion(d, 1).update(reason=" "), "exclusions[0]: Give a reason"),
        (lambda d: _exclusion(d, 1).update(reason=" kitty"), "exclusions[0].reason"),
        (lambda d: _exclusion(d, 2).update(number=0), "tables[1].exclusions[0].hand"),
        (lambda d: _exclusion(d, 2).update(recorded_at="today"), "exclusions[0].recorded_at"),
        (
            lambda d: d["rounds"][0]["tables"][1]["exclusions"].append(_exclusion(d, 2)),
            "tables[1].exclusions[1]: Table 2, hand 2 is already excluded",
        ),
    ],
)
def test_a_bad_archive_names_the_field_and_imports_nothing(
    eventful: tuple[str, Ranking], change: Any, field: str
) -> None:
    data = json.loads(eventful[0])
    change(data)
    counts = (
        Tournament.objects.count(),
        HandEvent.objects.count(),
        RoundLog.objects.count(),
        HandExclusion.objects.count(),
    )
    with pytest.raises(ArchiveError, match=field.replace("[", r"\[").replace("]", r"\]")):
        tournament_import(text=archive_dumps(data))
    assert (
        Tournament.objects.count(),
        HandEvent.objects.count(),
        RoundLog.objects.count(),
        HandExclusion.objects.count(),
    ) == counts


# --------------------------------------------------------------------- version 2 archives


def test_a_version_2_archive_imports_and_keeps_every_hands_result(
    eventful: tuple[str, Ranking],
) -> None:
    """An archive written before the per-seat arrays (three-seat columns) imports as the
    same tournament: every hand's result and scores, the standings, and its export is the
    archive of the tournament it came from, less what version 4 added (plan, exclusions)."""
    text, ranking = eventful
    old = factories.archive_as_version_2(json.loads(text))
    first = old["rounds"][0]["tables"][0]["hands"][0]
    assert (old["version"], "scores" in first, first["score_0"]) == (2, False, 2)

    restored = tournament_import(text=archive_dumps(old))

    expected = archive_dumps(factories.archive_without_version_4(json.loads(text)))
    assert archive_dumps(tournament_archive(tournament=restored)) == expected
    hands = Hand.objects.filter(table__round__tournament=restored).order_by("table", "number")
    expected = [
        (h["status"], h["doubled"], h["scores"])
        for r in json.loads(text)["rounds"]
        for t in r["tables"]
        for h in t["hands"]
    ]
    assert [(h.status, h.doubled, h.scores) for h in hands] == expected
    assert {h.seats for h in hands} == {3}
    assert any(scores is None for *_, scores in expected)  # a voided hand: no scores
    for hand in hands:
        assert hand_check_replays(hand=hand) == [], hand
    assert _ranking(restored) == ranking


def test_a_version_3_archive_imports_with_no_plan_and_no_exclusions(
    eventful: tuple[str, Ranking],
) -> None:
    """An archive written before exclusions and the round plan (version 3) still imports:
    no rounds planned, no exclusions, everything else as archived."""
    text, ranking = eventful
    old = factories.archive_as_version_3(json.loads(text))
    assert old["version"] == 3 and "rounds_planned" not in old["tournament"]

    restored = tournament_import(text=archive_dumps(old))

    expected = archive_dumps(factories.archive_without_version_4(json.loads(text)))
    assert archive_dumps(tournament_archive(tournament=restored)) == expected
    assert restored.rounds_planned == 0
    assert not HandExclusion.objects.filter(table__round__tournament=restored).exists()
    assert _ranking(restored) == ranking


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda h: h.pop("score_1"), "hands[0].score_1: missing"),
        (lambda h: h.pop("doubled_2"), "hands[0].doubled_2: missing"),
        (lambda h: h.update(score_2=None), "hands[0].scores"),  # two scores of three
        (lambda h: h.update(doubled_0="no"), "hands[0].doubled"),
    ],
)
def test_a_bad_version_2_archive_names_the_column_and_imports_nothing(
    eventful: tuple[str, Ranking], change: Any, field: str
) -> None:
    old = factories.archive_as_version_2(json.loads(eventful[0]))
    change(old["rounds"][0]["tables"][0]["hands"][0])
    with pytest.raises(ArchiveError, match=field.replace("[", r"\[").replace("]", r"\]")):
        tournament_import(text=archive_dumps(old))
    assert Tournament.objects.count() == HandEvent.objects.count() == 0
