"""``manage.py load_demo``: a small public demo tournament.  Idempotent.

The demo is run as a director and a referee would run it, through the services: nine
players seated by the seating engine (duplicate, the round's boards), the round started,
table 1's hands played action by action through the write path (``hand_action_record``, a
seeded random legal policy), tables 2 and 3 entered result-only, the last hand of table 3
left live (in bidding), and the standings computed.

Safe by default: refuses to run with DEBUG off unless ``--allow-production``, never
creates a superuser, never touches an existing user (password, staff or superuser
flags), and gives new users a generated password that passes the validators.
``--demo-logins`` (used by ``make run``, refused with DEBUG off) gives new users the
documented logins ``director``/``director`` and ``referee``/``referee`` instead.
"""

import random
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse
from rest_framework.authtoken.models import Token

from referee.rules.hand import HandState
from tournaments.common.roles import REFEREE_GROUP
from tournaments.common.seats import no_doubles
from tournaments.common.usernames import user_by_username
from tournaments.hands.boards import board_create
from tournaments.hands.replay import hand_replay
from tournaments.hands.write import (
    CLOSED_STATUSES,
    hand_action_record,
    hand_create,
    hand_record_result,
)
from tournaments.models import (
    Board,
    Entry,
    Hand,
    Player,
    RefereeAssignment,
    Round,
    RoundStatus,
    Table,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.rounds.services import referee_assign, round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.players import player_create
from tournaments.tournament.services import entry_create, tournament_create, tournament_update

DEMO_SLUG = "demo"
DEMO_PLAYERS = [
    ("Zhang Wei", "张伟", "北京棋牌协会"),
    ("Wang Fang", "王芳", "上海牌友会"),
    ("Li Na", "李娜", "广州棋院"),
    ("Liu Yang", "刘洋", "北京棋牌协会"),
    ("Chen Jing", "陈静", "上海牌友会"),
    ("Yang Lei", "杨磊", "广州棋院"),
    ("Zhao Min", "赵敏", "成都斗地主俱乐部"),
    ("Huang Qiang", "黄强", "成都斗地主俱乐部"),
    ("Zhou Jie", "周杰", "杭州桥牌社"),
]
BOARD_SEEDS = {1: 20160101, 2: 20160102, 3: 20160103}
#: The seed the seating engine seats round 1 with (recorded on the round).
SEATING_SEED = 2016
#: Tables whose hands are played action by action through the write path.
PLAYED_TABLES = (1,)

#: (table, hand number) -> result summary of a result-only table; landlord is an offset
#: from the board's first bidder so every result is legal whatever the seed deals.
#: A hand of tables 2-3 not listed here is left live (just started).
DEMO_RESULTS: dict[tuple[int, int], dict[str, Any]] = {
    (2, 1): {"offset": 0, "bid": 3, "winner": "landlord", "spring": True},
    (2, 2): {"offset": 2, "bid": 1, "winner": "landlord", "rockets": 1},
    (3, 1): {
        "offset": 1,
        "bid": 2,
        "winner": "defenders",
        "anti_spring": True,
        "doubled_offsets": (1, 2),
        "redoubled": True,
    },
}


def generated_password(user: Any) -> str:
    """A random password that the configured validators accept."""
    for _attempt in range(10):
        password = secrets.token_urlsafe(15)
        try:
            validate_password(password, user)
        except ValidationError:
            continue
        return password
    raise CommandError("Could not generate a password that passes the password validators.")


class Command(BaseCommand):
    help = "Create the demo tournament, a director and a referee login (safe to run twice)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Run even though DEBUG is off (creates a director and a referee account).",
        )
        parser.add_argument(
            "--demo-logins",
            action="store_true",
            help="New users get the documented passwords director/director and referee/referee "
            "(development only: refused with DEBUG off).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament, token = self._load(**options)
        # After the commit: the standings of what was just written (idempotent).
        standings_snapshot_update(tournament_id=tournament.pk)
        detail = reverse("public:tournament-detail", args=[tournament.slug])
        self.stdout.write(self.style.SUCCESS(f"Demo tournament: {detail}"))
        for line in self._logins:
            self.stdout.write(line)
        self.stdout.write(f"Referee API token: {token}")

    @transaction.atomic
    def _load(self, **options: Any) -> tuple[Tournament, str]:
        if not settings.DEBUG and options["demo_logins"]:
            raise CommandError("--demo-logins is refused with DEBUG off.")
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                "DEBUG is off: load_demo creates accounts. Pass --allow-production to run it."
            )
        self._demo_logins = bool(options["demo_logins"])
        self._logins: list[str] = []
        self._user("director", staff=True)
        referee = self._user("referee", staff=False)
        referee.groups.add(Group.objects.get(name=REFEREE_GROUP))
        token, _ = Token.objects.get_or_create(user=referee)

        tournament = self._tournament()
        entries = self._entries(tournament)
        assert len(entries) == len(DEMO_PLAYERS)
        for number, seed in BOARD_SEEDS.items():
            if not Board.objects.filter(tournament=tournament, number=number).exists():
                board_create(tournament=tournament, number=number, seed=seed)
        round_ = Round.objects.filter(tournament=tournament, number=1).first() or round_create(
            tournament=tournament, number=1
        )
        if round_.status == RoundStatus.DRAFT:
            round_seat(round=round_, seed=SEATING_SEED)  # the engine; the round's boards
            round_.refresh_from_db()
        if round_.status == RoundStatus.SEATED:
            round_ = round_start(round=round_)
        if not RefereeAssignment.objects.filter(round=round_, user=referee).exists():
            referee_assign(round=round_, user=referee)
        for table in Table.objects.filter(round=round_).order_by("number"):
            for hand_number in range(1, tournament.hands_per_round + 1):
                self._hand(table, hand_number, referee)
        return tournament, token.key

    def _user(self, username: str, *, staff: bool) -> Any:
        """Create ``username`` (staff for a director, never a superuser); an existing user
        is left exactly as it is."""
        # The screens each login signs in to, as the URL configuration routes them.
        where = (
            f"{reverse('admin:index')}, {reverse('director:dashboard')}"
            if staff
            else f"{reverse('referee:console')}"
        )
        User = get_user_model()
        existing = user_by_username(username)  # in any case: names differ by more than case
        if existing is not None:
            self._logins.append(f"{username}: existing user, password unchanged  ({where})")
            return existing
        user = User(username=username, is_staff=staff, is_superuser=False)
        password = username if self._demo_logins else generated_password(user)
        user.set_password(password)
        user.save()
        self._logins.append(f"{username} login: {username} / {password}  ({where})")
        return user

    def _tournament(self) -> Tournament:
        existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if existing is not None:
            return existing
        tournament = tournament_create(
            name="斗地主 Demo Open 2016",
            slug=DEMO_SLUG,
            format=TournamentFormat.DUPLICATE,
            hands_per_round=2,
            is_public=True,
        )
        return tournament_update(tournament=tournament, status=TournamentStatus.RUNNING)

    def _entries(self, tournament: Tournament) -> list[Entry]:
        entries = []
        for order, (name, chinese_name, club) in enumerate(DEMO_PLAYERS, start=1):
            external_id = f"demo-{order}"
            player = Player.objects.filter(external_id=external_id).first() or player_create(
                name=name, chinese_name=chinese_name, club=club, external_id=external_id
            )
            entry = Entry.objects.filter(tournament=tournament, player=player).first()
            entries.append(
                entry
                or entry_create(tournament=tournament, player=player, registration_order=order)
            )
        return entries

    def _hand(self, table: Table, number: int, referee: Any) -> None:
        hand = (
            Hand.objects.filter(table=table, number=number).first()
            or hand_create(table=table, number=number).hand
        )  # duplicate: the round's board for hand ``number``
        board = hand.board
        assert board is not None
        if table.number in PLAYED_TABLES:
            self._play(
                hand, referee, random.Random(SEATING_SEED * 100 + 10 * table.number + number)
            )
            return
        spec = DEMO_RESULTS.get((table.number, number))
        if spec is None or hand.status != "bidding":
            return
        seats = hand.seats
        landlord = (board.first_bidder + spec["offset"]) % seats
        doubled = no_doubles(seats)
        for offset in spec.get("doubled_offsets", ()):
            doubled[(landlord + offset) % seats] = True
        hand_record_result(
            hand=hand,
            landlord=landlord,
            bid=spec["bid"],
            winner=spec["winner"],
            doubled=doubled,
            redoubled=spec.get("redoubled", False),
            bombs=spec.get("bombs", 0),
            rockets=spec.get("rockets", 0),
            spring=spec.get("spring", False),
            anti_spring=spec.get("anti_spring", False),
            recorded_by=referee,
            idempotency_key=f"demo-{table.round.number}-{table.number}-{number}",
        )

    def _play(self, hand: Hand, referee: Any, rng: random.Random) -> None:
        """Play ``hand`` to its end, a random legal action at each turn, every action
        recorded by the referee through the write path (a rerun continues where it is)."""
        if hand.status in CLOSED_STATUSES:  # finished, or closed by a correction since
            return
        state = hand_replay(hand=hand).state
        assert isinstance(state, HandState)  # a board: the cards are known
        while not state.is_over:
            options = state.legal_actions()
            if not state.actions:  # the first bidder opens, so the demo hand is played
                options = [a for a in options if a.to_json().get("bid")] or options
            action = rng.choice(options)
            state.push(action)
            hand = hand_action_record(
                hand=hand,
                action=action.to_json(),
                recorded_by=referee,
                # by version: an action undone since the last run gets a key of its own
                idempotency_key=f"demo-{hand.pk}-v{hand.version + 1}",
                device_id="demo",
            ).hand
