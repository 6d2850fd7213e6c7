import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from referee.rules.profiles import get_profile
from referee.rules.scoring import DealResult, score_result
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Player,
    RefereeAssignment,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.roles import user_is_director, user_is_referee

pytestmark = pytest.mark.django_db

MODELS = (Tournament, Player, Entry, Round, Table, Seat, Board, Hand, HandEvent, RefereeAssignment)


def run_demo() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_load_demo_creates_the_demo_and_prints_the_login() -> None:
    output = run_demo()
    assert "director / director" in output
    tournament = Tournament.objects.get(slug="demo")
    assert tournament.is_public
    assert tournament.entries.count() == 9
    assert all(entry.player.chinese_name for entry in tournament.entries.all())
    (round_,) = tournament.rounds.all()
    assert round_.status == "seated"
    assert round_.tables.count() == 3
    assert Seat.objects.filter(round=round_).count() == 9
    assert tournament.boards.count() == 3


def test_load_demo_is_idempotent() -> None:
    run_demo()
    first = counts()
    run_demo()
    assert counts() == first
    assert get_user_model().objects.filter(username__in=["director", "referee"]).count() == 2


def test_demo_hands_are_finished_zero_sum_and_scored_by_the_rules_library() -> None:
    run_demo()
    finished = Hand.objects.filter(status="finished")
    assert finished.count() >= 3
    for hand in finished:
        scores = (hand.score_0, hand.score_1, hand.score_2)
        assert None not in scores and sum(scores) == 0  # type: ignore[arg-type]
        (event,) = hand.events.filter(kind="result")
        result = event.payload["result"]
        result["doubled"] = tuple(result["doubled"])
        expected = score_result(DealResult(**result), get_profile(hand.rule_profile))
        assert scores == expected
        assert hand.board is not None


def test_demo_logins_work(client: Any) -> None:
    run_demo()
    User = get_user_model()
    director = User.objects.get(username="director")
    referee = User.objects.get(username="referee")
    assert director.is_staff and director.is_superuser and user_is_director(director)
    assert user_is_referee(referee) and not user_is_director(referee)
    assert client.login(username="director", password="director")
    assert client.get("/admin/").status_code == 200
    client.logout()
    assert client.login(username="referee", password="referee")
