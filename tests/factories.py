"""factory_boy factories.  They write rows directly (no services), so tests can
also build states that only the database constraints stop."""

import json
from typing import Any

import factory
from django.contrib.auth import get_user_model

from referee.rules.cards import deal_from_seed, format_cards
from tournaments.common.seats import seat_positions
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Player,
    RefereeAssignment,
    Round,
    Seat,
    StandingSnapshot,
    Table,
    Tournament,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("password")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Faker("name")
    chinese_name = factory.Faker("name", locale="zh_CN")
    club = factory.Faker("city", locale="zh_CN")


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    is_public = True


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    registration_order = factory.Sequence(lambda n: n + 1)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    round = factory.LazyAttribute(lambda seat: seat.table.round)
    position = 0
    entry = factory.SubFactory(
        EntryFactory, tournament=factory.SelfAttribute("..table.round.tournament")
    )


class RefereeAssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RefereeAssignment

    round = factory.SubFactory(RoundFactory)
    user = factory.SubFactory(UserFactory)


def _deal_text(seed: int, part: str) -> str:
    return format_cards(deal_from_seed(seed).kitty)


class BoardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Board

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    seed = factory.Sequence(lambda n: 1000 + n)
    seat_cards = factory.LazyAttribute(
        lambda b: [format_cards(cards) for cards in deal_from_seed(b.seed).hands]
    )
    kitty = factory.LazyAttribute(lambda b: _deal_text(b.seed, "kitty"))
    first_bidder = factory.LazyAttribute(lambda b: deal_from_seed(b.seed).first_bidder)


class HandFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Hand

    table = factory.SubFactory(TableFactory)
    number = factory.Sequence(lambda n: n + 1)
    rule_profile = factory.LazyAttribute(lambda h: h.table.round.tournament.rule_profile)


class HandEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = HandEvent

    hand = factory.SubFactory(HandFactory)
    seq = factory.Sequence(lambda n: n + 1)
    kind = "note"
    payload = factory.LazyFunction(dict)


class StandingSnapshotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = StandingSnapshot

    tournament = factory.SubFactory(TournamentFactory)
    entry = factory.SubFactory(EntryFactory, tournament=factory.SelfAttribute("..tournament"))
    rank = 1
    total = 0
    log_version = 0


def seated_table(**tournament_fields: Any) -> Table:
    """A table with an entry in each of its seats (three, or four under four_p)."""
    tournament = TournamentFactory(**tournament_fields)
    table = TableFactory(round=RoundFactory(tournament=tournament))
    for position in seat_positions(tournament.rule_profile):
        SeatFactory(table=table, position=position)
    return table


def archive_without_version_4(data: dict[str, Any]) -> dict[str, Any]:
    """A version-4 archive (``tournament_archive``) without what version 4 added: no rounds
    planned (0) and no exclusions, still version 4 — what importing its version-3 (or 2)
    form and exporting it again gives."""
    out = json.loads(json.dumps(data))
    out["tournament"]["rounds_planned"] = 0
    for round_ in out["rounds"]:
        for table in round_["tables"]:
            table["exclusions"] = []
    return out


def archive_as_version_3(data: dict[str, Any]) -> dict[str, Any]:
    """A version-4 archive (``tournament_archive``) as a version-3 server wrote it: no
    ``rounds_planned``, no table ``exclusions`` (whatever they were: version 3 had none)."""
    old = json.loads(json.dumps(data))
    old["version"] = 3
    del old["tournament"]["rounds_planned"]
    for round_ in old["rounds"]:
        for table in round_["tables"]:
            del table["exclusions"]
    return old


def archive_as_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """A version-4 archive (``tournament_archive``) as a version-2 server wrote it (its
    version-3 form, ``archive_as_version_3``, with the three-seat columns — a board's
    ``hand_0..2``, a hand's ``doubled_0..2`` and ``score_0..2``, each score null while the
    hand has none — instead of the arrays, and no ``seats``)."""

    def columns(obj: dict[str, Any], array: str, prefix: str) -> None:
        values = obj.pop(array)
        for position, value in enumerate([None] * 3 if values is None else values):
            obj[f"{prefix}_{position}"] = value

    old = archive_as_version_3(data)
    old["version"] = 2
    for board in old["boards"]:
        columns(board, "seat_cards", "hand")
    for round_ in old["rounds"]:
        for table in round_["tables"]:
            for hand in table["hands"]:
                assert hand.pop("seats") == 3
                columns(hand, "doubled", "doubled")
                columns(hand, "scores", "score")
    return old


def tournament_log_says(tournament_id: int, **fields: Any) -> None:
    """Append the tournament log row that lets the database change these settings from
    what they are to ``fields`` (migration 0024: the newest row naming a setting that
    changes the standings must say old → new), as ``tournament_update`` does first."""
    from tournaments.models import TournamentLogKind
    from tournaments.tournament.log import tournament_log_append

    now = Tournament.objects.filter(pk=tournament_id).values(*fields).get()
    tournament_log_append(
        tournament_id=tournament_id,
        kind=TournamentLogKind.SETTINGS_CHANGED,
        changes={name: [now[name], value] for name, value in fields.items()},
        recorded_by=None,
    )


def tournament_set(tournament_id: int, **fields: Any) -> None:
    """Change settings of a tournament around ``tournament_update``'s checks (a test's set-up),
    with the log row the database asks for first."""
    tournament_log_says(tournament_id, **fields)
    Tournament.objects.filter(pk=tournament_id).update(**fields)


def log_moved_on(tournament_id: int, times: int = 1) -> None:
    """Move the tournament's log version on by ``times`` with nothing recomputed (a worker
    stuck): each move a -1 penalty on its first entry, which the database marks, and the
    bump that ``tournament_scores_changed`` makes of it, without the recompute it queues."""
    from django.db.models import F

    from tournaments.models import Penalty

    entry = Entry.objects.filter(tournament_id=tournament_id).order_by("pk").first()
    assert entry is not None
    for _ in range(times):
        Penalty.objects.create(tournament_id=tournament_id, entry=entry, points=-1, reason="R9")
        Tournament.objects.filter(pk=tournament_id).update(
            log_version=F("log_version") + 1, inputs_changed=False
        )
