"""Par in the service (issue 33, point 3): a board is analysed once it is released, never
before; what the traveller, the hand page and the exports show; a director's re-run and
cancel, refused to everybody else."""

from __future__ import annotations

import io
import re
import time
from typing import Any

import pytest
from django.test import Client

from tests import factories
from tests.api.helpers import assign, referee_user
from tests.public_data import hand_play, tournament_with_tables
from tournaments.archive.export import archive_dumps, tournament_archive
from tournaments.common.errors import ApplicationError
from tournaments.common.seat_names import seat_name
from tournaments.hands.write import hand_create
from tournaments.models import (
    AnalysisStatus,
    Board,
    BoardPar,
    HandPar,
    HandStatus,
    RoundBoard,
)
from tournaments.par.services import par_analyse, par_cancel, par_rerun
from tournaments.standings.csv_export import hands_csv_write

pytestmark = pytest.mark.django_db

BOARD_SEED = 918_273_645_501


@pytest.fixture
def small_budget(settings: Any) -> None:
    """Node-bound queries (the same answer on any machine): full deals are unsolved within
    them, the end of a hand solves."""
    settings.PAR_ANALYSIS_AUTO = True
    settings.PAR_QUERY_MS = 60_000
    settings.PAR_QUERY_NODES = 4_000
    settings.PAR_QUERY_ENTRIES = 200_000
    settings.PAR_HAND_QUERIES = 80


def _duplicate(profile: str = "comp2016") -> tuple[Any, Board, list[Any]]:
    tournament, tables = tournament_with_tables(tables=2, rule_profile=profile, format="duplicate")
    board = factories.BoardFactory(tournament=tournament, number=1, seed=BOARD_SEED)
    RoundBoard.objects.create(round=tables[0].round, section=1, hand_number=1, board=board)
    return tournament, board, tables


def _play_classic(hand: Any, *, seed: int) -> Any:
    """``hand_play`` for a classic hand (its own auction, no doubling)."""
    import contextlib

    from referee.rules.cards import Deal
    from referee.rules.profiles import get_profile
    from tests.play import random_hand_actions
    from tournaments.hands.replay import hand_deal
    from tournaments.hands.write import hand_action_record, hand_announcement_record

    deal = hand_deal(hand=hand)
    assert deal is not None
    actions = random_hand_actions(
        Deal.from_json(deal.to_json()), seed=seed, profile=get_profile("classic")
    )
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
        for seat in range(3):
            with contextlib.suppress(ApplicationError):
                hand = hand_announcement_record(hand=hand, seat=seat).hand
    return hand


