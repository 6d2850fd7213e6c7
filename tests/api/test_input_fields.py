"""The input serializers' fields are copied per instance without DRF's deep copy
(``StrictSerializer.get_fields``): each instance still has fields of its own, bound to it,
and what one request gives a field never shows in another's."""

from __future__ import annotations

import threading

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
