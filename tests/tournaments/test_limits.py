"""Every integer a director sets has a sane maximum (tournaments/common/limits.py), refused above
it with the code ``too_large`` by the service, the director form (400) and the database.

Reproduction: ``hands_per_round = 2147483647`` made seating loop for minutes while it held
a transaction.
"""

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tests import factories
from tests.tournaments.test_constraints import assert_rejected
from tests.tournaments.test_services_bad_input import row_counts
from tournaments.common.errors import ApplicationError
from tournaments.common.limits import (
    BOARD_NUMBER_MAX,
    HANDS_PER_ROUND_MAX,
    REGISTRATION_ORDER_MAX,
    ROUND_NUMBER_MAX,
    TABLE_NUMBER_MAX,
)
from tournaments.hands.boards import board_create
from tournaments.models import Board, Entry, Round, RoundBoard, Table, Tournament
from tournaments.rounds.services import round_create, table_create
from tournaments.seating.services import round_seat
from tournaments.tournament.generate import GenerateOptions, tournament_generate
from tournaments.tournament.services import entry_create, tournament_create, tournament_update

pytestmark = pytest.mark.django_db

INT4_MAX = 2**31 - 1
INT8_MAX = 2**63 - 1


def edges(maximum: int) -> list[int]:
    """Just above the maximum, the int4 and int8 edges and one beyond each."""
    return [maximum + 1, INT4_MAX, INT4_MAX + 1, INT8_MAX, INT8_MAX + 1]


def refused_too_large(call: Callable[[], Any], field: str) -> None:
    before = row_counts()
    with pytest.raises(ApplicationError) as refused:
        call()
    assert refused.value.code == "too_large"
    assert field in refused.value.extra["fields"]
    assert row_counts() == before  # nothing written


@pytest.mark.parametrize("value", edges(HANDS_PER_ROUND_MAX))
def test_tournament_create_refuses_too_many_hands_per_round(value: int) -> None:
    refused_too_large(
        lambda: tournament_create(name="Open", slug="open", hands_per_round=value),
        "hands_per_round",
    )


def test_the_maximum_itself_is_accepted() -> None:
    tournament = tournament_create(name="Open", slug="open", hands_per_round=HANDS_PER_ROUND_MAX)
    assert tournament.hands_per_round == HANDS_PER_ROUND_MAX


@pytest.mark.parametrize("value", edges(HANDS_PER_ROUND_MAX))
def test_tournament_update_refuses_too_many_hands_per_round(
    seated_table: Table, value: int
) -> None:
    tournament = seated_table.round.tournament
    refused_too_large(
        lambda: tournament_update(tournament=tournament, hands_per_round=value), "hands_per_round"
    )
    assert Tournament.objects.get(pk=tournament.pk).hands_per_round == tournament.hands_per_round


@pytest.mark.parametrize("value", edges(ROUND_NUMBER_MAX))
def test_round_create_refuses_a_number_above_the_maximum(seated_table: Table, value: int) -> None:
    tournament = seated_table.round.tournament
    refused_too_large(lambda: round_create(tournament=tournament, number=value), "number")


def test_round_create_refuses_the_next_number_after_the_maximum(seated_table: Table) -> None:
    tournament = seated_table.round.tournament
    round_create(tournament=tournament, number=ROUND_NUMBER_MAX)
    refused_too_large(lambda: round_create(tournament=tournament), "number")


@pytest.mark.parametrize("value", edges(TABLE_NUMBER_MAX))
def test_table_create_refuses_a_number_above_the_maximum(seated_table: Table, value: int) -> None:
    refused_too_large(lambda: table_create(round=seated_table.round, number=value), "number")


@pytest.mark.parametrize("value", edges(BOARD_NUMBER_MAX))
def test_board_create_refuses_a_number_above_the_maximum(seated_table: Table, value: int) -> None:
    tournament = seated_table.round.tournament
    refused_too_large(lambda: board_create(tournament=tournament, number=value, seed=7), "number")


@pytest.mark.parametrize("value", edges(REGISTRATION_ORDER_MAX))
def test_entry_create_refuses_a_registration_order_above_the_maximum(
    seated_table: Table, value: int
) -> None:
    tournament = seated_table.round.tournament
    player = factories.PlayerFactory()
    refused_too_large(
        lambda: entry_create(tournament=tournament, player=player, registration_order=value),
        "registration_order",
    )


