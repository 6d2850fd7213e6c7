"""``python -m referee.rules deal`` under the Big Three profiles (issue 31): the seed's deal of
52 cards, 16 each and a hole of 4, the hearts and the first bidder they name (R12.4)."""

from __future__ import annotations

import io

import pytest

from referee.rules.__main__ import main
from referee.rules.cards import parse_cards
from referee.rules.games import deal_json_from_seed
from referee.rules.profiles import get_profile


@pytest.mark.parametrize("profile", ["big3", "big3_one_round"])
@pytest.mark.parametrize("seed", [0, 7, 42])
def test_the_deal_of_a_seed_under_big_three(profile: str, seed: int) -> None:
    out = io.StringIO()
    assert main(["deal", str(seed), "--profile", profile], out=out) == 0
    lines = out.getvalue().splitlines()
    data = deal_json_from_seed(get_profile(profile), seed)
    seats = [line.split(": ", 1)[1] for line in lines[:3]]
    assert seats == data["hands"]
    assert [len(parse_cards(s)) for s in seats] == [16, 16, 16]
    assert lines[3] == f"hole:   {data['kitty']}"
    assert len(parse_cards(data["kitty"])) == 4
    assert not any(c.is_joker for s in (*seats, data["kitty"]) for c in parse_cards(s))
    assert lines[5].startswith(f"first bidder: seat {data['first_bidder']} ")


def test_the_three_player_deal_is_unchanged() -> None:
    before, after = io.StringIO(), io.StringIO()
    main(["deal", "5"], out=before)
    main(["--profile", "classic", "deal", "5"], out=after)
    assert before.getvalue() == after.getvalue()
    assert len(before.getvalue().splitlines()) == 5
