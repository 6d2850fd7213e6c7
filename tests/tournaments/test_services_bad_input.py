"""Bad arguments to a service are an ApplicationError with a code, and nothing is written.

Reproductions from the issue: a 200-character or NUL-containing idempotency key and
``doubled=None`` raised raw DataError/TypeError; on SQLite the long key was even stored.
Then a hypothesis fuzz over every service entry point's plain arguments.
"""

from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.boards import board_create
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, HandEvent, Table
from tournaments.rounds.services import round_create, seat_create, table_create
from tournaments.tournament.penalties import penalty_create
from tournaments.tournament.players import player_create
from tournaments.tournament.services import entry_create, tournament_create, tournament_update

pytestmark = pytest.mark.django_db

RESULT: dict[str, Any] = {
    "landlord": 0,
    "bid": 3,
    "winner": "landlord",
    "doubled": (False, True, False),
    "redoubled": False,
    "bombs": 1,
    "rockets": 0,
    "spring": False,
    "anti_spring": False,
}


def row_counts() -> dict[str, int]:
    """Rows of every model of the project and of accounts (users, groups)."""
    models = [
        *apps.get_app_config("tournaments").get_models(),
        *apps.get_app_config("auth").get_models(),
    ]
    return {model.__name__: model.objects.count() for model in models}


def hand_state(hand: Hand) -> tuple[Any, ...]:
    hand.refresh_from_db()
    return (hand.status, hand.version, hand.scores, hand.events.count())


@pytest.mark.parametrize(
    "key",
    ["k" * 200, "k" * 129, "key\x00with-nul", "", "tab\there", 42, b"bytes"],
    ids=["200-chars", "129-chars", "nul", "empty", "control-char", "int", "bytes"],
)
def test_a_bad_idempotency_key_is_refused_and_nothing_is_written(
    seated_table: Table, key: Any
) -> None:
    hand = hand_create(table=seated_table).hand
    before = hand_state(hand)
    with pytest.raises(ApplicationError) as refused:
        hand_record_result(hand=hand, idempotency_key=key, **RESULT)
    assert refused.value.code == "invalid"
    assert "idempotency_key" in refused.value.extra["fields"]  # type: ignore[operator]
    assert hand_state(hand) == before


def test_a_128_character_key_is_accepted(seated_table: Table) -> None:
    hand = hand_create(table=seated_table).hand
    hand_record_result(hand=hand, idempotency_key="k" * 128, **RESULT)
    assert HandEvent.objects.get(hand=hand).idempotency_key == "k" * 128


@pytest.mark.parametrize(
    "field, value",
    [
        ("doubled", (False, None, False)),
        ("doubled", "no"),
        ("doubled", (False, False)),
        ("redoubled", None),
        ("spring", "yes"),
        ("anti_spring", 1),
        ("expected_version", "3"),
        ("expected_version", 2**80),
    ],
)
def test_bad_result_arguments_are_refused_and_nothing_is_written(
    seated_table: Table, field: str, value: Any
) -> None:
    hand = hand_create(table=seated_table).hand
    before = hand_state(hand)
    with pytest.raises(ApplicationError) as refused:
        hand_record_result(hand=hand, **{**RESULT, field: value})
    assert refused.value.code == "invalid"
    assert hand_state(hand) == before


def test_four_doubled_flags_at_a_three_seat_table_are_not_this_tables(
    seated_table: Table,
) -> None:
    """Four flags are a four-seat table's: well-formed, refused as not this table's."""
    hand = hand_create(table=seated_table).hand
    before = hand_state(hand)
    with pytest.raises(ApplicationError) as refused:
        hand_record_result(hand=hand, **{**RESULT, "doubled": (False, False, False, False)})
    assert refused.value.code == "seat_not_at_table"
    assert refused.value.extra["fields"] == {"doubled": ["must be 3 booleans, one per seat."]}
    assert hand_state(hand) == before


def test_doubled_none_is_nobody_doubled(seated_table: Table) -> None:
    """``doubled=None`` is not a bad flag: it is one ``False`` a seat (whatever ``RESULT``
    says)."""
    hand = hand_record_result(
        hand=hand_create(table=seated_table).hand, **{**RESULT, "doubled": None}
    ).hand
    assert hand.doubled == [False, False, False]
    nobody = {**RESULT, "doubled": (False, False, False)}
    plain = hand_record_result(hand=hand_create(table=factories.seated_table()).hand, **nobody).hand
    assert hand.scores == plain.scores


def test_text_with_a_nul_character_is_refused_on_every_database() -> None:
    before = row_counts()
    with pytest.raises(ApplicationError) as refused:
        tournament_create(name="Open\x00", slug="open")
    assert refused.value.code == "invalid"
    assert refused.value.extra["fields"] == {"name": ["must not contain NUL characters."]}
    with pytest.raises(ApplicationError):
        player_create(name="Zhang\x00Wei")
    assert row_counts() == before


SURROGATE_REFUSED = ["must not contain lone surrogates (U+D800 to U+DFFF)."]


