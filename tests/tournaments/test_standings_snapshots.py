"""Snapshots equal a computation from scratch, whatever happened to the hands; the
recompute is coalesced, idempotent, swept when behind, and keeps a history per round."""

from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.hands.confirmation import hand_confirm, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.results import tournament_scores_changed
from tournaments.models import (
    Confirmation,
    Entry,
    Hand,
    HandStatus,
    Penalty,
    Seat,
    StandingSnapshot,
    StandingsState,
    Tournament,
    TournamentLogKind,
)
from tournaments.standings import snapshots as standings_service
from tournaments.standings.queries import standings_compute, standings_latest
from tournaments.standings.snapshots import (
    standings_request,
    standings_snapshot_update,
    standings_sweep,
)
from tournaments.tournament.log import tournament_log_append

from .builders import board, finish, pass_out, table_of, tournament_with_entries

pytestmark = pytest.mark.django_db

COUNTED = {HandStatus.FINISHED, HandStatus.PASSED_OUT}


def reference_totals(tournament: Tournament) -> dict[int, tuple[int, int, Fraction]]:
    """Entry → (total, hands played, MP %), straight from the hands, seats and penalties:
    an independent reading of R10.8.1–R10.8.4 that uses nothing of the standings code."""
    position_of = {(s.table_id, s.position): s.entry_id for s in Seat.objects.all()}
    results: dict[int, list[tuple[Any, int, int]]] = defaultdict(list)
    total: dict[int, int] = defaultdict(int)
    hands: dict[int, int] = defaultdict(int)
    confirmation_ok = {Confirmation.NOT_REQUIRED, Confirmation.CONFIRMED}
    for hand in Hand.objects.filter(table__round__tournament=tournament):
        if hand.status not in COUNTED or hand.confirmation not in confirmation_ok:
            continue
        for position in range(hand.seats):
            entry_id = position_of[(hand.table_id, position)]
            score = hand.scores[position] or 0
            total[entry_id] += score
            hands[entry_id] += 1
            if hand.board_id is not None:
                results[entry_id].append(((hand.board_id, position), score, hand.pk))
    for p in Penalty.objects.filter(tournament=tournament, revoked_at__isnull=True):
        total[p.entry_id] += p.points
    groups: dict[Any, list[int]] = defaultdict(list)
    for rows in results.values():
        for key, score, _ in rows:
            groups[key].append(score)
    out = {}
    for entry in Entry.objects.filter(tournament=tournament):
        ratios = []
        for key, score, _ in results[entry.pk]:
            others = list(groups[key])
            others.remove(score)
            if others:
                mp = sum(2 if score > o else 1 if score == o else 0 for o in others)
                ratios.append(Fraction(mp, 2 * len(others)))
        pct = 100 * sum(ratios, Fraction(0)) / len(ratios) if ratios else Fraction(0)
        out[entry.pk] = (total[entry.pk], hands[entry.pk], pct)
    return out


def assert_snapshot_is_the_recomputation(tournament: Tournament) -> None:
    tournament.refresh_from_db()
    latest = list(standings_latest(tournament=tournament))
    if tournament.log_version == 0:  # nothing changed a score yet: nothing computed
        assert latest == []
        return
    assert {s.log_version for s in latest} == {tournament.log_version}
    fresh = standings_compute(tournament=tournament)
    assert [(s.entry_id, s.rank, s.total, s.hands_played, s.tiebreaks) for s in latest] == [
        (s.entry_id, s.rank, s.total, s.hands_played, s.tiebreaks)
        for s in sorted(fresh, key=lambda s: (s.rank, s.registration_order))
    ]
    reference = reference_totals(tournament)
    for s in latest:
        total, hands, pct = reference[s.entry_id]
        assert (s.total, s.hands_played) == (total, hands)
        assert s.mp_percentage == pytest.approx(float(pct), abs=1e-6)


RESULTS = st.tuples(
    st.integers(0, 2),  # landlord
    st.integers(1, 3),  # bid
    st.sampled_from(["landlord", "defenders"]),
    st.integers(0, 2),  # bombs
)
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("finish"), st.integers(0, 3), RESULTS),
        st.tuples(st.just("pass_out"), st.integers(0, 3), st.none()),
        st.tuples(st.just("void"), st.integers(0, 20), st.none()),
        st.tuples(st.just("correct"), st.integers(0, 20), RESULTS),
        st.tuples(st.just("confirm"), st.integers(0, 20), st.booleans()),
        st.tuples(st.just("penalty"), st.integers(0, 11), st.integers(-5, 5)),
        st.tuples(st.just("revoke"), st.integers(0, 20), st.none()),
        st.tuples(st.just("withdraw"), st.integers(0, 11), st.none()),
    ),
    min_size=1,
    max_size=14,  # the test's ``most``
)


