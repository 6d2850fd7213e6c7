"""``legal_ahead`` (issue 29): the seats after the one on turn, each after the seats before
it declined. An invariant on random hands of every profile with dealt cards: each entry is
exactly what pushing its declines gives (the turn, the phase, the legal actions), each
decline is legal in its turn, and the state is given back as it was."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.ahead import is_decline, legal_ahead
from referee.rules.games import deal_json_from_seed, state_new
from referee.rules.profiles import get_profile


@settings(max_examples=30, deadline=None)
@given(
    profile=st.sampled_from(["comp2016", "classic", "four_p", "laizi"]),
    seed=st.integers(min_value=0, max_value=2**31),
    steps=st.integers(min_value=0, max_value=120),
)
def test_each_entry_is_its_declines_pushed_and_the_state_is_given_back(
    profile: str, seed: int, steps: int
) -> None:
    rules = get_profile(profile)
    state = state_new(rules, deal_json_from_seed(rules, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.push(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    before = (state.to_events(), state.turn, str(state.phase), state.legal_actions())
    ahead = legal_ahead(state, rules.seats)
    assert (state.to_events(), state.turn, str(state.phase), state.legal_actions()) == before
    assert len(ahead) < rules.seats

    check = state_new(rules, deal_json_from_seed(rules, seed))
    for action in state.to_events():
        check.push(next(a for a in check.legal_actions() if a.to_json() == action))
    turns = [state.turn] + [entry.turn for entry in ahead]
    for n, entry in enumerate(ahead, start=1):
        assert len(entry.declines) == n and all(is_decline(d) for d in entry.declines)
        assert [d.seat for d in entry.declines] == turns[:n]
        pushed = 0
        for decline in entry.declines:
            assert decline in check.legal_actions()
            check.push(decline)
            pushed += 1
        assert (check.turn, str(check.phase)) == (entry.turn, entry.phase)
        assert list(entry.legal_actions) == check.legal_actions()
        assert not check.is_over
        for _ in range(pushed):
            check.pop()
