"""A complete random tournament for demos and benchmarks: rounds seated by the seating
engine, real hands played by a seeded random legal policy through the rules library, every
action recorded through the hand-action service (the one write path).
"""

import random
from dataclasses import dataclass

from django.db import transaction

from referee.rules.hand import HandState
from referee.rules.profiles import RuleProfile, get_profile
from tournaments.common.limits import HANDS_PER_ROUND_MAX, REGISTRATION_ORDER_MAX, ROUND_NUMBER_MAX
from tournaments.common.validation import at_most_check
from tournaments.hands.replay import hand_replay
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, Table, Tournament
from tournaments.rounds.services import round_close, round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.tournament.players import player_create
from tournaments.tournament.services import (
    entry_create,
    tournament_create,
    tournament_finish,
    tournament_update,
)

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


def _hand_play_and_record(*, hand: Hand, profile: RuleProfile, rng: random.Random) -> Hand:
    """Play ``hand`` to its end with a random legal action at every turn, each action
    recorded through ``hand_action_record`` (checked again there by the rules library)."""
    replay = hand_replay(hand=hand)
    state = replay.state
    assert isinstance(state, HandState)  # a board or a server deal: the cards are known
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        state.push(action)
        hand = hand_action_record(hand=hand, action=action.to_json()).hand
    return hand


def tournament_generate(*, options: GenerateOptions) -> Tournament:
    """Create and play a whole tournament (one transaction per round)."""
    at_most_check("players", options.players, maximum=REGISTRATION_ORDER_MAX)
    at_most_check("rounds", options.rounds, maximum=ROUND_NUMBER_MAX)
    at_most_check("hands", options.hands, maximum=HANDS_PER_ROUND_MAX)
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
    for _ in range(options.rounds):
        with transaction.atomic():
            _round_play(tournament, profile, rng)
    return tournament_finish(tournament=tournament)


def _round_play(tournament: Tournament, profile: RuleProfile, rng: random.Random) -> None:
    """Create, seat (the engine, Swiss by standing after round 1), start, play and close the
    next round; in duplicate the seating service deals the round's boards."""
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=rng.randrange(2**31))
    round_start(round=round_)
    for table in Table.objects.filter(round=round_).order_by("number"):
        for _ in range(tournament.hands_per_round):
            hand = hand_create(
                table=table, seed=None if _is_duplicate(tournament) else _seed(rng)
            ).hand
            _hand_play_and_record(hand=hand, profile=profile, rng=rng)
    round_close(round=round_)


def _is_duplicate(tournament: Tournament) -> bool:
    return tournament.format == "duplicate"


def _seed(rng: random.Random) -> int:
    return rng.randrange(2**40)