def apply(tournament: Tournament, tables: list[Any], boards: list[Any], op: tuple) -> None:
    kind, index, arg = op
    hands = list(Hand.objects.filter(table__round__tournament=tournament).order_by("pk"))
    entries = list(Entry.objects.filter(tournament=tournament).order_by("registration_order"))
    if kind in ("finish", "pass_out"):
        table = tables[index]
        # A table's n-th hand plays board n: an entry never plays a board twice (R10.8.3).
        b = boards[table.hands.count()] if boards else None
        if kind == "pass_out":
            pass_out(table, board=b)
        else:
            landlord, bid, winner, bombs = arg
            finish(table, landlord=landlord, bid=bid, winner=winner, bombs=bombs, board=b)
    elif kind in ("void", "correct", "confirm") and hands:
        hand = hands[index % len(hands)]
        # Through the services: a closed hand's result changes only with a new event (the
        # database refuses a bare UPDATE of the row, migration 0010).
        if kind == "void" and hand.status != HandStatus.VOIDED:
            hand_void(hand=hand, reason="misdeal")
        elif kind == "correct" and hand.status in COUNTED:
            landlord, bid, winner, bombs = arg
            hand_result_correct(
                hand=hand, reason="x", landlord=landlord, bid=bid, winner=winner, bombs=bombs
            )
        elif kind == "confirm" and hand.confirmation == Confirmation.PENDING:
            if arg:
                hand_confirm(hand=hand, recorded_by=None)
            else:
                hand_dispute(hand=hand, reason="x", recorded_by=None)
    elif kind == "penalty" and arg:
        Penalty.objects.create(
            tournament=tournament, entry=entries[index % len(entries)], points=arg, reason="R9"
        )
        tournament_scores_changed(tournament_id=tournament.pk)
    elif kind == "revoke":
        penalties = list(Penalty.objects.filter(tournament=tournament, revoked_at__isnull=True))
        if penalties:
            p = penalties[index % len(penalties)]
            Penalty.objects.filter(pk=p.pk).update(revoked_at=timezone.now(), revoke_reason="x")
            tournament_scores_changed(tournament_id=tournament.pk)
    elif kind == "withdraw":
        entry = entries[index % len(entries)]
        if not Entry.objects.get(pk=entry.pk).withdrawn:  # the round is not started: no service
            tournament_log_append(
                tournament_id=tournament.pk,
                kind=TournamentLogKind.ENTRY_WITHDRAWN,
                entry_id=entry.pk,
                recorded_by=None,
            )
            Entry.objects.filter(pk=entry.pk).update(withdrawn=True)
            tournament_scores_changed(tournament_id=tournament.pk)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    format=st.sampled_from(["table", "swiss", "duplicate"]),
    confirmation=st.booleans(),
    operations=OPERATIONS,
)
def test_the_snapshot_always_equals_a_recomputation(
    django_capture_on_commit_callbacks: Any,
    format: str,
    confirmation: bool,
    operations: list[tuple],
) -> None:
    """After finishes, pass-outs, corrections, voids, (un)confirmed hands, penalties,
    revocations and withdrawals — in any order."""
    most = 14  # operations, so hands at one table: the round allows them all
    tournament, entries = tournament_with_entries(
        12, format=format, requires_confirmation=confirmation, hands_per_round=most
    )
    boards = [board(tournament, n) for n in range(1, most + 1)] if format == "duplicate" else []
    tables = [table_of(tournament, 1, i + 1, entries[3 * i : 3 * i + 3]) for i in range(4)]
    for op in operations:
        with django_capture_on_commit_callbacks(execute=True):
            apply(tournament, tables, boards, op)
        assert_snapshot_is_the_recomputation(tournament)


@pytest.mark.parametrize(("profile", "players"), [("four_p", 8), ("five_p", 10), ("five_p", 15)])
def test_a_larger_tables_duplicate_standings_equal_the_independent_reading(
    profile: str, players: int
) -> None:
    """Four- and five-seat duplicate events through the referee API: the snapshot is the
    recomputation and both agree with the reading from scratch, every (board, position)
    group compared on its own (a fifth seat's group once met the next board's first)."""
    from tests.api.test_variant_tournaments import play_tournament

    tournament = play_tournament(profile, players, seed=players, format="duplicate", rounds=2)
    standings_snapshot_update(tournament_id=tournament.pk)
    assert_snapshot_is_the_recomputation(tournament)


