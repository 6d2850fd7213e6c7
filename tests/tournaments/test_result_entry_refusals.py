"""A result entry's (and a correction's) fields read through ``DealResult.from_json`` are
refused as they were when each was checked by hand: a flag of the wrong type is ``invalid``
naming it, before anything else; a landlord, bid, bomb or rocket count or winner of the
wrong type is ``invalid_result`` naming its rule, in the rules' own order."""

from typing import Any

import pytest

from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.write import hand_create, hand_record_result, hand_result_preview
from tournaments.models import Hand, Table

pytestmark = pytest.mark.django_db

PLAIN: dict[str, Any] = {"landlord": 0, "bid": 1, "winner": "landlord"}

CASES = [
    # a flag of the wrong type is named first, whatever else is wrong
    (
        {"landlord": "x", "spring": "yes"},
        "invalid",
        {"fields": {"spring": ["must be true or false."]}},
    ),
    (
        {"bid": "2", "doubled": [True, False]},
        "invalid",
        {"fields": {"doubled": ["must be 3 booleans, one per seat."]}},
    ),
    (
        {"bid": "2", "doubled": [True, None, False]},
        "invalid",
        {"fields": {"doubled": ["must be 3 booleans, one per seat."]}},
    ),
    (
        {"bombs": "1", "anti_spring": 1},
        "invalid",
        {"fields": {"anti_spring": ["must be true or false."]}},
    ),
    (
        {"winner": 7, "redoubled": None},
        "invalid",
        {"fields": {"redoubled": ["must be true or false."]}},
    ),
    # a number or the winner of the wrong type: the rules' contradiction, with its rule
    ({"landlord": "0"}, "invalid_result", {"rule_number": "R2.2"}),
    ({"landlord": True}, "invalid_result", {"rule_number": "R2.2"}),
    ({"bid": 2.0}, "invalid_result", {"rule_number": "R3.1"}),
    ({"bid": True, "doubled": (True, False, False)}, "invalid_result", {"rule_number": "R3.1"}),
    ({"bombs": "1"}, "invalid_result", {"rule_number": "R5.19"}),
    ({"rockets": None}, "invalid_result", {"rule_number": "R5.20"}),
    ({"winner": None}, "invalid_result", {"rule_number": "R7.1"}),
]


def refusal(call: Any) -> tuple[str, dict[str, Any]]:
    with pytest.raises(ApplicationError) as info:
        call()
    extra = dict(info.value.extra or {})
    extra.pop("rule", None)  # the library's English explanation
    return info.value.code, extra


@pytest.mark.parametrize(("fields", "code", "extra"), CASES)
def test_an_entry_of_the_wrong_types_is_refused_as_ever(
    seated_table: Table, fields: dict[str, Any], code: str, extra: dict[str, Any]
) -> None:
    hand = hand_create(table=seated_table).hand
    values = {**PLAIN, **fields}
    assert refusal(lambda: hand_record_result(hand=hand, **values).hand) == (code, extra)
    full = {"doubled": (False, False, False), **values}
    assert refusal(lambda: hand_result_preview(hand=hand, **full)) == (code, extra)
    assert Hand.objects.get(pk=hand.pk).version == 0


@pytest.mark.parametrize(("fields", "code", "extra"), CASES)
def test_a_correction_of_the_wrong_types_is_refused_as_an_entry_is(
    seated_table: Table, fields: dict[str, Any], code: str, extra: dict[str, Any]
) -> None:
    hand = hand_record_result(hand=hand_create(table=seated_table).hand, **PLAIN).hand
    call = lambda: hand_result_correct(hand=hand, reason="typo", **{**PLAIN, **fields}).hand  # noqa: E731
    assert refusal(call) == (code, extra)
    assert Hand.objects.get(pk=hand.pk).version == 1


def test_a_correction_without_a_landlord_is_the_rules_refusal(seated_table: Table) -> None:
    hand = hand_record_result(hand=hand_create(table=seated_table).hand, **PLAIN).hand
    call = lambda: hand_result_correct(hand=hand, reason="typo", bid=1, winner="landlord").hand  # noqa: E731
    assert refusal(call) == ("invalid_result", {"rule_number": "R2.2"})


def test_a_preview_with_a_field_it_does_not_know_is_a_programming_error(
    seated_table: Table,
) -> None:
    hand = hand_create(table=seated_table).hand
    with pytest.raises(TypeError):
        hand_result_preview(hand=hand, bomb=1, **PLAIN)
