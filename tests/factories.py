"""factory_boy factories.  They write rows directly (no services), so tests can
also build states that only the database constraints stop."""

from typing import Any

import factory
from django.contrib.auth import get_user_model

from referee.rules.cards import deal_from_seed, format_cards
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
    """A table with entries seated at positions 0, 1 and 2."""
    tournament = TournamentFactory(**tournament_fields)
    table = TableFactory(round=RoundFactory(tournament=tournament))
    for position in (0, 1, 2):
        SeatFactory(table=table, position=position)
    return table
