"""GET assignments/: the tables a referee may write to, with what the console shows of them:
the tournament's name, the players named in the request's language, and the hands the
table may still play this round (the console's "Next hand" or "Round complete")."""

from typing import Any

import pytest
from django.urls import reverse

from tests import factories
from tests.api.helpers import assign, client_for, playing_table, referee_user
from tournaments.common.errors import ApplicationError
from tournaments.common.player_names import display_name
from tournaments.hands.corrections import hand_void
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Player, Table
from tournaments.rounds.services import table_hand_add

pytestmark = pytest.mark.django_db

URL = "/api/v1/assignments/"
RESULT = {"landlord": 0, "bid": 1, "winner": "landlord"}


def _table(**tournament_fields: Any) -> tuple[Table, Any]:
    table = playing_table(**tournament_fields)
    referee = referee_user("assigned-ref")
    assign(referee, table)
    names = [("Zhang Wei", "张伟"), ("Anna Smith", ""), ("Li Na", "李娜")]
    for position, (name, chinese_name) in enumerate(names):
        Player.objects.filter(
            entries__seats__table=table, entries__seats__position=position
        ).update(name=name, chinese_name=chinese_name)
    return table, referee


def _row(referee: Any, language: str = "en") -> dict[str, Any]:
    response = client_for(referee).get(URL, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    (row,) = response.json()
    return dict(row)


def _finished(table: Table) -> None:
    hand_record_result(hand=hand_create(table=table).hand, **RESULT)


def test_the_row_names_the_tournament_and_its_players_in_english() -> None:
    table, referee = _table(name="Chengdu Spring Open", slug="chengdu-2025")
    row = _row(referee, "en")
    assert (row["tournament"], row["tournament_name"]) == ("chengdu-2025", "Chengdu Spring Open")
    assert row["seats"] == [
        {
            "position": 0,
            "entry": table.seats.get(position=0).entry_id,
            "player": "Zhang Wei 张伟",
            "name": "Zhang Wei",
            "chinese_name": "张伟",
        },
        {
            "position": 1,
            "entry": table.seats.get(position=1).entry_id,
            "player": "Anna Smith",
            "name": "Anna Smith",
            "chinese_name": "",
        },
        {
            "position": 2,
            "entry": table.seats.get(position=2).entry_id,
            "player": "Li Na 李娜",
            "name": "Li Na",
            "chinese_name": "李娜",
        },
    ]


def test_in_simplified_chinese_the_chinese_name_comes_first() -> None:
    _, referee = _table(name="成都春季公开赛")
    row = _row(referee, "zh-hans")
    assert row["tournament_name"] == "成都春季公开赛"
    assert [s["player"] for s in row["seats"]] == ["张伟 Zhang Wei", "Anna Smith", "李娜 Li Na"]


@pytest.mark.parametrize(
    ("name", "chinese_name", "language", "shown"),
    [
        ("Zhang Wei", "张伟", "en", "Zhang Wei 张伟"),
        ("Zhang Wei", "张伟", "zh-hans", "张伟 Zhang Wei"),
        ("Zhang Wei", "", "zh-hans", "Zhang Wei"),
        ("Anna", "", "en", "Anna"),
        ("张伟", "张伟", "en", "张伟"),
        ("", "张伟", "en", "张伟"),
    ],
)
def test_one_rule_names_a_player(name: str, chinese_name: str, language: str, shown: str) -> None:
    assert display_name(name, chinese_name, language) == shown


def test_the_public_pages_name_players_by_the_same_rule(client: Any) -> None:
    table, _ = _table()
    url = reverse("public:round", args=[table.round.tournament.slug, table.round.number])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Zhang Wei 张伟" in english and "张伟 Zhang Wei" not in english
    assert "张伟 Zhang Wei" in chinese and "Zhang Wei 张伟" not in chinese


def test_the_hands_left_follow_the_round_the_voided_and_the_added_hands(director: Any) -> None:
    table, referee = _table(hands_per_round=2)
    row = _row(referee)
    assert (row["hands_per_round"], row["hands_allowed"], row["hands_played"]) == (2, 2, 0)
    hand_void(hand=hand_create(table=table).hand, reason="misdeal")
    _finished(table)
    assert (_row(referee)["hands_allowed"], _row(referee)["hands_played"]) == (2, 1)
    live = hand_create(table=table).hand
    assert _row(referee)["hands_played"] == 2  # the live hand counts: no start after it
    hand_record_result(hand=live, **RESULT)
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table)
    assert refused.value.code == "round_hands_done"

    table_hand_add(table=table, reason="replay of a misdealt board", recorded_by=director)
    other = factories.seated_table(hands_per_round=2)
    table_hand_add(table=other, reason="another table's replay", recorded_by=director)
    row = _row(referee)
    assert (row["hands_per_round"], row["hands_allowed"], row["hands_played"]) == (2, 3, 2)
    _finished(table)
    assert (_row(referee)["hands_allowed"], _row(referee)["hands_played"]) == (3, 3)
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table)
    assert refused.value.code == "round_hands_done"


@pytest.mark.parametrize("profile", ["comp2016", "classic", "big3", "big3_one_round"])
def test_the_row_gives_the_tables_seat_count_from_its_rule_profile(profile: str) -> None:
    """The console lays out a seat for each of ``seat_count`` (issue 20): three in both the
    competition and the classic rules (R2.2) and in Big Three (R12.3), one for each seated
    entry; and it names the rule profile, whose words and rank pad the console follows
    before the table's first hand exists (issue 31)."""
    _, referee = _table(rule_profile=profile)
    row = _row(referee)
    assert row["seat_count"] == 3
    assert [s["position"] for s in row["seats"]] == list(range(row["seat_count"]))
    assert row["rule_profile"] == profile


def test_the_current_hand_says_whether_it_awaits_confirmation() -> None:
    """The list of tables says where the latest hand stands, as the table's screen does: a
    finished hand awaiting confirmation is not just "finished"."""
    table, referee = _table(requires_confirmation=True)
    assert _row(referee)["current_hand"] is None
    live = hand_create(table=table).hand
    current = _row(referee)["current_hand"]
    assert (current["id"], current["status"], current["irregular"]) == (live.pk, "bidding", None)
    hand_record_result(hand=live, **RESULT)
    row = _row(referee)
    assert row["current_hand"] == {
        "id": live.pk,
        "number": 1,
        "status": "finished",
        "confirmation": "pending",
        "irregular": None,
    }
    assert row["awaiting_confirmation"] == [{"id": live.pk, "number": 1}]
