import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.management import CommandError, call_command

from referee.rules.profiles import get_profile
from referee.rules.scoring import DealResult, score_result
from tournaments.common.roles import user_is_director, user_is_referee
from tournaments.hands.replay import hand_check_replays
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
from tournaments.standings.queries import standings_latest

pytestmark = pytest.mark.django_db

MODELS = (Tournament, Player, Entry, Round, Table, Seat, Board, Hand, HandEvent, RefereeAssignment)


def run_demo(**options: Any) -> str:
    """Run the command; the test settings have DEBUG off, as in production."""
    out = io.StringIO()
    call_command("load_demo", stdout=out, **{"allow_production": True, **options})
    return out.getvalue()


def can_sign_in(client: Any, username: str, password: str) -> bool:
    """Through the API token endpoint (any user; throttled like every sign-in form)."""
    response = client.post("/api/v1/auth/token/", {"username": username, "password": password})
    return bool(response.status_code == 200)


def admin_sign_in(client: Any, username: str, password: str) -> bool:
    response = client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password}
    )
    return bool(response.status_code == 302)


def printed_password(output: str, username: str) -> str:
    match = re.search(rf"^{username} login: {username} / (\S+)", output, re.MULTILINE)
    assert match, output
    return match.group(1)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_load_demo_creates_the_demo_and_prints_the_login() -> None:
    output = run_demo()
    assert "director login: director / " in output
    tournament = Tournament.objects.get(slug="demo")
    assert tournament.is_public
    assert tournament.entries.count() == 9
    assert all(entry.player.chinese_name for entry in tournament.entries.all())
    (round_,) = tournament.rounds.all()
    assert round_.status == "playing"
    assert round_.tables.count() == 3
    assert Seat.objects.filter(round=round_).count() == 9
    assert tournament.boards.count() == 3


def test_the_demo_is_seated_by_the_engine_played_through_the_write_path_and_ranked() -> None:
    run_demo()
    tournament = Tournament.objects.get(slug="demo")
    (round_,) = tournament.rounds.all()
    assert round_.seed is not None and round_.seating_explanation
    assert round_.log.filter(kind="seated").exists()
    played = Hand.objects.filter(table__round=round_, table__number=1)
    assert played.count() == 2
    for hand in played:
        assert hand.status == "finished"
        assert hand.events.filter(kind="play").count() >= 2  # action by action
        assert not hand.events.filter(kind="result").exists()
        assert hand_check_replays(hand=hand) == []
    assert Hand.objects.filter(table__round=round_, status="bidding").count() == 1  # live
    latest = standings_latest(tournament=tournament)
    assert latest.count() == 9
    tournament.refresh_from_db()
    assert {s.log_version for s in latest} == {tournament.log_version}


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
    for hand in finished.filter(events__kind="result"):  # the result-only tables
        scores = hand.scores
        assert len(scores) == hand.seats == 3 and sum(scores) == 0
        (event,) = hand.events.filter(kind="result")
        result = event.payload["result"]
        result["doubled"] = tuple(result["doubled"])
        expected = score_result(DealResult(**result), get_profile(hand.rule_profile))
        assert scores == list(expected)
        assert hand.board is not None


def test_demo_logins_work(client: Any, settings: Any) -> None:
    """``make run`` (DEBUG on) keeps the documented logins."""
    settings.DEBUG = True
    run_demo(demo_logins=True, allow_production=False)
    User = get_user_model()
    director = User.objects.get(username="director")
    referee = User.objects.get(username="referee")
    assert director.is_staff and not director.is_superuser and user_is_director(director)
    assert user_is_referee(referee) and not user_is_director(referee)
    assert admin_sign_in(client, "director", "director")
    assert client.get("/admin/").status_code == 200
    client.logout()
    assert can_sign_in(client, "referee", "referee")


