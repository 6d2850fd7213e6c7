"""The pages of variant tournaments (issues 20, 32): every public and director page of a played
``four_p``, ``five_p`` and ``laizi`` tournament answers, and shows the table's seat count: four
seats (the fourth, North 北) at a four_p table, five (the fifth, "Seat 4", with no wind) at a
five_p one, three at a laizi one; print sheets with one column a seat."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from referee.rules.cards import RANK_CHARS
from tests.api.test_variant_tournaments import play_tournament
from tournaments.archive.restore import tournament_import
from tournaments.common.seats import seat_count
from tournaments.models import Board, Hand, Tournament

pytestmark = pytest.mark.django_db

NORTH = "North (北)"
FIFTH = "Seat 4"
#: The profiles without doubling (R11.1, R14.3).
NO_DOUBLING = ("four_p", "five_p", "six_p")


def _pages(tournament: Tournament) -> tuple[list[str], list[str]]:
    slug = tournament.slug
    hands = Hand.objects.filter(table__round__tournament=tournament).order_by("pk")
    public = [
        f"/t/{slug}/",
        f"/t/{slug}/rounds/1/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/standings.csv",
        f"/t/{slug}/live/",
        *(f"/t/{slug}/hands/{h.pk}/" for h in hands),
        *(f"/t/{slug}/players/{e.pk}/" for e in tournament.entries.all()),
        *(f"/t/{slug}/boards/{b.number}/" for b in Board.objects.filter(tournament=tournament)),
    ]
    director = [
        f"/director/t/{slug}/",
        f"/director/t/{slug}/entries/",
        f"/director/t/{slug}/rounds/1/",
        f"/director/t/{slug}/rounds/1/print/",
        f"/director/t/{slug}/results/1/",
        f"/director/t/{slug}/standings/",
        f"/director/t/{slug}/export/hands.csv",
        f"/director/t/{slug}/export/standings.csv",
        f"/director/t/{slug}/export/archive.json",
        *(f"/director/t/{slug}/hands/{h.pk}/" for h in hands),
    ]
    return public, director


@pytest.mark.parametrize(
    ("profile", "players", "format"),
    [
        ("four_p", 4, "table"),
        ("four_p", 8, "duplicate"),
        ("five_p", 5, "table"),
        ("five_p", 10, "duplicate"),
        ("laizi", 3, "table"),
        ("six_p", 6, "table"),
        ("six_p", 12, "duplicate"),
    ],
)
def test_every_page_of_a_variant_tournament_answers(
    profile: str, players: int, format: str, director_client: Any
) -> None:
    tournament = play_tournament(profile, players, seed=players, format=format, rounds=1)
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    public, director = _pages(tournament)
    anonymous = Client()
    shown: dict[str, str] = {}
    for url in public:
        answer = anonymous.get(url)
        assert answer.status_code == 200, url
        shown[url] = answer.content.decode()
    for url in director:
        answer = director_client.get(url)
        assert answer.status_code == 200, url
        shown[url] = answer.content.decode()
    seats = seat_count(profile)
    slug = tournament.slug
    assert (NORTH in shown[f"/director/t/{slug}/rounds/1/print/"]) == (seats >= 4)
    assert (FIFTH in shown[f"/director/t/{slug}/rounds/1/print/"]) == (seats >= 5)
    # the score slip asks for what the rules score: no doubling in four_p and five_p (R11.1,
    # R14.3), the bombs
    # by class and the rockets in laizi (R11.2.4); a cell under every heading
    slip = shown[f"/director/t/{slug}/rounds/1/print/"].split('id="score-slips"')[1]
    heads = re.findall(r"<th>([^<]*)</th>", slip.split("</thead>")[0])
    first_row = slip.split("<tbody>")[1].split("</tr>")[0]
    assert ("Doubled" in heads) == (profile not in NO_DOUBLING)
    wild = ["soft (软炸弹)", "hard (硬炸弹)", "pure wild (纯癞子炸弹)", "Rockets"]
    assert (set(wild) <= set(heads)) == (profile == "laizi")
    assert ("Bombs" in heads) == (profile != "laizi")
    # six players: no bid; the partner card called and the partner (R13.3, R13.4)
    assert ("Bid" in heads) == (profile != "six_p")
    assert ("Partner (暗地主)" in heads) == (profile == "six_p")
    assert first_row.count("<td>") == len(heads)
    standings = shown[f"/director/t/{slug}/export/standings.csv"]
    assert standings.count("\n") == players + 1
    header = shown[f"/director/t/{slug}/export/hands.csv"].splitlines()[0]
    assert header.endswith(",".join(f"seat_{p},score_{p}" for p in range(seats)))
    hand = Hand.objects.filter(table__round__tournament=tournament).first()
    assert hand is not None
    page = shown[f"/t/{slug}/hands/{hand.pk}/"]
    assert (NORTH in page) == (seats >= 4)
    assert (FIFTH in page) == (seats >= 5)


@pytest.mark.parametrize(
    ("profile", "players", "format"),
    [("four_p", 8, "duplicate"), ("five_p", 10, "duplicate"), ("laizi", 6, "duplicate")],
)
def test_a_variant_tournament_round_trips_through_its_archive(
    profile: str, players: int, format: str, director_client: Any
) -> None:
    """The archive (version 4) keeps the seat count, the per-seat arrays and a laizi board's
    wild rank; importing it replays every hand to the same result."""
    tournament = play_tournament(profile, players, seed=1, format=format, rounds=1)
    text = director_client.get(f"/director/t/{tournament.slug}/export/archive.json").content
    data = json.loads(text)
    assert data["version"] == 4
    data["tournament"]["slug"] = f"{tournament.slug}-copy"
    copy = tournament_import(text=json.dumps(data))
    original = Hand.objects.filter(table__round__tournament=tournament).order_by(
        "table__round__number", "table__number", "number"
    )
    imported = Hand.objects.filter(table__round__tournament=copy).order_by(
        "table__round__number", "table__number", "number"
    )
    fields = ("seats", "doubled", "scores", "status", "landlord_seat", "bid", "deal")
    assert [[getattr(h, f) for f in fields] for h in imported] == [
        [getattr(h, f) for f in fields] for h in original
    ]
    boards = Board.objects.filter(tournament=copy).order_by("number")
    assert [(b.seat_cards, b.wild_rank) for b in boards] == [
        (b.seat_cards, b.wild_rank)
        for b in Board.objects.filter(tournament=tournament).order_by("number")
    ]
    assert all((b.wild_rank is not None) == (profile == "laizi") for b in boards)


def test_a_released_laizi_board_shows_its_wild_rank_on_its_traveller() -> None:
    """R11.2.1: a laizi board's deal holds its wild rank; once the board is released (its
    round closed) the traveller shows it beside the hands and the kitty."""
    tournament = play_tournament("laizi", 6, seed=2, format="duplicate", rounds=1)
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    boards = list(Board.objects.filter(tournament=tournament))
    assert boards and all(b.wild_rank is not None for b in boards)
    for board in boards:
        page = Client().get(f"/t/{tournament.slug}/boards/{board.number}/").content.decode()
        rank = RANK_CHARS[board.wild_rank].replace("T", "10")
        assert f'<tr class="wild"><th>Wild (癞子)</th><td><strong>{rank}</strong></td></tr>' in page


@pytest.mark.parametrize(
    ("profile", "players", "farmers"), [("four_p", 4, 3), ("five_p", 5, 4), ("laizi", 3, 2)]
)
def test_the_hand_page_counts_the_farmers_of_its_profile(
    profile: str, players: int, farmers: int
) -> None:
    """The score's explanation counts the farmers (农民) against the landlord: three at a
    four_p table, four at a five_p one, two at a three-seat one, in English and 简体中文; its
    table has the columns of the game's factors only."""
    tournament = play_tournament(profile, players, seed=players, format="table", rounds=1)
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    scored = [
        h
        for h in Hand.objects.filter(table__round__tournament=tournament).order_by("pk")
        if h.landlord_seat is not None and h.winner
    ]
    assert scored
    url = f"/t/{tournament.slug}/hands/{scored[0].pk}/"
    english = Client().get(url, headers={"accept-language": "en"}).content.decode()
    assert f"the landlord scores the sum of the {farmers} farmers' scores" in english
    assert f"sum of the {farmers} farmers' scores, opposite sign" in english
    # the breakdown's columns are the game's factors: no rocket, no doubling with two packs
    table = english.split('class="breakdown"')[1].split("</table>")[0]
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", table)
    heads = heads[: heads.index("Score") + 1]
    one_pack = profile == "laizi"
    assert ("Rockets (火箭)" in heads) == one_pack
    assert ("Doublings (加倍)" in heads) == one_pack
    landlord_row = table.split('<tr class="landlord">')[1].split("</tr>")[0]
    assert f'colspan="{len(heads) - 2}"' in landlord_row
    chinese = Client().get(url, headers={"accept-language": "zh-hans"}).content.decode()
    assert f"地主得{farmers}位农民得分之和" in chinese
    assert f"{farmers}位农民得分之和，符号相反" in chinese
    assert ("两位农民" in chinese) is False
