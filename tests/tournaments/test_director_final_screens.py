"""Issue 17 point 5, director screens without detours: reopen the final results and a
round, set a referee's password (each with a reason or a confirmation step), penalties by
registration number, no duplicate single entry, the export buttons' files."""

import csv
import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.test import Client

from tests import factories
from tests.tournaments.builders import finish
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP
from tournaments.models import (
    Entry,
    Penalty,
    Player,
    Round,
    RoundLog,
    RoundLogKind,
    RoundStatus,
    Tournament,
    TournamentLog,
    TournamentLogKind,
    TournamentStatus,
)
from tournaments.rounds.referees import referee_password_set
from tournaments.tournament.services import tournament_finish

pytestmark = pytest.mark.django_db


def _messages(response: Any) -> list[tuple[str, str]]:
    return [(m.extra_tags, str(m)) for m in response.context["messages"]]


def _finished(slug: str = "fin") -> tuple[Tournament, Any]:
    table = factories.seated_table(slug=slug, hands_per_round=1)
    hand = finish(table, landlord=0, bid=2, winner="landlord")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    return tournament_finish(tournament=table.round.tournament), hand


# --------------------------------------------------------------------------- final results
def test_reopening_the_final_results_needs_a_director_a_reason_and_the_confirmation(
    client: Any, director_client: Any, referee: Any
) -> None:
    tournament, _ = _finished()
    url = f"/director/t/{tournament.slug}/standings/reopen/"
    for user in (None, referee):
        other = Client()
        if user is not None:
            other.force_login(user)
        assert other.post(url, {"reason": "x", "confirm": "on"}).status_code == 302  # sign in
    refusals = [
        ({"reason": "late result"}, "confirmation_required"),
        ({"reason": " ", "confirm": "on"}, "reason_required"),
    ]
    for data, code in refusals:
        response = director_client.post(url, data, follow=True)
        assert code in [tag for tag, _ in _messages(response)]
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED
    assert not TournamentLog.objects.filter(kind=TournamentLogKind.RESULTS_REOPENED).exists()
    done = director_client.post(url, {"reason": "late result", "confirm": "on"}, follow=True)
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    assert 'id="publish-final"' in done.content.decode()


def test_a_correction_of_a_final_result_is_refused_on_the_hand_page(director_client: Any) -> None:
    tournament, hand = _finished()
    url = f"/director/t/{tournament.slug}/hands/{hand.pk}/correct/"
    data = {"landlord": 1, "bid": 1, "winner": "landlord", "bombs": 0, "rockets": 0}
    response = director_client.post(url, {**data, "reason": "typo"}, follow=True)
    assert "results_final" in [tag for tag, _ in _messages(response)]
    hand.refresh_from_db()
    assert hand.landlord_seat == 0


# --------------------------------------------------------------------------- rounds
def test_a_round_reopens_from_its_page_with_a_reason_and_the_confirmation(
    director_client: Any,
) -> None:
    table = factories.seated_table(slug="rr")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    url = f"/director/t/rr/rounds/{table.round.number}/reopen/"
    for data, code in [
        ({"reason": "late result"}, "confirmation_required"),
        ({"reason": "", "confirm": "on"}, "reason_required"),
    ]:
        response = director_client.post(url, data, follow=True)
        assert code in [tag for tag, _ in _messages(response)]
        assert Round.objects.get(pk=table.round_id).status == RoundStatus.CLOSED
    director_client.post(url, {"reason": "late result", "confirm": "on"})
    assert Round.objects.get(pk=table.round_id).status == RoundStatus.PLAYING
    assert RoundLog.objects.get(kind=RoundLogKind.REOPENED).reason == "late result"


