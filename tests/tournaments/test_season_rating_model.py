"""The rating and points over plain values (``tournaments.season.rating``): properties."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tournaments.season.rating import (
    PARTICIPATION_POINTS,
    WINNER_POINTS,
    EventInput,
    HandOutcome,
    event_points,
    placings,
    rate,
    season_compute,
)


@st.composite
def events(draw: st.DrawFn) -> list[EventInput]:
    pool = list(range(1, draw(st.integers(4, 12)) + 1))
    out = []
    for t in range(draw(st.integers(1, 4))):
        size = draw(st.sampled_from([3, 4]))
        field = draw(
            st.lists(st.sampled_from(pool), min_size=size, max_size=len(pool), unique=True)
        )
        hands = []
        for _ in range(draw(st.integers(0, 8))):
            seats = draw(st.permutations(field))[:size]
            hands.append(HandOutcome(seats[0], tuple(seats[1:]), draw(st.booleans())))
        totals = {p: draw(st.integers(-20, 20)) for p in field}
        out.append(EventInput(tournament_id=t + 1, hands=hands, totals=totals))
    return out


@settings(max_examples=60, deadline=None)
@given(events())
def test_the_ladder_is_a_ranking_and_the_same_inputs_give_the_same_ladder(
    inputs: list[EventInput],
) -> None:
    result = season_compute(inputs)
    again = season_compute(inputs)
    assert result == again
    ranks = sorted(line.rank for line in result.players.values())
    assert ranks == list(range(1, len(result.players) + 1))
    ordered = sorted(result.players.values(), key=lambda line: line.rank)
    assert all(a.ordinal >= b.ordinal for a, b in itertools.pairwise(ordered))
    for line in result.players.values():
        assert abs(line.ordinal - (line.mu - 3 * line.sigma)) < 1e-9
    assert sum(line.events for line in result.players.values()) == sum(
        len(e.totals) for e in inputs
    )


def test_a_winning_landlord_gains_and_the_farmers_lose() -> None:
    won = season_compute([EventInput(1, [HandOutcome(1, (2, 3), True)], {1: 4, 2: -2, 3: -2})])
    lines = won.players
    assert lines[1].mu > 25 > lines[2].mu and lines[2].mu == lines[3].mu
    lost = season_compute([EventInput(1, [HandOutcome(1, (2, 3), False)], {1: -4, 2: 2, 3: 2})])
    assert lost.players[1].mu < 25 < lost.players[2].mu
    four = season_compute(
        [EventInput(1, [HandOutcome(1, (2, 3, 4), True)], {1: 6, 2: -2, 3: -2, 4: -2})]
    )
    assert four.players[1].mu > lines[1].mu  # beating three farmers is worth more


def test_placings_share_ties_and_points_run_from_the_winner_to_the_last() -> None:
    assert placings({1: 10, 2: 5, 3: 5, 4: -3}) == {1: 1, 2: 2, 3: 2, 4: 4}
    assert event_points(1, 10) == PARTICIPATION_POINTS + WINNER_POINTS
    assert event_points(10, 10) == PARTICIPATION_POINTS
    assert event_points(1, 1) == PARTICIPATION_POINTS + WINNER_POINTS
    assert [event_points(p, 5) for p in range(1, 6)] == sorted(
        (event_points(p, 5) for p in range(1, 6)), reverse=True
    )


def test_the_trend_is_the_change_over_the_last_event() -> None:
    first = EventInput(1, [HandOutcome(1, (2, 3), True)], {1: 4, 2: -2, 3: -2})
    second = EventInput(2, [HandOutcome(1, (2, 3), False)], {1: -4, 2: 2, 3: 2})
    one = season_compute([first])
    two = season_compute([first, second])
    assert one.players[1].trend == 0.0
    assert abs(two.players[1].trend - (two.players[1].ordinal - one.players[1].ordinal)) < 1e-12
    assert [s.order for s in two.steps if s.player_id == 1] == [1, 2]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 60), st.floats(0.5, 9)), min_size=3, max_size=4),
    st.booleans(),
)
def test_the_fast_update_is_the_librarys_rate_bit_for_bit(
    players: list[tuple[float, float]], landlord_won: bool
) -> None:
    model = PlackettLuce()
    mine = [model.rating(mu=mu, sigma=sigma) for mu, sigma in players]
    theirs = [model.rating(mu=mu, sigma=sigma) for mu, sigma in players]
    landlord, farmers = [mine[0]], mine[1:]
    t_landlord, t_farmers = [theirs[0]], theirs[1:]
    if landlord_won:
        got = rate(model, [landlord, farmers])
        want = model.rate([t_landlord, t_farmers], ranks=[1.0, 2.0])
    else:
        got = rate(model, [farmers, landlord])
        want = model.rate([t_farmers, t_landlord], ranks=[1.0, 2.0])
    assert [(r.mu, r.sigma) for team in got for r in team] == [
        (r.mu, r.sigma) for team in want for r in team
    ]