@pytest.mark.parametrize(
    "field, value",
    [("players", REGISTRATION_ORDER_MAX + 1), ("rounds", INT4_MAX), ("hands", INT8_MAX + 1)],
)
def test_generate_refuses_sizes_above_the_maxima(field: str, value: int) -> None:
    options = {"players": 3, "rounds": 1, "hands": 1, field: value}
    refused_too_large(lambda: tournament_generate(options=GenerateOptions(**options)), field)
    with pytest.raises(CommandError, match="too_large"):
        call_command("tournament_generate", f"--{field}={value}")
    assert not Tournament.objects.exists()


# --------------------------------------------------------------------- the database refuses


@pytest.mark.parametrize(
    "write",
    [
        lambda t: Tournament.objects.filter(pk=t.round.tournament_id).update(
            hands_per_round=HANDS_PER_ROUND_MAX + 1
        ),
        lambda t: Round.objects.filter(pk=t.round_id).update(number=ROUND_NUMBER_MAX + 1),
        lambda t: Table.objects.filter(pk=t.pk).update(number=TABLE_NUMBER_MAX + 1),
        lambda t: Entry.objects.filter(tournament_id=t.round.tournament_id).update(
            registration_order=REGISTRATION_ORDER_MAX + 1
        ),
        lambda t: Board.objects.create(
            tournament_id=t.round.tournament_id,
            number=BOARD_NUMBER_MAX + 1,
            seed=1,
            seat_cards=["", "", ""],
            kitty="",
            first_bidder=0,
        ),
        lambda t: RoundBoard.objects.create(
            round=t.round,
            hand_number=HANDS_PER_ROUND_MAX + 1,
            board=factories.BoardFactory(tournament=t.round.tournament),
        ),
    ],
    ids=["hands_per_round", "round", "table", "registration_order", "board", "round_board"],
)
def test_the_database_refuses_a_value_above_the_maximum(
    seated_table: Table, write: Callable[[Table], Any]
) -> None:
    assert_rejected(lambda: write(seated_table))


# --------------------------------------------------------------------- the director screens


def tournament_post(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "Saturday",
        "slug": "sat",
        "rule_profile": "comp2016",
        "format": "table",
        "hands_per_round": 2,
        **overrides,
    }


@pytest.mark.parametrize("value", edges(HANDS_PER_ROUND_MAX))
def test_the_new_tournament_form_refuses_too_many_hands_with_a_400(
    director_client: Any, value: int
) -> None:
    before = row_counts()
    response = director_client.post("/director/new/", tournament_post(hands_per_round=value))
    assert response.status_code == 400
    assert str(HANDS_PER_ROUND_MAX) in response.content.decode()  # the form says the limit
    assert row_counts() == before


@pytest.mark.parametrize("value", edges(HANDS_PER_ROUND_MAX))
def test_the_tournament_settings_form_refuses_too_many_hands_with_a_400(
    director_client: Any, value: int
) -> None:
    assert director_client.post("/director/new/", tournament_post()).status_code == 302
    before = row_counts()
    response = director_client.post("/director/t/sat/", tournament_post(hands_per_round=value))
    assert response.status_code == 400
    assert row_counts() == before
    assert Tournament.objects.get(slug="sat").hands_per_round == 2


@pytest.mark.parametrize("who", ["anonymous", "plain user", "referee"])
def test_only_a_director_reaches_the_tournament_forms(client: Any, referee: Any, who: str) -> None:
    if who == "plain user":
        client.force_login(get_user_model().objects.create_user("plain", password="x"))
    elif who == "referee":
        client.force_login(referee)
    before = row_counts()
    response = client.post("/director/new/", tournament_post(hands_per_round=INT4_MAX))
    assert response.status_code == 302  # to the sign-in page
    assert row_counts() == before


# --------------------------------------------------------------------- the seating loop


def test_seating_a_round_at_the_maximum_hands_per_round_is_quick() -> None:
    """Duplicate: one board per hand is dealt while the round is seated; at the maximum
    that loop runs 100 times, not two billion."""
    tournament = tournament_create(
        name="Long", slug="long", format="duplicate", hands_per_round=HANDS_PER_ROUND_MAX
    )
    for order in range(1, 7):
        entry_create(
            tournament=tournament, player=factories.PlayerFactory(), registration_order=order
        )
    round_ = round_create(tournament=tournament)
    started = time.monotonic()
    round_seat(round=round_, seed=1)
    assert RoundBoard.objects.filter(round=round_).count() == HANDS_PER_ROUND_MAX
    assert time.monotonic() - started < 30