def test_a_round_of_a_final_tournament_does_not_reopen(director_client: Any) -> None:
    _, hand = _finished("rf")
    number = hand.table.round.number
    response = director_client.post(
        f"/director/t/rf/rounds/{number}/reopen/", {"reason": "late", "confirm": "on"}, follow=True
    )
    assert "results_final" in [tag for tag, _ in _messages(response)]
    assert Round.objects.get(pk=hand.table.round_id).status == RoundStatus.CLOSED
    assert (
        'id="reopen-round"'
        in director_client.get(f"/director/t/rf/rounds/{number}/").content.decode()
    )


# --------------------------------------------------------------------------- referee password
def _plain_referee(username: str) -> Any:
    user = factories.UserFactory(username=username)
    user.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
    user.set_unusable_password()
    user.save()
    return user


GOOD = "tiles-and-dragons-42"


def test_referee_password_refusals(director: Any, referee: Any) -> None:
    _plain_referee("plain-ref")
    staff = factories.UserFactory(username="staff-ref", is_staff=True)
    staff.groups.add(Group.objects.get(name=REFEREE_GROUP))
    holder = _plain_referee("holder-ref")
    holder.user_permissions.add(Permission.objects.first())
    inactive = _plain_referee("sleepy-ref")
    inactive.is_active = False
    inactive.save()
    factories.UserFactory(username="no-group")
    cases = [
        ({"username": "plain-ref", "recorded_by": referee}, "director_required"),
        ({"username": "plain-ref", "recorded_by": None}, "director_required"),
        ({"username": "nobody"}, "not_found"),
        ({"username": "staff-ref"}, "privileged_account"),
        ({"username": "holder-ref"}, "privileged_account"),
        ({"username": "sleepy-ref"}, "inactive_account"),
        ({"username": "no-group"}, "not_a_referee_account"),
        ({"username": "plain-ref", "password_again": GOOD + "!"}, "passwords_differ"),
        ({"username": "plain-ref", "password": "123", "password_again": "123"}, "weak_password"),
        ({"username": "plain-ref", "password": "x" * 129, "password_again": "x"}, "invalid"),
    ]
    for overrides, code in cases:
        kwargs = {"password": GOOD, "password_again": GOOD, "recorded_by": director, **overrides}
        with pytest.raises(ApplicationError) as excinfo:
            referee_password_set(**kwargs)
        assert excinfo.value.code == code, overrides
    for user in get_user_model().objects.all():
        assert not user.check_password(GOOD)


def test_a_director_sets_a_plain_referees_password_from_the_round_page(
    director_client: Any,
) -> None:
    table = factories.seated_table(slug="pw")
    plain = _plain_referee("table-ref")
    url = f"/director/t/pw/rounds/{table.round.number}/referee_password/"
    data = {"username": "table-ref", "password": GOOD, "password_again": GOOD}
    refused = director_client.post(url, data, follow=True)
    assert "confirmation_required" in [tag for tag, _ in _messages(refused)]
    plain.refresh_from_db()
    assert not plain.check_password(GOOD)
    director_client.post(url, {**data, "confirm": "on"})
    plain.refresh_from_db()
    assert plain.check_password(GOOD)
    assert get_user_model().objects.get(username="table-ref").check_password(GOOD)


# --------------------------------------------------------------------------- penalties
def test_a_penalty_names_the_entry_by_its_registration_number(director_client: Any) -> None:
    table = factories.seated_table(slug="pen")
    tournament = table.round.tournament
    # Registration numbers unlike the internal ids, as at a real event.
    for n, seat in enumerate(table.seats.order_by("position")):
        Entry.objects.filter(pk=seat.entry_id).update(registration_order=10 + n)
    hand = finish(table, landlord=0, bid=2, winner="landlord")
    target = Entry.objects.get(tournament=tournament, registration_order=11)
    assert target.pk != 11
    url = f"/director/t/pen/hands/{hand.pk}/penalty/"
    unknown = director_client.post(url, {"entry": 99, "points": -2, "reason": "late"}, follow=True)
    assert "unknown_entry" in [tag for tag, _ in _messages(unknown)]
    assert not Penalty.objects.exists()
    director_client.post(url, {"entry": 11, "points": -2, "reason": "late"})
    assert Penalty.objects.get().entry == target
    page = director_client.get(f"/director/t/pen/hands/{hand.pk}/").content.decode()
    assert f"{target.player} (#11)" in page and "#11 " in page


