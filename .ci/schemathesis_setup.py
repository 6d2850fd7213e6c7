"""Data for the schemathesis run: a director with an API token, a playing round and hands
of every mode. Prints the token. Run with DJANGO_SETTINGS_MODULE=config.settings."""

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from tournaments.models import Hand, Round, RoundStatus, Table  # noqa: E402
from tournaments.services.hands import hand_create  # noqa: E402

director, _ = get_user_model().objects.get_or_create(
    username="schemathesis-director", defaults={"is_staff": True}
)
token, _ = Token.objects.get_or_create(user=director)
Round.objects.filter(status=RoundStatus.SEATED).update(status=RoundStatus.PLAYING)
for table in Table.objects.filter(round__status=RoundStatus.PLAYING)[:3]:
    if not Hand.objects.filter(table=table, number__gt=100).exists():
        hand_create(table=table, number=101, random_deal=True)
        hand_create(table=table, number=102, physical_cards=True, first_bidder=1)
        hand_create(table=table, number=103)
print(token.key)