def test_an_unconfirmed_hand_counts_once_confirmed(django_capture_on_commit_callbacks: Any) -> None:
    tournament, (a, b, c) = tournament_with_entries(3, requires_confirmation=True)
    table = table_of(tournament, 1, 1, [a, b, c])
    with django_capture_on_commit_callbacks(execute=True):
        hand = finish(table, landlord=0, bid=3, winner="landlord")
    assert {s.total for s in standings_latest(tournament=tournament)} == {0}
    with django_capture_on_commit_callbacks(execute=True):
        hand_confirm(hand=hand, recorded_by=None)
    assert [s.total for s in standings_latest(tournament=tournament)] == [6, -3, -3]


def test_a_burst_sends_one_task_while_one_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, _ = tournament_with_entries(3)
    sent: list[int] = []
    monkeypatch.setattr(standings_service, "_send", sent.append)
    assert [standings_request(tournament_id=tournament.pk) for _ in range(5)] == [True] + [
        False
    ] * 4
    assert sent == [tournament.pk]
    # The task clears the flag when it starts: the next change sends again.
    standings_snapshot_update(tournament_id=tournament.pk)
    assert standings_request(tournament_id=tournament.pk) is True
    assert sent == [tournament.pk, tournament.pk]


def test_a_broker_failure_releases_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament, _ = tournament_with_entries(3)

    def refuse(tournament_id: int) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(standings_service, "_send", refuse)
    assert standings_request(tournament_id=tournament.pk) is False
    assert StandingsState.objects.get(tournament=tournament).queued_at is None


def test_the_recompute_is_idempotent_per_log_version(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(3)
    table = table_of(tournament, 1, 1, entries)
    with django_capture_on_commit_callbacks(execute=True):
        finish(table, landlord=0, bid=1, winner="landlord")
    before = list(StandingSnapshot.objects.values_list("pk", "computed_at"))
    version = standings_snapshot_update(tournament_id=tournament.pk)
    assert version == Tournament.objects.get(pk=tournament.pk).log_version
    assert list(StandingSnapshot.objects.values_list("pk", "computed_at")) == before
    assert standings_snapshot_update(tournament_id=10**9) is None


def test_history_keeps_the_latest_snapshot_of_each_round(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(3)
    r1 = table_of(tournament, 1, 1, entries)
    r2 = table_of(tournament, 2, 1, entries[::-1])
    with django_capture_on_commit_callbacks(execute=True):
        finish(r1, landlord=0, bid=1, winner="landlord")
    with django_capture_on_commit_callbacks(execute=True):
        finish(r1, landlord=1, bid=1, winner="landlord")
    with django_capture_on_commit_callbacks(execute=True):
        finish(r2, landlord=0, bid=2, winner="landlord")
    with django_capture_on_commit_callbacks(execute=True):
        finish(r2, landlord=0, bid=1, winner="defenders")
    kept = sorted(
        set(
            StandingSnapshot.objects.filter(tournament=tournament).values_list(
                "round_number", "log_version"
            )
        )
    )
    assert kept == [(1, 2), (2, 4)]


def test_the_sweep_recomputes_tournaments_behind_their_log(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(3)
    table = table_of(tournament, 1, 1, entries)
    finish(table, landlord=0, bid=1, winner="landlord")  # on_commit never runs: "lost"
    StandingsState.objects.create(
        tournament=tournament,
        queued_at=timezone.now() - 10 * (standings_service.QUEUED_STALE_AFTER),
    )
    assert standings_sweep() == [tournament.pk]
    assert_snapshot_is_the_recomputation(tournament)
    assert standings_sweep() == []


def test_a_tiebreak_chain_is_checked_against_the_format_and_reranks() -> None:
    from tournaments.common.errors import ApplicationError
    from tournaments.tournament.services import tournament_update

    tournament, _ = tournament_with_entries(3)
    with pytest.raises(ApplicationError) as refused:
        tournament_update(tournament=tournament, tiebreaks=["tops"])
    assert refused.value.code == "invalid_tiebreaks"
    before = Tournament.objects.get(pk=tournament.pk).log_version
    updated = tournament_update(tournament=tournament, tiebreaks=["head_to_head", "registration"])
    assert updated.tiebreaks == ["head_to_head", "registration"]
    assert updated.log_version == before + 1
    with pytest.raises(ApplicationError, match="duplicate play only"):
        tournament_update(tournament=tournament, tiebreaks=["tops"], format="swiss")


def test_beat_sweeps_the_standings_and_the_tasks_ack_late() -> None:
    from config import celery_app
    from tournaments.tasks import standings_recompute

    celery_app.loader.import_default_modules()
    schedule = celery_app.conf.beat_schedule["standings-sweep"]
    assert schedule["task"] in celery_app.tasks
    assert standings_recompute.acks_late is True
    assert celery_app.conf.task_reject_on_worker_lost is True
