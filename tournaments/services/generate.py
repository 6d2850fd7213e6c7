"""A complete random tournament for demos and benchmarks: real hands, played by a seeded
random legal policy through the rules library, recorded through the services.

The seating here is deliberately plain (random tables, Swiss by current standing, byes to
whoever had fewest); the seating engine is the place for the real thing.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from referee.rules.cards import Deal, deal_from_seed, parse_cards
from referee.rules.hand import HandState, Phase
from referee.rules.profiles import RuleProfile, get_profile
from tournaments.models import Board, Entry, Hand, Table, Tournament
from tournaments.services.boards import board_create
from tournaments.services.hands import hand_create, hand_record_passed_out, hand_record_result
from tournaments.services.players import player_create
from tournaments.services.rounds import round_create, seat_create, table_create
from tournaments.services.tournaments import entry_create, tournament_create, tournament_update
from tournaments.standings_selectors import standings_compute

_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
_GIVEN = ["伟", "芳", "娜", "敏", "静", "磊", "洋", "勇", "艳", "杰", "娟", "涛", "明", "超", "霞"]
_PINYIN = {
    "王": "Wang",
    "李": "Li",
    "张": "Zhang",
    "刘": "Liu",
    "陈": "Chen",
    "杨": "Yang",
    "黄": "Huang",
    "赵": "Zhao",
    "吴": "Wu",
    "周": "Zhou",
    "徐": "Xu",
    "孙": "Sun",
    "马": "Ma",
    "朱": "Zhu",
    "胡": "Hu",
    "郭": "Guo",
    "何": "He",
    "高": "Gao",
    "林": "Lin",
    "罗": "Luo",
}


@dataclass(frozen=True)
class GenerateOptions:
    players: int
    rounds: int
    hands: int
    format: str = "table"
    seed: int = 1
    slug: str = ""
    name: str = ""
    rule_profile: str = "comp2016"


def board_deal(board: Board) -> Deal:
    hands = (parse_cards(board.hand_0), parse_cards(board.hand_1), parse_cards(board.hand_2))
    return Deal(hands=hands, kitty=parse_cards(board.kitty), first_bidder=board.first_bidder)


def _hand_play_and_record(
    *, hand: Hand, deal: Deal, profile: RuleProfile, rng: random.Random
) -> Hand:
    """Play ``hand`` to its end with a random legal action at every turn, then record it.

    The one place the generator writes a hand: today it records the final result
    (``hand_record_result``, scores from ``referee.rules.scoring``) or the pass-out; with
    the action service it records each action of ``state.to_events()`` instead.
    """
    state = HandState(deal, profile)
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    if state.phase is Phase.PASSED_OUT:
        return hand_record_passed_out(hand=hand)
    result = state.result()
    assert result is not None  # a hand that is over and not passed out is finished
    return hand_record_result(
        hand=hand,
        landlord=result.landlord,
        bid=result.bid,
        winner=result.winner,
        doubled=result.doubled,
        redoubled=result.redoubled,
        bombs=result.bombs,
        rockets=result.rockets,
        spring=result.spring,
        anti_spring=result.anti_spring,
    )


def _seating(
    *,
    tournament: Tournament,
    entries: Sequence[Entry],
    round_number: int,
    byes: dict[int, int],
    rng: random.Random,
) -> list[list[Entry]]:
    """Tables of three for one round; the leftover entries (N mod 3) get a bye, given to
    those with fewest byes so far."""
    order = list(entries)
    rng.shuffle(order)
    if tournament.format == "swiss" and round_number > 1:
        rank = {s.entry_id: s.rank for s in standings_compute(tournament=tournament)}
        order.sort(key=lambda e: rank[e.pk])
    extra = len(order) % 3
    if extra:
        sitting_out = sorted(order, key=lambda e: (byes[e.pk], rng.random()))[:extra]
        for e in sitting_out:
            byes[e.pk] += 1
        order = [e for e in order if e not in sitting_out]
    tables = [order[i : i + 3] for i in range(0, len(order), 3)]
    shift = round_number % 3  # rotate seat positions from round to round
    return [t[shift:] + t[:shift] for t in tables]


def tournament_generate(*, options: GenerateOptions) -> Tournament:
    """Create and play a whole tournament (one transaction per round)."""
    rng = random.Random(options.seed)
    slug = options.slug or f"random-{options.seed}"
    with transaction.atomic():
        tournament = tournament_create(
            name=options.name or f"Random tournament {options.seed}",
            slug=slug,
            format=options.format,
            hands_per_round=options.hands,
            rule_profile=options.rule_profile,
            is_public=True,
        )
        entries = []
        for i in range(options.players):
            surname = _SURNAMES[i % len(_SURNAMES)]
            given = _GIVEN[(i // len(_SURNAMES)) % len(_GIVEN)]
            player = player_create(
                name=f"{_PINYIN[surname]} {i + 1}",
                chinese_name=f"{surname}{given}{i + 1}",
                club=f"Club {i % 7 + 1}",
            )
            entries.append(entry_create(tournament=tournament, player=player))
        tournament = tournament_update(tournament=tournament, status="running")
    profile = get_profile(tournament.rule_profile)
    byes = {e.pk: 0 for e in entries}
    for round_number in range(1, options.rounds + 1):
        with transaction.atomic():
            _round_play(tournament, entries, round_number, byes, profile, rng)
    return tournament_update(tournament=tournament, status="finished")


def _round_play(
    tournament: Tournament,
    entries: Sequence[Entry],
    round_number: int,
    byes: dict[int, int],
    profile: RuleProfile,
    rng: random.Random,
) -> None:
    round_ = round_create(tournament=tournament, number=round_number, status="closed")
    boards: list[Board] = []
    if tournament.format == "duplicate":
        first = (round_number - 1) * tournament.hands_per_round
        boards = [
            board_create(tournament=tournament, number=first + h + 1, seed=rng.randrange(2**40))
            for h in range(tournament.hands_per_round)
        ]
    seating = _seating(
        tournament=tournament, entries=entries, round_number=round_number, byes=byes, rng=rng
    )
    for number, seated in enumerate(seating, start=1):
        table: Table = table_create(round=round_, number=number)
        for position, entry in enumerate(seated):
            seat_create(table=table, position=position, entry=entry)
        for h in range(tournament.hands_per_round):
            if boards:
                hand = hand_create(table=table, board=boards[h])
                deal = board_deal(boards[h])
            else:
                deal = deal_from_seed(rng.randrange(2**40), first_bidder=h % 3)
                hand = hand_create(table=table, deal=deal.to_json())
            _hand_play_and_record(hand=hand, deal=deal, profile=profile, rng=rng)