def _api(user: Any, url: str) -> Any:
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.json()


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_board_is_analysed_once_released_and_nothing_shows_before(
    small_budget: None, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, board, tables = _duplicate()
    with django_capture_on_commit_callbacks(execute=True):
        first = hand_play(hand_create(table=tables[0]).hand, seed=11)
    assert first.status == HandStatus.FINISHED
    client = Client()
    traveller = f"/t/{tournament.slug}/boards/1/"
    hand_url = f"/t/{tournament.slug}/hands/{first.pk}/"
    # table 2 has not played the board: nothing is analysed, nothing shows (and the
    # pages cached now must not keep a par either)
    assert not BoardPar.objects.exists()
    for url in (traveller, hand_url):
        html = _page(client, url)
        # what the par parts print (templates/public/_par.html, the traveller's column, the
        # replay's marks); not the bare word, which a player's name may hold ("Parker")
        for said in ('id="par', 'class="par', "against-par", "Par (", "Par:", "gainst par"):
            assert said not in html, (url, said)
    readers = _users()
    assign(readers["referee"], tables[0])
    api = f"/api/v1/hands/{first.pk}/"
    for who, user in readers.items():
        body = _api(user, api)
        assert body["par"] is None, who
    out = io.StringIO()
    hands_csv_write(tournament=tournament, out=out)
    assert out.getvalue().splitlines()[1].endswith(",,,,,")  # par columns empty
    assert tournament_archive(tournament=tournament)["boards"][0]["par"] is None

    started = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True):
        second = hand_play(hand_create(table=tables[1]).hand, seed=12)
    elapsed = time.perf_counter() - started
    row = BoardPar.objects.get(board=board)
    assert row.status == AnalysisStatus.DONE and row.run == 1
    assert row.table is not None and len(row.table) == 3
    assert row.budget == {"ms": 60_000, "nodes": 4_000, "entries": 200_000}
    # within 4,000 nodes a full deal is not decided: unsolved, so is the par result
    assert row.table == [None, None, None] and row.outcome == "unsolved" and row.scores is None
    analyses = {h.hand_id: h for h in HandPar.objects.filter(board_par=row)}
    assert set(analyses) == {first.pk, second.pk}
    for hand in (first, second):
        analysis = analyses[hand.pk]
        assert analysis.hand_version == hand.version
        # the start is the first position decided, after at least one undecided one
        assert analysis.outcome in {"held", "turned", "open"}, analysis.outcome
        assert analysis.start_action is not None and analysis.start_action > 4
    print(f"analysis of a board and its 2 hands: {elapsed:.2f} s; {row.nodes} nodes")

    for who, user in readers.items():
        par = _api(user, api)["par"]
        assert par["table"] == row.table and par["outcome"] == "unsolved", who
        assert par["lost"]["start_action"] == analyses[first.pk].start_action
    html = _page(client, traveller)
    assert 'id="par" class="par" data-state="done"' in html
    assert html.count('data-par="unsolved"') == 3
    assert 'data-outcome="unsolved"' in html
    html = _page(client, hand_url)
    assert 'id="par-lost"' in html and 'id="par-start"' in html
    assert f'data-action="{analyses[first.pk].start_action}"' in html


def test_traveller_shows_par_table_result_and_each_table_against_par(settings: Any) -> None:
    """A stored par (seat 0 wins as landlord at 3) shows on the traveller, with each table's
    score against it seat by seat, and on the hand page; in both languages."""
    tournament, board, tables = _duplicate()
    hands = [hand_play(hand_create(table=t).hand, seed=20 + i) for i, t in enumerate(tables)]
    BoardPar.objects.create(
        board=board,
        status=AnalysisStatus.DONE,
        table=[True, False, None],
        outcome="landlord",
        landlord=0,
        bid=3,
        scores=[6, -3, -3],
    )
    html = _page(Client(), f"/t/{tournament.slug}/boards/1/")
    assert 'data-seat="0" data-par="wins"' in html and 'data-seat="1" data-par="loses"' in html
    assert 'data-seat="2" data-par="unsolved"' in html
    assert 'data-outcome="landlord"' in html and "is landlord at 3 and wins" in html
    cells = re.findall(r'<td class="against-par">(.*?)</td>', html, re.S)
    assert len(cells) == 2
    for hand, cell in zip(hands, cells, strict=True):
        hand.refresh_from_db()
        for seat, (score, par) in enumerate(zip(hand.scores, [6, -3, -3], strict=True)):
            assert f"{seat_name(seat)} {score - par:+d}" in cell
        landlord_wins_at_par = [True, False, None][hand.landlord_seat]
        if landlord_wins_at_par is not None:
            said = "wins at par" if landlord_wins_at_par else "loses at par"
            assert said in cell
    page = _page(Client(), f"/t/{tournament.slug}/hands/{hands[0].pk}/")
    assert 'id="par-against"' in page and 'data-outcome="landlord"' in page
    zh = Client()
    zh.cookies["django_language"] = "zh-hans"
    html_zh = _page(zh, f"/t/{tournament.slug}/boards/1/")
    assert "Par result" not in html_zh and "标准结果" in html_zh
    assert "胜" in html_zh and "未解出" in html_zh


def test_classic_is_analysed_too(
    small_budget: None, django_capture_on_commit_callbacks: Any
) -> None:
    _tournament, board, tables = _duplicate("classic")
    with django_capture_on_commit_callbacks(execute=True):
        for i, table in enumerate(tables):
            _play_classic(hand_create(table=table).hand, seed=30 + i)
    assert BoardPar.objects.get(board=board).status == AnalysisStatus.DONE


