"""The permission matrix: role × endpoint × own/other table × round status.

Every forbidden write answers 401/403/409 with a code and changes nothing; every allowed
one gets past the permission checks (it may still be refused by the game, e.g.
``not_awaiting_confirmation``)."""

from typing import Any

import pytest
from django.db.models import Model

from tests import factories
from tests.api.helpers import assign, client_for, post, referee_user
from tournaments.hands.write import hand_create
from tournaments.models import (
    Hand,
    HandEvent,
    IdempotencyRecord,
    Penalty,
    Round,
    RoundStatus,
    Seat,
)

pytestmark = pytest.mark.django_db

PERMISSION_CODES = {"not_authenticated", "permission_denied", "not_assigned", "round_not_playing"}
RESULT = {"landlord": 0, "bid": 1, "winner": "landlord"}
#: endpoint -> (path under the hand or table, body, live write?)
ENDPOINTS: dict[str, tuple[str, dict[str, Any], bool]] = {
    "start": ("table:hands/", {"deal": "random"}, True),
    "action": ("actions/", {"seat": 0, "bid": 1}, True),
    "announcement": ("announcements/", {"seat": 0}, True),
    "undo": ("undo/", {"reason": "typo"}, True),
    "wild": ("wild/", {"wild": "7"}, True),
    "result": ("result/", RESULT, True),
    "correction": ("correction/", {**RESULT, "reason": "r"}, False),
    "void": ("void/", {"reason": "r"}, False),
    "deal": ("deal/", {"hands": ["3"], "kitty": "4", "first_bidder": 0}, False),
    "confirm": ("confirm/", {}, True),
    "dispute": ("dispute/", {"reason": "r"}, True),
    "penalty": ("penalty", {"points": -1, "reason": "r"}, False),
}
ROLES = ("anonymous", "player", "table_referee", "round_referee", "director")


def _snapshot() -> tuple[int, ...]:
    models: tuple[type[Model], ...] = (Hand, HandEvent, Penalty, IdempotencyRecord)
    return tuple(m.objects.count() for m in models)


def _expected(role: str, endpoint: str, own: bool, status: str) -> str | None:
    """The permission code expected, or None when the write is allowed."""
    live = ENDPOINTS[endpoint][2]
    playing = status == RoundStatus.PLAYING
    if role == "anonymous":
        return "not_authenticated"
    if role == "player":
        return "permission_denied"
    if role == "director":
        if endpoint in ("confirm", "dispute"):
            return None
        return None if playing or not live else "round_not_playing"
    if endpoint in ("confirm", "dispute"):  # any referee of the round is a second person
        return None if playing else "round_not_playing"
    if role == "table_referee" and not own:
        return "not_assigned"
    return None if playing else "round_not_playing"


@pytest.mark.parametrize("status", [RoundStatus.PLAYING, RoundStatus.SEATED, RoundStatus.CLOSED])
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(role: str, status: str, director: Any) -> None:
    own_table = factories.seated_table()
    round_ = own_table.round
    other_table = factories.TableFactory(round=round_)
    for position in (0, 1, 2):
        factories.SeatFactory(table=other_table, position=position)
    hands = {
        True: hand_create(table=own_table, seed=1).hand,
        False: hand_create(table=other_table, seed=2).hand,
    }
    Round.objects.filter(pk=round_.pk).update(status=status)
    users = {
        "anonymous": None,
        "player": factories.UserFactory(username="player"),
        "table_referee": referee_user("table-referee"),
        "round_referee": referee_user("round-referee"),
        "director": director,
    }
    assign(users["table_referee"], own_table)
    assign(users["round_referee"], own_table, whole_round=True)
    client = client_for(users[role])
    slug = round_.tournament.slug

    for endpoint, (path, body, _live) in ENDPOINTS.items():
        for own in (True, False):
            hand = hands[own]
            if path.startswith("table:"):
                url = f"/api/v1/tables/{hand.table_id}/{path.removeprefix('table:')}"
            elif endpoint == "penalty":
                url = f"/api/v1/tournaments/{slug}/penalties/"
                entry = Seat.objects.get(table_id=hand.table_id, position=0).entry_id
                body = {**body, "entry": entry, "hand": hand.pk}
            else:
                url = f"/api/v1/hands/{hand.pk}/{path}"
            before = _snapshot()
            response = post(client, url, body)
            code = response.json()["code"] if response.status_code >= 400 else None
            expected = _expected(role, endpoint, own, status)
            where = f"{role} {endpoint} own={own} round={status}: {response.status_code} {code}"
            if expected is None:
                assert code not in PERMISSION_CODES, where
            else:
                assert code == expected, where
                assert response.status_code in (401, 403, 409), where
                assert _snapshot() == before, where
