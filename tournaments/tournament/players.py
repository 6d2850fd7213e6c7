from django.db import transaction

from tournaments.common.model_validation import model_validate
from tournaments.models import Player


@transaction.atomic
def player_create(
    *, name: str, chinese_name: str = "", club: str = "", external_id: str = ""
) -> Player:
    player = Player(name=name, chinese_name=chinese_name, club=club, external_id=external_id)
    model_validate(player)
    player.save()
    return player
