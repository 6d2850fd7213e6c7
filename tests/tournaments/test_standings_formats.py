"""Standings of each format on small tournaments checked by hand (SPEC §10, R10.8)."""

from typing import Any

import pytest

from tournaments.models import StandingSnapshot, Tournament
from tournaments.standings.queries import standings_compute, standings_latest

from .builders import board, finish, pass_out, table_of, tournament_with_entries

pytestmark = pytest.mark.django_db


def snapshot(tournament: Tournament) -> dict[int, StandingSnapshot]:
    return {s.entry_id: s for s in standings_latest(tournament=tournament)}


def test_r10_8_2_table_play_totals_hands_and_landlord_record(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, (a, b, c) = tournament_with_entries(3)
    table = table_of(tournament, 1, 1, [a, b, c])
    with django_capture_on_commit_callbacks(execute=True):
        finish(table, landlord=0, bid=2, winner="landlord")  # +4 -2 -2
    with django_capture_on_commit_callbacks(execute=True):
        finish(table, landlord=1, bid=1, winner="defenders")  # +1 -2 +1
    with django_capture_on_commit_callbacks(execute=True):
        pass_out(table)  # 0 0 0, a hand played
    rows = snapshot(tournament)
    assert [(rows[e.pk].rank, rows[e.pk].total) for e in (a, b, c)] == [(1, 5), (3, -4), (2, -1)]
    assert {rows[e.pk].hands_played for e in (a, b, c)} == {3}
    assert (rows[a.pk].landlord_hands, rows[a.pk].landlord_wins) == (1, 1)
    assert (rows[b.pk].landlord_hands, rows[b.pk].landlord_wins) == (1, 0)
    assert rows[a.pk].log_version == Tournament.objects.get(pk=tournament.pk).log_version


def test_r10_6_2_mv06_equal_totals_go_to_the_last_deal_winner_not_the_passed_out_hand(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, (a, b, c) = tournament_with_entries(3)
    table = table_of(tournament, 1, 1, [a, b, c])
    with django_capture_on_commit_callbacks(execute=True):
        finish(table, landlord=0, bid=1, winner="landlord")  # A +2, B -1, C -1
        finish(table, landlord=1, bid=1, winner="landlord")  # B +2, A -1, C -1
        pass_out(table)  # not a "last deal" (R10.8.5: last counted *finished* hand)
    rows = snapshot(tournament)
    assert rows[a.pk].total == rows[b.pk].total == 1
    assert (rows[b.pk].rank, rows[a.pk].rank, rows[c.pk].rank) == (1, 2, 3)
    assert rows[b.pk].tiebreaks == {"total": 1, "last_deal": 1, "registration": 2}


def test_swiss_ranks_as_table_play_then_registration(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(6, format="swiss")
    t1 = table_of(tournament, 1, 1, entries[:3])
    t2 = table_of(tournament, 1, 2, entries[3:])
    with django_capture_on_commit_callbacks(execute=True):
        finish(t1, landlord=0, bid=1, winner="landlord")  # e1 +2
        finish(t2, landlord=0, bid=1, winner="landlord")  # e4 +2
    ranked = [(s.entry.registration_order, s.rank) for s in standings_latest(tournament=tournament)]
    assert ranked[:2] == [(1, 1), (4, 2)]  # both won their last deal: earlier registration


def duplicate_mv01(django_capture_on_commit_callbacks: Any) -> tuple[Tournament, list[Any]]:
    """MV-01: one board at four tables; seat 0 scores +12, +6, +6, −3."""
    tournament, entries = tournament_with_entries(12, format="duplicate")
    b1 = board(tournament, 1)
    tables = [table_of(tournament, 1, i + 1, entries[3 * i : 3 * i + 3]) for i in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        finish(tables[0], landlord=0, bid=3, winner="landlord", bombs=1, board=b1)  # +12 -6 -6
        finish(tables[1], landlord=0, bid=3, winner="landlord", board=b1)  # +6 -3 -3
        finish(tables[2], landlord=0, bid=3, winner="landlord", board=b1)  # +6 -3 -3
        finish(tables[3], landlord=1, bid=3, winner="landlord", board=b1)  # -3 +6 -3
    return tournament, entries


def test_r10_4_3_mv01_matchpoints_per_board_and_seat(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = duplicate_mv01(django_capture_on_commit_callbacks)
    rows = snapshot(tournament)
    seat0 = [rows[entries[3 * i].pk] for i in range(4)]
    assert [(r.matchpoints, r.matchpoint_top) for r in seat0] == [(6, 6), (3, 6), (3, 6), (0, 6)]
    assert [r.mp_percentage for r in seat0] == [100.0, 50.0, 50.0, 0.0]
    assert [r.tops for r in seat0] == [1, 0, 0, 0]
    # Seat 2 scored -6, -3, -3, -3: one result below three equal ones (2·1 + 2 = 4 of 6).
    seat2 = [rows[entries[3 * i + 2].pk] for i in range(4)]
    assert [r.matchpoints for r in seat2] == [0, 4, 4, 4]
    assert rows[entries[0].pk].total == 12


def test_r10_4_3_mv02_all_equal_results_score_half(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(12, format="duplicate")
    b1 = board(tournament, 1)
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(4):
            table = table_of(tournament, 1, i + 1, entries[3 * i : 3 * i + 3])
            finish(table, landlord=2, bid=2, winner="defenders", board=b1)
    assert {s.mp_percentage for s in standings_latest(tournament=tournament)} == {50.0}
    # The eight defenders outscored their landlord (at 50 %): they share rank 1, and the
    # four landlords, who outscored nobody, share rank 9.
    ranks = sorted(s.rank for s in standings_latest(tournament=tournament))
    assert ranks == [1] * 8 + [9] * 4


def test_r10_4_5_a_passed_out_board_scores_zero_and_is_compared(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(6, format="duplicate")
    b1 = board(tournament, 1)
    t1 = table_of(tournament, 1, 1, entries[:3])
    t2 = table_of(tournament, 1, 2, entries[3:])
    with django_capture_on_commit_callbacks(execute=True):
        pass_out(t1, board=b1)
        finish(t2, landlord=0, bid=1, winner="landlord", board=b1)  # +2 -1 -1
    rows = snapshot(tournament)
    # Seat 0: 0 against +2 -> 0 %; seats 1 and 2: 0 against -1 -> 100 %.
    assert [rows[e.pk].mp_percentage for e in entries] == [0.0, 100.0, 100.0, 100.0, 0.0, 0.0]
    assert [rows[e.pk].hands_played for e in entries] == [1] * 6


def test_r10_8_4_an_unmatched_result_is_left_out_of_the_mean_but_counts_in_totals(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = tournament_with_entries(6, format="duplicate")
    b1, b2 = board(tournament, 1), board(tournament, 2)
    t1 = table_of(tournament, 1, 1, entries[:3])
    t2 = table_of(tournament, 1, 2, entries[3:])
    with django_capture_on_commit_callbacks(execute=True):
        finish(t1, landlord=0, bid=1, winner="landlord", board=b1)  # +2
        finish(t2, landlord=0, bid=1, winner="defenders", board=b1)  # -2
        finish(t1, landlord=0, bid=3, winner="defenders", board=b2)  # -6, board 2 only here
    a = snapshot(tournament)[entries[0].pk]
    assert (a.mp_percentage, a.boards_scored, a.total, a.hands_played) == (100.0, 1, -4, 2)


def test_r10_8_5_duplicate_default_chain_breaks_with_opponents_outscored(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, entries = duplicate_mv01(django_capture_on_commit_callbacks)
    rows = snapshot(tournament)
    # Two results of 100 %: seat 0 at table 1 (entry 1) outscored seats 1 and 2 there
    # (0 % and 0 %); seat 1 at table 4 (entry 11) outscored seat 0 (0 %) and seat 2
    # (4 of 6 = 66.67 %), a mean of 33.33 %, so entry 11 ranks first.
    first, second = rows[entries[10].pk], rows[entries[0].pk]
    assert first.mp_percentage == second.mp_percentage == 100.0
    assert first.tiebreaks["opponents_outscored"] == pytest.approx(100 / 3, abs=1e-6)
    assert second.tiebreaks["opponents_outscored"] == 0
    assert (first.rank, second.rank) == (1, 2)
    computed = {s.entry_id: s.rank for s in standings_compute(tournament=tournament)}
    assert computed == {entry_id: row.rank for entry_id, row in rows.items()}