def test_text_with_a_lone_surrogate_is_refused_on_every_database() -> None:
    """A lone surrogate is no character: the driver cannot encode it (UnicodeEncodeError on
    PostgreSQL and SQLite alike), so the service refuses it, in a column or a reason."""
    entry = factories.seated_table().seats.get(position=0).entry
    before = row_counts()
    with pytest.raises(ApplicationError) as refused:
        tournament_create(name="Open\ud800", slug="open")
    assert refused.value.code == "invalid"
    assert refused.value.extra["fields"] == {"name": SURROGATE_REFUSED}
    with pytest.raises(ApplicationError) as refused:
        player_create(name="Zhang Wei", chinese_name="张\udc00伟")
    assert refused.value.extra["fields"] == {"chinese_name": SURROGATE_REFUSED}
    with pytest.raises(ApplicationError) as refused:
        penalty_create(entry=entry, points=-1, reason="slow play \udfff")
    assert refused.value.extra["fields"] == {"reason": SURROGATE_REFUSED}
    assert row_counts() == before


def test_text_beyond_the_basic_multilingual_plane_is_stored_exactly() -> None:
    """Emoji, CJK extension B and private-use characters (four UTF-8 bytes, a surrogate
    pair in UTF-16) are ordinary text on every database."""
    name = "𠮷野家 \U000fe6e2 🀄"
    player = player_create(name=name)
    player.refresh_from_db()
    assert player.name == name and len(player.name) == 7
    entry = factories.seated_table().seats.get(position=0).entry
    penalty = penalty_create(entry=entry, points=-1, reason=name)
    penalty.refresh_from_db()
    assert penalty.reason == name


# --- fuzz -------------------------------------------------------------------------------------

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.text(alphabet=st.sampled_from("a\x00-_ 地主"), max_size=300),
    st.lists(st.booleans(), max_size=4),
    st.tuples(st.booleans(), st.booleans(), st.booleans()),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.sampled_from(["landlord", "defenders", "comp2016", "table", "draft", "k" * 200]),
)


class _Discard(Exception):
    """Raised at the end of an example to roll its writes back."""


def assert_refused_cleanly(call: Callable[..., Any], setup: Callable[[], Any] = dict) -> None:
    """``call(setup())`` succeeds or raises ApplicationError; a refusal writes nothing.
    Everything the example wrote, ``setup`` included, is rolled back afterwards."""
    try:
        with transaction.atomic():
            made = setup()
            before = row_counts()
            try:
                call(made)
            except ApplicationError as exc:
                assert exc.code, exc
                assert isinstance(exc.message, str) and exc.message, exc
                assert row_counts() == before
            raise _Discard
    except _Discard:
        pass


def fuzz_arguments(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(names), junk, min_size=1, max_size=len(names))


FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(args=fuzz_arguments(["name", "chinese_name", "club", "external_id"]))
def test_fuzz_player_create(args: dict[str, Any]) -> None:
    assert_refused_cleanly(lambda _: player_create(**{"name": "Li Na", **args}))


TOURNAMENT_FIELDS = ["name", "slug", "rule_profile", "format", "hands_per_round", "is_public"]


@FUZZ
@given(args=fuzz_arguments(TOURNAMENT_FIELDS))
def test_fuzz_tournament_create(args: dict[str, Any]) -> None:
    assert_refused_cleanly(lambda _: tournament_create(**{"name": "Open", "slug": "open", **args}))


@FUZZ
@given(args=fuzz_arguments([f for f in TOURNAMENT_FIELDS if f != "slug"] + ["status"]))
def test_fuzz_tournament_update(seated_table: Table, args: dict[str, Any]) -> None:
    tournament = seated_table.round.tournament
    assert_refused_cleanly(lambda _: tournament_update(tournament=tournament, **args))


@FUZZ
@given(args=fuzz_arguments(["registration_order"]))
def test_fuzz_entry_create(seated_table: Table, args: dict[str, Any]) -> None:
    tournament = seated_table.round.tournament
    assert_refused_cleanly(
        lambda player: entry_create(tournament=tournament, player=player, **args),
        factories.PlayerFactory,
    )


@FUZZ
@given(args=fuzz_arguments(["number", "status"]))
def test_fuzz_round_create(seated_table: Table, args: dict[str, Any]) -> None:
    tournament = seated_table.round.tournament
    assert_refused_cleanly(lambda _: round_create(tournament=tournament, **{"number": 9, **args}))


@FUZZ
@given(args=fuzz_arguments(["number"]))
def test_fuzz_table_create(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(lambda _: table_create(round=seated_table.round, **args))


@FUZZ
@given(args=fuzz_arguments(["position"]))
def test_fuzz_seat_create(seated_table: Table, args: dict[str, Any]) -> None:
    def setup() -> tuple[Any, Any]:
        table = factories.TableFactory(round=seated_table.round, number=2)
        return table, factories.EntryFactory(tournament=seated_table.round.tournament)

    assert_refused_cleanly(lambda made: seat_create(table=made[0], entry=made[1], **args), setup)


@FUZZ
@given(args=fuzz_arguments(["number", "seed"]))
def test_fuzz_board_create(seated_table: Table, args: dict[str, Any]) -> None:
    tournament = seated_table.round.tournament
    assert_refused_cleanly(
        lambda _: board_create(tournament=tournament, **{"number": 1, "seed": 7, **args})
    )


@FUZZ
@given(args=fuzz_arguments(["number", "deal"]))
def test_fuzz_hand_create(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(lambda _: hand_create(table=seated_table, **args).hand)


@FUZZ
@given(args=fuzz_arguments([*RESULT, "idempotency_key", "expected_version"]))
def test_fuzz_hand_record_result(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_record_result(hand=hand, **{**RESULT, **args}).hand,
        lambda: hand_create(table=seated_table).hand,
    )
