"""Seasons of small tournaments played through the services (hands recorded, rounds closed,
final results published), for the season tests, the browser test and the bench's checks."""

import random
from typing import Any

from tests import factories
from tests.tournaments.builders import finish, pass_out, table_of
from tournaments.models import Entry, Player, Round, RoundStatus, Season, Tournament
from tournaments.tournament.services import tournament_finish


def players(n: int, prefix: str = "Player") -> list[Player]:
    return [Player.objects.create(name=f"{prefix} {i + 1}", club="Club") for i in range(n)]


def played_tournament(
    *,
    slug: str,
    people: list[Player],
    director: Any,
    rounds: int = 2,
    hands: int = 2,
    seed: int = 1,
    final: bool = True,
    rule_profile: str = "comp2016",
) -> Tournament:
    """A tournament of ``people`` (a multiple of the table size), ``rounds`` rounds of
    ``hands`` random hands at tables drawn at random, final unless ``final`` is False."""
    rng = random.Random(seed)
    tournament = factories.TournamentFactory(
        slug=slug, name=slug.title(), hands_per_round=hands, rule_profile=rule_profile
    )
    size = 4 if rule_profile == "four_p" else 3
    entries = [
        Entry.objects.create(tournament=tournament, player=p, registration_order=i + 1)
        for i, p in enumerate(people)
    ]
    for number in range(1, rounds + 1):
        order = entries[:]
        rng.shuffle(order)
        for t in range(len(order) // size):
            table = table_of(tournament, number, t + 1, order[t * size : (t + 1) * size])
            for _ in range(hands):
                if rng.random() < 0.1:
                    pass_out(table)
                else:
                    finish(
                        table,
                        landlord=rng.randrange(size),
                        bid=rng.choice([1, 2, 3]),
                        winner=rng.choice(["landlord", "defenders"]),
                    )
        Round.objects.filter(tournament=tournament, number=number).update(status=RoundStatus.CLOSED)
    if final:
        tournament = tournament_finish(tournament=tournament, recorded_by=director)
    return tournament


def season_of(slug: str, tournaments: list[Tournament], **fields: Any) -> Season:
    season = Season.objects.create(name=slug.title(), slug=slug, **fields)
    season.tournaments.set(tournaments)
    return season