# --------------------------------------------------------------------------- entries
def test_the_single_entry_form_refuses_a_duplicate_name_and_club(director_client: Any) -> None:
    tournament = factories.TournamentFactory(slug="dup")
    url = "/director/t/dup/entries/"
    director_client.post(url, {"name": "Li Wei", "club": "North"})
    refused = director_client.post(url, {"name": " li wei ", "club": "NORTH"})
    assert "entry_duplicate" in [tag for tag, _ in _messages(refused)]
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert Player.objects.count() == 1
    director_client.post(url, {"name": "Li Wei", "club": "South"})  # another club: another player
    assert Entry.objects.filter(tournament=tournament).count() == 2


def test_the_csv_import_refuses_a_duplicate_name_and_club_the_same_way(
    director_client: Any,
) -> None:
    tournament = factories.TournamentFactory(slug="dupcsv")
    director_client.post("/director/t/dupcsv/entries/", {"name": "Li Wei", "club": "North"})
    url = "/director/t/dupcsv/entries/import/"
    text = "name,club\nLi Wei,North\nZhang San,North\nZhang San,North\n"
    preview = director_client.post(url, {"text": text, "preview": "1"}).content.decode()
    assert preview.count('class="row-error"') == 2
    assert "already registered as #1" in preview
    director_client.post(url, {"text": text, "confirm": "1"})
    assert Entry.objects.filter(tournament=tournament).count() == 1


# --------------------------------------------------------------------------- exports
def _csv(response: Any) -> list[list[str]]:
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    decoded = text.decode("utf-8")
    assert decoded.startswith("\ufeff")
    return list(csv.reader(io.StringIO(decoded.lstrip("\ufeff"))))


def test_export_downloads_per_tournament_and_per_round(
    client: Any, director_client: Any, referee: Any
) -> None:
    _, hand = _finished("exp")
    round_number = hand.table.round.number
    base = "/director/t/exp"
    for user in (None, referee):
        other = Client()
        if user is not None:
            other.force_login(user)
        assert other.get(f"{base}/export/hands.csv").status_code == 302
    assert director_client.get(f"{base}/export/secrets.txt").status_code == 404
    assert director_client.get(f"{base}/rounds/99/export/hands.csv").status_code == 404

    archive = director_client.get(f"{base}/export/archive.json")
    assert archive["Content-Disposition"] == 'attachment; filename="exp.json"'
    data = json.loads(archive.content)
    assert data["tournament"]["slug"] == "exp" and len(data["rounds"]) == 1
    part = json.loads(
        director_client.get(f"{base}/rounds/{round_number}/export/archive.json").content
    )
    assert part["part"] == {"round": round_number}
    assert [r["number"] for r in part["rounds"]] == [round_number]

    hands = _csv(director_client.get(f"{base}/export/hands.csv"))
    assert hands[0][:3] == ["round", "table", "hand"] and len(hands) == 2
    assert hands[1][:3] == [str(round_number), str(hand.table.number), "1"]
    round_hands = _csv(director_client.get(f"{base}/rounds/{round_number}/export/hands.csv"))
    assert round_hands == hands

    standings = _csv(director_client.get(f"{base}/export/standings.csv"))
    assert standings[0][:3] == ["rank", "registration", "name"] and len(standings) == 4
    by_round = _csv(director_client.get(f"{base}/rounds/{round_number}/export/standings.csv"))
    assert by_round == standings
    page = director_client.get(f"{base}/").content.decode()
    for kind in ("archive.json", "hands.csv", "standings.csv"):
        assert f'href="{base}/export/{kind}"' in page
    round_page = director_client.get(f"{base}/rounds/{round_number}/").content.decode()
    assert f'href="{base}/rounds/{round_number}/export/hands.csv"' in round_page
