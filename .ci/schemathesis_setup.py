"""Data for the schemathesis run: a director with an API token, a playing round and hands
of every mode. Prints the token. Run with DJANGO_SETTINGS_MODULE=config.settings."""

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from tournaments.hands.write import hand_create  # noqa: E402
from tournaments.models import (  # noqa: E402
    Entry,
    Player,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)

director, _ = get_user_model().objects.get_or_create(
    username="schemathesis-director", defaults={"is_staff": True}
)
token, _ = Token.objects.get_or_create(user=director)
Round.objects.filter(status=RoundStatus.SEATED).update(status=RoundStatus.PLAYING)
# A round of its own, one table per mode: a table has at most one live hand.
tournament, made = Tournament.objects.get_or_create(
    slug="schemathesis", defaults={"name": "Schemathesis", "is_public": True}
)
if made:
    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.PLAYING)
    players = Player.objects.bulk_create(Player(name=f"Fuzz {i}") for i in range(9))
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, registration_order=i + 1)
        for i, p in enumerate(players)
    )
    tables = Table.objects.bulk_create(Table(round=round_, number=i + 1) for i in range(3))
    Seat.objects.bulk_create(
        Seat(table=t, round=round_, position=pos, entry=entries[3 * i + pos])
        for i, t in enumerate(tables)
        for pos in range(3)
    )
    hand_create(table=tables[0], random_deal=True)
    hand_create(table=tables[1], physical_cards=True, first_bidder=1)
    hand_create(table=tables[2])
print(token.key)
