"""The secret partner stays secret, on any read, for anyone but a director (issue 32, point 3;
SPEC R13.11).

A non-interference walk, as ``test_board_secrecy_walk``: the same six-player round is built
twice on two deals that differ only in who holds the third copy of the partner card — one
farmer in the first world, another in the second (the two swap that card for another) — and
played alike up to the same moment before the reveal: the landlord's call, his lead and two
passes. Every read route of the URL conf (the referee API, the public pages and their
fragments, the CSV exports, the director's screens, the referee console) is read by every
reader in both worlds. Whatever names or implies the partner — the deal, a seat's cards or
legal plays, a side's colour, a running score by side, the copy of a card played — would
differ, so every reader but a director, **the table's own referee included**, must read the
same in both. Once the partner plays the card, or the hand ends, he is public: the reads say
who he is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.rules.games import six_deal_json, state_new
from referee.rules.profiles import get_profile
from referee.rules.six_hand import SixDeal, SixHandState, id_text
from tests import factories
from tests.api.helpers import assign, client_for, post, referee_user
from tests.security.test_board_secrecy_walk import World, _client, _explain, read_world
from tournaments.hands.write import hand_create
from tournaments.models import Hand, Player, Round, RoundStatus, Table, Tournament
from tournaments.rounds.services import round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.tournament.services import entry_create

pytestmark = pytest.mark.django_db

READERS = ("anonymous", "user", "referee_live", "referee_other", "director")
REFEREE_TABLE = {"referee_live": 1, "referee_other": 2}


def deal_pair(seed: int = 11) -> tuple[dict[str, Any], dict[str, Any], int, int]:
    """Two ``six_p`` deals alike but for one swap: the partner's copy of the partner card goes
    to another farmer, who gives him a card of his own that is no copy of it. Both deals have
    the same landlord and partner card; the partner differs (returned: the two partners)."""
    profile = get_profile("six_p")
    for s in range(seed, seed + 200):
        data = six_deal_json(profile, s)
        state = state_new(profile, data)
        state.push(state.legal_actions()[0])  # the call: the rule's card
        partner, card = state.partner, state.partner_card
        if partner is None or card is None:
            continue
        deal = SixDeal.from_json(data)
        hands = [sorted(h) for h in deal.hands]
        copy = next(i for i in hands[partner] if id_text(i).split("#")[0] == card)
        other = next(seat for seat in range(6) if seat not in (partner, deal.landlord))
        given = next(i for i in hands[other] if id_text(i).split("#")[0] != card)
        hands[partner][hands[partner].index(copy)] = given
        hands[other][hands[other].index(given)] = copy
        swapped = {**data, "hands": [" ".join(id_text(i) for i in sorted(h)) for h in hands]}
        check = state_new(profile, swapped)
        check.push(check.legal_actions()[0])
        assert check.partner_card == card and check.partner == other
        return data, swapped, partner, other
    raise AssertionError("no deal with a partner")


def _public_moves(state: SixHandState, partner_seats: set[int]) -> list[dict[str, Any]]:
    """The call, the landlord's lead of a single and two passes: alike in both worlds (the
    lead is none of the swapped cards: the landlord holds neither)."""
    moves = [state.legal_actions()[0].to_json()]
    state.push(state.legal_actions()[0])
    lead = next(a for a in state.legal_actions() if len(a.to_json().get("play", "").split()) == 1)
    text = " ".join(c.split("#")[0] for c in lead.to_json()["play"].split())
    moves.append({"seat": state.turn, "play": text})
    landlord = state.turn
    for seat in ((landlord + 1) % 6, (landlord + 2) % 6):
        moves.append({"seat": seat, "play": "pass"})
    assert partner_seats.isdisjoint({landlord})
    return moves


def _world(data: dict[str, Any], moves: list[dict[str, Any]]) -> World:
    tournament = Tournament.objects.create(  # in preparation: the row as it will be
        name="Six players", slug="six-players", rule_profile="six_p", is_public=True
    )
    for i in range(12):
        player = Player.objects.create(name=f"Player {i + 1}", club=f"Club {i % 2}")
        entry_create(tournament=tournament, player=player)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=7)
    round_start(round=round_)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    assert len(tables) == 2
    users: dict[str, Any] = {
        "anonymous": None,
        "user": factories.UserFactory(username="plain"),
        "director": factories.UserFactory(username="director", is_staff=True),
    }
    for name, number in REFEREE_TABLE.items():
        users[name] = referee_user(name)
        assign(users[name], tables[number - 1])
    hand = hand_create(table=tables[0], deal=data).hand
    referee = client_for(users["referee_live"])
    for version, move in enumerate(moves):
        answer = post(
            referee, f"/api/v1/hands/{hand.pk}/actions/", move, HTTP_IF_MATCH=str(version)
        )
        assert answer.status_code == 200, (move, answer.json())
    hands = {1: Hand.objects.get(pk=hand.pk)}
    entries = list(tournament.entries.order_by("pk"))
    return World(tournament, tables, hands, entries, users)


def test_the_partner_reads_the_same_whoever_he_is_before_he_plays_the_card() -> None:
    """Non-interference: every reader but a director — the table's referee too — reads the
    same on every route whichever farmer holds the third copy; the walk has the power to tell
    (the director's read shows the deal, which differs); no read fails."""
    first_deal, second_deal, one, two = deal_pair()
    profile = get_profile("six_p")
    moves = _public_moves(state_new(profile, first_deal), {one, two})
    first = read_world(lambda: _world(first_deal, moves), READERS)
    second = read_world(lambda: _world(second_deal, moves), READERS)
    assert first.reads.keys() == second.reads.keys()
    assert len({url for _, url in first.reads}) > 40  # the URL conf was walked
    # no read fails (the health check answers 503 by design where no worker beats)
    failed = [key for key, (status, _) in first.reads.items() if status == 500]
    assert failed == []
    leaks = [
        (reader, url)
        for (reader, url), read in first.reads.items()
        if reader != "director" and read != second.reads[(reader, url)]
    ]
    assert leaks == [], _explain(first, second, leaks[:5])
    hand = f"/api/v1/hands/{first.hands[1].pk}/"
    assert first.reads[("director", hand)] != second.reads[("director", hand)]


def test_the_partner_is_public_from_his_revealing_play() -> None:
    """The partner plays a copy of the partner card: from that event every read names him,
    and the log marks the event; the reads before it did not."""
    data, _, partner, _ = deal_pair()
    table = factories.seated_table(slug="six-reveal", rule_profile="six_p", is_public=True)
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    referee = referee_user("six-referee")
    assign(referee, table)
    hand = hand_create(table=table, deal=data).hand
    client = client_for(referee)
    public = _client(None)
    rng = random.Random(5)
    revealed = None
    profile = get_profile("six_p")
    while revealed is None:
        read = client.get(f"/api/v1/hands/{hand.pk}/").json()
        anonymous = public.get(f"/api/v1/hands/{hand.pk}/").json()
        assert read["six"]["partner"] is None and anonymous["six"]["partner"] is None
        assert read["status"] == "playing", "the hand ended before the partner played the card"
        row = Hand.objects.get(pk=hand.pk)
        state = SixHandState.from_events(
            SixDeal.from_json(data),
            [e.payload["action"] for e in row.events.order_by("seq")],
            profile,
        )
        options = state.legal_actions()
        card = state.partner_card
        reveal = [
            a for a in options
            if a.seat == partner and card is not None
            and card in [c.split("#")[0] for c in a.to_json().get("play", "pass").split()]
        ]  # fmt: skip
        action = (reveal or [rng.choice(options)])[0].to_json()
        answer = post(
            client, f"/api/v1/hands/{hand.pk}/actions/", action, HTTP_IF_MATCH=str(read["version"])
        )
        assert answer.status_code == 200, answer.json()
        if reveal:
            revealed = answer.json()
    assert revealed["six"]["partner"] == partner
    anonymous = public.get(f"/api/v1/hands/{hand.pk}/").json()
    assert anonymous["six"]["partner"] == partner
    assert anonymous["six"]["revealed_at"] == len(anonymous["events"]) - 1
    assert anonymous["events"][-1]["payload"]["reveals_partner"] is True
    assert Hand.objects.get(pk=hand.pk).partner_seat == partner