def _users() -> dict[str, Any]:
    return {
        "anonymous": None,
        "plain": factories.UserFactory(username="plain"),
        "referee": referee_user("referee1"),
        "director": factories.UserFactory(username="director", is_staff=True),
    }


def test_director_reruns_and_cancels_others_are_refused(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PAR_QUERY_NODES = 2_000
    _tournament, board, tables = _duplicate()
    hand = hand_create(table=tables[0]).hand
    users = _users()
    assign(users["referee"], tables[0])
    # not released: a director's run is refused too
    with pytest.raises(ApplicationError) as refused:
        par_rerun(board=board, user=users["director"])
    assert refused.value.code == "board_not_released"
    hand_play(hand, seed=41)
    hand_play(hand_create(table=tables[1]).hand, seed=42)
    assert not BoardPar.objects.exists()  # auto analysis is off in this test
    for who in ("anonymous", "plain", "referee"):
        for action in (par_rerun, par_cancel):
            with pytest.raises(ApplicationError) as refused:
                action(board=board, user=users[who] or _anonymous())
            assert refused.value.code == "permission_denied"
    assert not BoardPar.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        row = par_rerun(board=board, user=users["director"])
    assert row.run == 1
    row.refresh_from_db()
    assert row.status == AnalysisStatus.DONE  # eager: the task ran
    assert HandPar.objects.filter(board_par=row).count() == 2
    # a re-run is a new run; the old answer is cleared and stored again
    with django_capture_on_commit_callbacks(execute=True):
        row = par_rerun(board=board, user=users["director"])
    row.refresh_from_db()
    assert row.run == 2 and row.status == AnalysisStatus.DONE
    # nothing to cancel once done
    with pytest.raises(ApplicationError) as refused:
        par_cancel(board=board, user=users["director"])
    assert refused.value.code == "analysis_not_running"
    # a queued run cancelled: its task stores nothing
    BoardPar.objects.filter(pk=row.pk).update(
        status=AnalysisStatus.QUEUED, run=3, table=None, outcome="", scores=None
    )
    par_cancel(board=board, user=users["director"])
    assert par_analyse(board_id=board.pk, run=3) == "stale"
    row.refresh_from_db()
    assert row.status == AnalysisStatus.CANCELLED and row.table is None
    # an older run's task stores nothing either
    assert par_analyse(board_id=board.pk, run=1) == "stale"


def _anonymous() -> Any:
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()


def test_director_screen_runs_and_cancels_others_refused(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PAR_QUERY_NODES = 2_000
    tournament, board, tables = _duplicate()
    for i, table in enumerate(tables):
        hand_play(hand_create(table=table).hand, seed=50 + i)
    users = _users()
    url = f"/director/t/{tournament.slug}/boards/1/par/"
    for who in ("anonymous", "plain", "referee"):
        client = Client()
        if users[who] is not None:
            client.force_login(users[who])
        response = client.post(url, {"action": "rerun"})
        assert response.status_code in (302, 403), who
        if response.status_code == 302:
            assert "/login" in response["Location"]
    assert not BoardPar.objects.exists()
    director = Client()
    director.force_login(users["director"])
    page = director.get(f"/director/t/{tournament.slug}/par/")
    assert page.status_code == 200 and 'data-board="1"' in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = director.post(url, {"action": "rerun"})
    assert response.status_code == 302
    assert BoardPar.objects.get(board=board).status == AnalysisStatus.DONE
    response = director.post(url, {"action": "cancel"}, follow=True)
    assert 'class="analysis_not_running error"' in response.content.decode()


def test_archive_and_csv_carry_par(settings: Any, django_capture_on_commit_callbacks: Any) -> None:
    settings.PAR_QUERY_NODES = 2_000
    tournament, board, tables = _duplicate()
    for i, table in enumerate(tables):
        hand_play(hand_create(table=table).hand, seed=60 + i)
    with django_capture_on_commit_callbacks(execute=True):
        par_rerun(board=board, user=factories.UserFactory(username="d", is_staff=True))
    data = tournament_archive(tournament=tournament)
    par = data["boards"][0]["par"]
    assert par["table"] == BoardPar.objects.get(board=board).table
    lost = data["rounds"][0]["tables"][0]["hands"][0]["par"]
    assert lost["outcome"] == HandPar.objects.get(hand__table=tables[0]).outcome
    out = io.StringIO()
    hands_csv_write(tournament=tournament, out=out)
    header, first = out.getvalue().splitlines()[:2]
    assert header.endswith("par_table,par_result,par_lost,par_start,par_turn,par_kept")
    assert first.split(",")[-6] == "???"
    # the archive restores with its par
    from tournaments.archive.restore import tournament_import

    copy = tournament_import(text=archive_dumps(data), slug="copy")
    restored = BoardPar.objects.get(board__tournament=copy)
    assert restored.table == par["table"] and restored.status == AnalysisStatus.DONE
    assert HandPar.objects.filter(hand__table__round__tournament=copy).count() == 2
    assert archive_dumps(tournament_archive(tournament=copy)).replace('"copy"', '"x"') == (
        archive_dumps(data).replace(f'"{tournament.slug}"', '"x"')
    )


def test_an_analysis_over_its_time_limit_stops_and_is_cancelled(settings: Any) -> None:
    """A board's analysis stops after ``PAR_TASK_SECONDS`` (before its next query): the run
    is cancelled, nothing stored, and the automatic requests leave it for a director."""
    from tournaments.par.services import par_request

    settings.PAR_QUERY_NODES = 2_000
    tournament, board, tables = _duplicate()
    for n, table in enumerate(tables):
        hand_play(hand_create(table=table).hand, seed=61 + n)
    row = BoardPar.objects.create(board=board, status=AnalysisStatus.QUEUED)
    settings.PAR_TASK_SECONDS = 0
    assert par_analyse(board_id=board.pk, run=row.run) == "timed_out"
    row.refresh_from_db()
    assert row.status == AnalysisStatus.CANCELLED
    assert row.table is None and row.finished_at is None and row.started_at is not None
    assert not HandPar.objects.exists()
    settings.PAR_ANALYSIS_AUTO = True
    assert par_request(tournament_id=tournament.pk) == []  # not queued again and again
    settings.PAR_TASK_SECONDS = 1800
    with pytest.raises(ApplicationError) as refused:
        par_cancel(board=board, user=_users()["director"])
    assert refused.value.code == "analysis_not_running"


def test_the_sweep_queues_again_a_run_whose_worker_died(settings: Any) -> None:
    """A run left running longer than a task may run (its worker died: nothing else ends a
    run without storing or cancelling it) is queued again as a new run by beat's sweep, and
    analysed (eagerly here); a run still within its time is left to its task."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.par.services import par_sweep

    settings.PAR_ANALYSIS_AUTO = True
    settings.PAR_QUERY_NODES = 2_000
    settings.PAR_TASK_SECONDS = 600
    _tournament, board, tables = _duplicate()
    settings.PAR_ANALYSIS_AUTO = False  # played without its automatic analysis
    for n, table in enumerate(tables):
        hand_play(hand_create(table=table).hand, seed=71 + n)
    settings.PAR_ANALYSIS_AUTO = True
    started = timezone.now() - timedelta(seconds=600 + 60)
    row = BoardPar.objects.create(
        board=board, status=AnalysisStatus.RUNNING, run=4, started_at=started
    )
    assert par_sweep() == []  # 11 minutes: within PAR_TASK_SECONDS + 5 minutes
    row.refresh_from_db()
    assert (row.status, row.run) == (AnalysisStatus.RUNNING, 4)
    BoardPar.objects.filter(pk=row.pk).update(started_at=started - timedelta(seconds=300))
    assert par_sweep() == [board.pk]
    row.refresh_from_db()
    assert row.run == 5 and row.status == AnalysisStatus.DONE  # eager: the new run ran
    assert HandPar.objects.filter(board_par=row).count() == 2
    # the dead run's task, were it to wake, stores nothing
    assert par_analyse(board_id=board.pk, run=4) == "stale"
