"""The input serializers' fields are copied per instance without DRF's deep copy
(``StrictSerializer.get_fields``): each instance still has fields of its own, bound to it,
and what one request gives a field never shows in another's."""

from __future__ import annotations

import threading
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from referee.api.serializers import ActionInput, CorrectionInput, StrictSerializer
from tournaments.common.seats import MAX_SEATS


def test_each_instance_has_its_own_fields_bound_to_it() -> None:
    first, second = ActionInput(data={"seat": 0, "bid": 1}), ActionInput(data={"seat": 1})
    for name in ("seat", "bid", "play", "as"):
        assert first.fields[name] is not second.fields[name]
        assert first.fields[name].parent is first and second.fields[name].parent is second
        assert first.fields[name] is not ActionInput._declared_fields[name]
        assert ActionInput._declared_fields[name].parent is None  # the class's: never bound


def test_a_compound_field_is_deep_copied_with_its_child() -> None:
    one, two = CorrectionInput(), CorrectionInput()
    doubled_one, doubled_two = one.fields["doubled"], two.fields["doubled"]
    assert isinstance(doubled_one, serializers.ListField)
    assert doubled_one.child is not doubled_two.child
    assert doubled_one.child.parent is doubled_one


def test_answers_and_refusals_are_each_requests_own() -> None:
    """Many threads validating at once, as gunicorn's threads do: each gets its own answer."""
    wrong: list[str] = []

    def validate(n: int) -> None:
        for _ in range(50):
            seat = n % (MAX_SEATS + 2)  # the last two are no table's seat: refused
            given = ActionInput(data={"seat": seat, "play": "3" * (1 + n % 3)})
            valid = given.is_valid()
            if valid != (seat < MAX_SEATS):
                wrong.append(f"{seat}: {valid}")
            elif valid and given.validated_data != {"seat": seat, "play": "3" * (1 + n % 3)}:
                wrong.append(repr(given.validated_data))
            elif not valid and set(given.errors) != {"seat"}:
                wrong.append(repr(given.errors))

    threads = [threading.Thread(target=validate, args=(n,)) for n in range(2 * (MAX_SEATS + 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_an_unknown_field_and_a_wrong_type_are_still_refused() -> None:
    unknown = ActionInput(data={"seat": 0, "bid": 1, "sseat": 2})
    assert not unknown.is_valid() and set(unknown.errors) == {"sseat"}
    typed = ActionInput(data={"seat": "0", "bid": 1})
    assert not typed.is_valid() and set(typed.errors) == {"seat"}
    assert issubclass(ActionInput, StrictSerializer)


# ------------------------------------------------------- the plain check of an action
_FIELDS = ("seat", "bid", "double", "redouble", "play", "call", "partner", "as", "pass")
_TEXTS = st.one_of(
    st.sampled_from(["♠3 ♥4", "77W", "777", "pass", "♠2", "none", " ", "", "3" * 16, "3" * 17]),
    st.text(alphabet=st.sampled_from("3♠\x00\ud800 W"), max_size=8),
    st.text(max_size=3).map(lambda t: t * 80),  # about the longest texts (200, 400)
)
_VALUES = st.one_of(
    st.sampled_from([-1001, -1000, -1, 0, 1, 1000, 1001]),  # a bid's bounds
    st.integers(min_value=-1002, max_value=1002),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXTS,
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=3000, deadline=None)
@given(
    data=st.one_of(
        st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=4),
        st.builds(
            lambda seat, kind, value: {"seat": seat, kind: value},
            st.integers(min_value=-1, max_value=MAX_SEATS),
            st.sampled_from(_FIELDS[1:]),
            _VALUES,
        ),
        st.lists(st.integers(), max_size=2),
        st.text(max_size=3),
    )
)
def test_the_plain_check_of_an_action_takes_only_what_the_serializer_takes(data: Any) -> None:
    """``ActionInput.plain_validated`` (the write's fast path) answers only data the
    serializer finds valid, with the serializer's validated data, in its order; what it does
    not answer, the serializer decides."""
    plain = ActionInput.plain_validated(data)
    serializer = ActionInput(data=data)
    valid = serializer.is_valid()
    if plain is not None:
        assert valid, (data, serializer.errors)
        assert list(plain.items()) == list(serializer.validated_data.items())


def test_the_plain_check_answers_every_shape_a_phone_sends() -> None:
    sent = [
        {"seat": 0, "bid": 3},
        {"seat": 1, "bid": 0},
        {"seat": 2, "double": True},
        {"seat": 0, "redouble": False},
        {"seat": 1, "play": "♠3 ♥3"},
        {"seat": 2, "play": "pass"},
        {"seat": 0, "play": "77W", "as": "777"},
        {"seat": 5, "call": "♠2"},
        {"seat": 3, "partner": True},
    ]
    for data in sent:
        serializer = ActionInput(data=data)
        assert serializer.is_valid(), serializer.errors
        assert ActionInput.plain_validated(data) == serializer.validated_data == data
    for refused in (
        {"seat": 0, "partner": False},
        {"seat": 0, "bid": 1, "as": "3"},
        {"seat": 0, "play": ""},
        {"seat": 0, "play": "3\x00"},
        {"seat": 0, "bid": True},
        {"seat": MAX_SEATS, "bid": 1},
        {"seat": 0, "bid": 1001},
        {"seat": 0, "call": "3" * 17},
        {"seat": 0, "bid": 1, "double": True},
        {"seat": 0, "bid": 1, "extra": 1},
    ):
        assert ActionInput.plain_validated(refused) is None
        assert not ActionInput(data=refused).is_valid()
