"""A public tournament with played hands, for the page tests, the browser tests and the
pages benchmark: every row written through the services (one write path)."""

from __future__ import annotations

import contextlib
from typing import Any

from referee.rules.cards import Deal
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands.replay import hand_deal
from tournaments.hands.write import hand_action_record, hand_announcement_record, hand_create
from tournaments.models import Hand, Round, RoundStatus, Table, Tournament


def tournament_with_tables(
    *, tables: int = 2, rounds: int = 1, **fields: Any
) -> tuple[Tournament, list[Table]]:
    """A public tournament whose rounds each seat the same ``3 × tables`` entries, the
    last round playing and the earlier ones closed."""
    tournament = factories.TournamentFactory(status="running", **fields)
    entries = [
        factories.EntryFactory(tournament=tournament, registration_order=i + 1)
        for i in range(3 * tables)
    ]
    made: list[Table] = []
    for number in range(1, rounds + 1):
        status = RoundStatus.PLAYING if number == rounds else RoundStatus.CLOSED
        round = factories.RoundFactory(tournament=tournament, number=number, status=status)
        for t in range(tables):
            table = factories.TableFactory(round=round, number=t + 1, first_bidder=0)
            for position in range(3):
                shift = (number - 1) * position  # meet other players in later rounds
                entry = entries[(3 * t + position + shift * 3) % len(entries)]
                factories.SeatFactory(table=table, position=position, entry=entry)
            made.append(table)
    return tournament, made


def hand_play(hand: Hand, *, seed: int, start: int = 0, upto: int | None = None) -> Hand:
    """Play ``hand`` with random legal actions (all of them, or those from
    ``start`` up to ``upto``),
    making every announcement (报牌) as it falls due."""
    deal = hand_deal(hand=hand)
    assert deal is not None
    actions = random_hand_actions(Deal.from_json(deal.to_json()), seed=seed)
    for action in actions[start:upto]:
        hand = hand_action_record(hand=hand, action=action).hand
        for seat in range(3):
            with contextlib.suppress(ApplicationError):  # nothing due for this seat
                hand = hand_announcement_record(hand=hand, seat=seat).hand
    return hand


def hand_played(table: Table, *, seed: int, upto: int | None = None, **create: Any) -> Hand:
    if "board" not in create:
        create["seed"] = seed
    hand = hand_create(table=table, **create).hand
    return hand_play(hand, seed=seed, upto=upto)


def round_draft(tournament: Tournament, number: int) -> Round:
    return factories.RoundFactory(tournament=tournament, number=number, status=RoundStatus.DRAFT)


def page_queries(captured: list[dict[str, Any]]) -> list[str]:
    """Of a page's captured queries, the page's own: not the shared cache's reads and writes
    (with Redis they are no query at all; the database cache of the tests writes each entry
    in a savepoint of its own, and a page writes one entry per part it renders, e.g. per
    table card of the live board). The pages themselves only read."""
    from django.conf import settings
    from django.core.cache import caches

    table = caches[settings.SHARED_CACHE]._table  # type: ignore[attr-defined]
    return [q["sql"] for q in captured if table not in q["sql"] and "SAVEPOINT" not in q["sql"]]
