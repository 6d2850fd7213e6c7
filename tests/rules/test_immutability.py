"""The library's value objects cannot change once made (python-chess ``Move``-style values):
a ``Play`` recorded as the top play or in a hand log, and a ``DealResult`` that was scored,
stay what they were. Changing one means making a new one (``dataclasses.replace``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules import COMP2016, Card, DealResult, Kind, Play, classify, deal_from_seed

RESULT = DealResult(
    landlord=0,
    bid=3,
    doubled=(False, True, False),
    redoubled=True,
    bombs=1,
    rockets=0,
    spring=False,
    anti_spring=False,
    winner="landlord",
)


def _values() -> list[Any]:
    play = classify("666777AA")
    assert play is not None
    return [play, RESULT, Card(11, "♠"), deal_from_seed(1), COMP2016]


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_fields_cannot_be_assigned_or_added(value: Any) -> None:
    before = repr(value)
    for field in dataclasses.fields(value):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field.name, getattr(value, field.name))
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        value.extra = 1
    assert repr(value) == before


def test_play_is_a_hashable_value_and_replace_makes_a_new_one() -> None:
    play = classify("666777AA")
    assert play is not None
    assert play == classify("AA666777") and hash(play) == hash(classify("AA666777"))
    other = dataclasses.replace(play, kind=Kind.AIRPLANE)
    assert other != play and play.kind is Kind.AIRPLANE_SINGLES
    assert {play: 1}[Play(Kind.AIRPLANE_SINGLES, play.rank, 2, play.key)] == 1


def test_deal_result_is_a_hashable_value_and_replace_makes_a_new_one() -> None:
    assert hash(RESULT) == hash(dataclasses.replace(RESULT))
    spring = dataclasses.replace(RESULT, spring=True)
    assert spring.spring and not RESULT.spring
    assert isinstance(RESULT.doubled, tuple)  # a tuple, not a list that could be changed in place
