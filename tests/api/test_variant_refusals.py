"""What the referee API refuses on a variant hand (issue 20), each refusal a 4xx with its
code and the hand unchanged: a variant hand is refereed play by play (not from a result
alone), its seats are its table's, four_p has no doubling, a declaration (``as``) comes with a
play only, and its result comes from its log (a director may still correct it to passed out
or void it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests import factories
from tests.api.helpers import assign, client_for, post, referee_user
from tournaments.common.seats import MAX_SEATS
from tournaments.models import Hand, Player, Table
from tournaments.rounds.services import round_create, round_start
from tournaments.seating.services import round_seat, seat_remove
from tournaments.tournament.services import entry_create, tournament_create

pytestmark = pytest.mark.django_db

SEATS = {"four_p": 4, "five_p": 5, "laizi": 3}


def _table(profile: str) -> Table:
    tournament = tournament_create(name=profile, slug=profile, rule_profile=profile)
    for i in range(SEATS[profile]):
        entry_create(tournament=tournament, player=Player.objects.create(name=f"p{i}"))
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    table = Table.objects.get(round=round_)
    assert table.seats.count() == SEATS[profile]
    return table


def _started(client: Any, table: Table) -> dict[str, Any]:
    answer = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random"})
    assert answer.status_code == 201, answer.json()
    return answer.json()


def _refused(answer: Any, status: int, code: str) -> None:
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.json()


@pytest.fixture(params=sorted(SEATS))
def profile(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def referee(profile: str) -> tuple[Any, Table]:
    table = _table(profile)
    user = referee_user(f"referee-{profile}")
    assign(user, table)
    return client_for(user), table


def test_a_variant_hand_is_refereed_play_by_play(referee: tuple[Any, Table], profile: str) -> None:
    """No result-only entry in either variant (physical cards: ``test_physical_variants``)."""
    client, table = referee
    answer = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"})
    _refused(answer, 400, "variant_needs_deal")
    assert profile in answer.json()["message"]
    # What a client needs to start the hand instead.
    assert answer.json()["details"] == {
        "profile": profile,
        "seats": SEATS[profile],
        "deals": ["random", "board", "physical"],
    }
    assert not Hand.objects.filter(table=table).exists()
    # A deal it names starts the hand.
    started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical"})
    assert started.status_code == 201, started.json()
    assert Hand.objects.filter(table=table).count() == 1


def test_the_first_bidder_is_a_seat_of_the_table(referee: tuple[Any, Table], profile: str) -> None:
    client, table = referee
    beyond = post(
        client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random", "first_bidder": MAX_SEATS}
    )
    _refused(beyond, 400, "validation")  # no table has that seat
    seats = SEATS[profile]
    if seats < MAX_SEATS:  # a seat of bigger tables, not of this one
        answer = post(
            client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random", "first_bidder": seats}
        )
        _refused(answer, 422, "seat_not_at_table")
        assert not Hand.objects.filter(table=table).exists()
    answer = post(
        client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random", "first_bidder": seats - 1}
    )
    assert answer.status_code == 201 and answer.json()["turn"] == seats - 1
    assert answer.json()["seats"] == seats and len(answer.json()["hands"]) == seats


def test_actions_outside_the_profile_are_refused(referee: tuple[Any, Table], profile: str) -> None:
    client, table = referee
    hand = _started(client, table)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    turn = hand["turn"]
    refusals = [({"seat": turn, "bid": 1, "as": "3"}, 400, "validation")]  # as: with a play
    # a call is six players' (R13.4): well-formed, refused by these rules
    refusals.append(({"seat": turn, "call": "♠A"}, 422, "no_call"))
    if SEATS[profile] < MAX_SEATS:
        refusals.append(({"seat": SEATS[profile], "bid": 1}, 422, "seat_not_at_table"))
    if profile == "laizi":
        refusals += [
            ({"seat": turn, "play": "3", "as": "3"}, 422, "phase"),  # no play while bidding
        ]
    else:
        refusals.append(({"seat": turn, "play": "3", "as": "3"}, 422, "no_wild_cards"))
    for body, status, code in refusals:
        _refused(post(client, url, body), status, code)
    after = client.get(f"/api/v1/hands/{hand['id']}/").json()
    assert after["version"] == hand["version"] == 0


def test_four_p_and_five_p_have_no_doubling(referee: tuple[Any, Table], profile: str) -> None:
    client, table = referee
    hand = _started(client, table)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    seat = hand["turn"]
    hand = post(client, url, {"seat": seat, "bid": 3}).json()  # a 3 closes the auction
    assert hand["landlord"] == seat
    legal = hand["legal_actions"]
    if profile in ("four_p", "five_p"):  # R11.1, R14.3
        assert hand["status"] == "playing"
        _refused(post(client, url, {"seat": seat, "double": True}), 422, "invalid_double")
        assert not any("double" in a or "redouble" in a for a in legal)
    else:
        assert hand["status"] == "doubling"
        assert any("double" in a for a in legal)


def test_a_variant_result_comes_from_its_log(referee: tuple[Any, Table], profile: str) -> None:
    client, table = referee
    hand = _started(client, table)
    result = {"landlord": 0, "bid": 1, "winner": "landlord"}
    for path in ("result", "result/preview"):
        answer = post(client, f"/api/v1/hands/{hand['id']}/{path}/", result)
        _refused(answer, 409, "result_from_log")
    assert client.get(f"/api/v1/hands/{hand['id']}/").json()["version"] == 0


def test_a_director_corrects_a_variant_hand_to_passed_out_or_voids_it(
    referee: tuple[Any, Table], profile: str
) -> None:
    client, table = referee
    hand = _started(client, table)
    rng = random.Random(3)
    while hand["status"] in ("bidding", "doubling", "playing"):
        options = hand["legal_actions"]
        if hand["status"] == "bidding":
            options = [a for a in options if a["bid"]] or options
        hand = post(client, f"/api/v1/hands/{hand['id']}/actions/", rng.choice(options)).json()
    assert hand["status"] == "finished" and len(hand["scores"]) == SEATS[profile]
    director = client_for(factories.UserFactory(username="director", is_staff=True))
    url = f"/api/v1/hands/{hand['id']}/correction/"
    body = {"landlord": 0, "bid": 2, "winner": "landlord", "reason": "wrong", "override": True}
    _refused(post(director, url, body), 409, "result_from_log")
    corrected = post(director, url, {"passed_out": True, "override": True, "reason": "misdeal"})
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["scores"] == [0] * SEATS[profile]
    voided = post(director, f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"})
    assert voided.status_code == 200 and voided.json()["scores"] is None


def test_a_three_player_hand_takes_no_fourth_seat_and_no_declaration() -> None:
    """What the schema takes from any table (a seat up to 3, a play's ``as``) a comp2016 hand
    refuses as well-formed but not its own: 422, the hand unchanged."""
    table = _table_of_three()
    user = referee_user("referee-comp2016")
    assign(user, table)
    client = client_for(user)
    hand = _started(client, table)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    _refused(post(client, url, {"seat": 3, "bid": 1}), 422, "seat_not_at_table")
    declared = post(client, url, {"seat": hand["turn"], "play": "3", "as": "3"})
    _refused(declared, 422, "no_wild_cards")
    assert "comp2016" in declared.json()["message"]
    first = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random", "first_bidder": 3})
    _refused(first, 422, "seat_not_at_table")
    assert client.get(f"/api/v1/hands/{hand['id']}/").json()["version"] == 0


def _table_of_three() -> Table:
    tournament = tournament_create(name="classic open", slug="comp-open")
    for i in range(3):
        entry_create(tournament=tournament, player=Player.objects.create(name=f"c{i}"))
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    return Table.objects.get(round=round_)


WRITERS = ("table_referee", "round_referee", "director")
OUTSIDERS = ("referee_of_another_table", "plain_user", "anonymous")
PERMISSION_CODES = {"not_authenticated", "permission_denied", "not_assigned"}


def _client_of(role: str, table: Table) -> Any:
    if role == "anonymous":
        return client_for(None)
    if role == "plain_user":
        return client_for(factories.UserFactory(username="plain"))
    if role == "director":
        return client_for(factories.UserFactory(username="director", is_staff=True))
    user = referee_user(role)
    if role == "referee_of_another_table":
        assign(user, _table_of_three())
    else:
        assign(user, table, whole_round=role == "round_referee")
    return client_for(user)


@pytest.mark.parametrize("role", WRITERS + OUTSIDERS)
def test_each_role_meets_the_variant_refusals_or_its_permission_refusal(role: str) -> None:
    """The variant refusals are the same for whoever may write at the table; anybody else
    gets the permission refusal first (the hand's rules are not told), and nothing changes."""
    table = _table("laizi")
    own = referee_user("own-referee")
    assign(own, table)
    dealt = _started(client_for(own), table)
    post(client_for(own), f"/api/v1/hands/{dealt['id']}/void/", {"reason": "next"})
    client = _client_of(role, table)

    def refused(path: str, body: dict[str, Any], status: int, code: str) -> None:
        answer = post(client, f"/api/v1/{path}", body)
        if role in WRITERS:
            _refused(answer, status, code)
        else:
            assert answer.status_code in (401, 403), answer.json()
            assert answer.json()["code"] in PERMISSION_CODES

    refused(f"tables/{table.pk}/hands/", {"deal": "none"}, 400, "variant_needs_deal")
    assert Hand.objects.filter(table=table).count() == 1
    physical = post(
        client_for(own), f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical"}
    ).json()
    versions = list(Hand.objects.order_by("pk").values_list("version", flat=True))
    result = {"landlord": 0, "bid": 1, "winner": "landlord"}
    refused(f"hands/{physical['id']}/actions/", {"seat": 3, "bid": 1}, 422, "seat_not_at_table")
    refused(f"hands/{physical['id']}/wild/", {"wild": "7"}, 409, "wild_before_landlord")
    refused(f"hands/{physical['id']}/wild/", {"wild": "X"}, 422, "invalid_wild_rank")
    refused(f"hands/{dealt['id']}/wild/", {"wild": "7"}, 409, "wild_rank_dealt")
    refused(f"hands/{physical['id']}/result/", result, 409, "result_from_log")
    # a value of another JSON type than the schema gives: refused as the schema refuses it
    refused(f"hands/{physical['id']}/actions/", {"seat": "0", "bid": 1}, 400, "validation")
    refused(f"hands/{physical['id']}/actions/", {"seat": 0, "double": "yes"}, 400, "validation")
    assert list(Hand.objects.order_by("pk").values_list("version", flat=True)) == versions


def test_no_hand_starts_at_a_table_with_an_empty_seat(
    referee: tuple[Any, Table], profile: str
) -> None:
    """A director may empty a seat before the table's first hand (its entry sits out); the
    table then starts no hand until the seat is filled again (table_not_full)."""
    client, table = referee
    seat_remove(seat=table.seats.get(position=SEATS[profile] - 1), reason="left ill")
    answer = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random"})
    _refused(answer, 409, "table_not_full")
    assert f"{SEATS[profile] - 1} of its {SEATS[profile]}" in answer.json()["message"]
    assert not Hand.objects.filter(table=table).exists()