def test_refuses_to_run_with_debug_off_unless_told() -> None:
    with pytest.raises(CommandError, match="--allow-production"):
        call_command("load_demo", stdout=io.StringIO())
    assert counts() == dict.fromkeys(counts(), 0)
    assert not get_user_model().objects.exists()


def test_demo_logins_are_refused_with_debug_off() -> None:
    with pytest.raises(CommandError, match="--demo-logins"):
        run_demo(demo_logins=True)
    assert not get_user_model().objects.exists()


def test_never_creates_a_superuser_and_generated_passwords_pass_the_validators(
    client: Any,
) -> None:
    output = run_demo()
    User = get_user_model()
    assert not User.objects.filter(is_superuser=True).exists()
    for username in ("director", "referee"):
        password = printed_password(output, username)
        assert password != username
        user = User.objects.get(username=username)
        validate_password(password, user)  # raises if a validator refuses it
        assert can_sign_in(client, username, password)


def test_running_again_resets_no_password_and_gives_no_privilege_back(
    client: Any, settings: Any
) -> None:
    """Reproduction: a second run reset a changed password and made director superuser."""
    run_demo()
    User = get_user_model()
    director = User.objects.get(username="director")
    director.set_password("a director's own passphrase 42")
    director.is_superuser = False
    director.is_staff = False
    director.save()

    output = run_demo()
    settings.DEBUG = True
    run_demo(demo_logins=True)

    director.refresh_from_db()
    assert not director.is_superuser and not director.is_staff
    assert director.check_password("a director's own passphrase 42")
    assert "director: existing user, password unchanged" in output
    assert not can_sign_in(client, "director", "director")


def test_make_run_keeps_the_documented_demo_logins() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "manage.py load_demo --demo-logins" in run_recipe


def test_running_again_after_a_referee_undid_or_voided_a_demo_hand() -> None:
    """``make run`` loads the demo every time: a rerun after the live demo hand was
    corrected (an action undone, a hand voided) goes on, as the log now stands."""
    from tournaments.hands.corrections import hand_void
    from tournaments.hands.write import hand_action_undo

    run_demo()
    played = Hand.objects.filter(table__number=1).order_by("number")
    first, second = played[0], played[1]
    assert (first.status, second.status) == ("finished", "finished")
    hand_action_undo(hand=first, reason="wrong card entered")
    hand_action_undo(hand=Hand.objects.get(pk=first.pk), reason="and the one before")
    hand_void(hand=second, reason="misdeal")
    run_demo()
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("finished", "voided")
    assert hand_check_replays(hand=first) == []


def test_load_demo_prints_the_screens_each_login_signs_in_to(client: Any, settings: Any) -> None:
    """The referee signs in at the console (/referee/), not at an address that does not
    exist; each printed address answers (the console and the director's screens ask for a
    sign-in, the tournament page is public)."""
    settings.ALLOWED_HOSTS = ["testserver"]
    output = run_demo()
    assert "/api/referee/" not in output
    referee_line = re.search(r"^referee login: referee / \S+  \((.+)\)$", output, re.MULTILINE)
    director_line = re.search(r"^director login: director / \S+  \((.+)\)$", output, re.MULTILINE)
    assert referee_line and director_line, output
    assert referee_line.group(1) == "/referee/"
    assert director_line.group(1) == "/admin/, /director/"
    tournament_line = re.search(r"^Demo tournament: (\S+)$", output, re.MULTILINE)
    assert tournament_line and tournament_line.group(1) == "/t/demo/"
    assert client.get("/t/demo/").status_code == 200
    for address in ("/referee/", "/director/", "/admin/"):
        response = client.get(address)
        assert response.status_code == 302, address
        assert "login" in response["Location"], address


def test_make_run_prints_the_console_address() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "$(RUN_URL)/referee/" in run_recipe
    assert "/api/referee/" not in makefile
    assert "\nRUN_URL = http://127.0.0.1:$(lastword $(subst :, ,$(RUN_ADDR)))\n" in makefile
