"""``manage.py load_demo``: a small public demo tournament.  Idempotent.

Safe by default: refuses to run with DEBUG off unless ``--allow-production``, never
creates a superuser, never touches an existing user (password, staff or superuser
flags), and gives new users a generated password that passes the validators.
``--demo-logins`` (used by ``make run``, refused with DEBUG off) gives new users the
documented logins ``director``/``director`` and ``referee``/``referee`` instead.
"""

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token

from tournaments.models import (
    Board,
    Entry,
    Hand,
    Player,
    RefereeAssignment,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.roles import REFEREE_GROUP
from tournaments.services.boards import board_create
from tournaments.services.hands import hand_create, hand_record_result
from tournaments.services.players import player_create
from tournaments.services.rounds import referee_assign, round_create, seat_create, table_create
from tournaments.services.tournaments import entry_create, tournament_create, tournament_update

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

#: (table, hand number) -> result summary; landlord is an offset from the
#: board's first bidder so every result is legal whatever the seed deals.
DEMO_RESULTS: dict[tuple[int, int], dict[str, Any]] = {
    (1, 1): {"offset": 0, "bid": 3, "winner": "landlord", "bombs": 1},
    (1, 2): {"offset": 1, "bid": 2, "winner": "defenders", "doubled_offsets": (2,)},
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

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
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
        round_ = Round.objects.filter(tournament=tournament, number=1).first() or round_create(
            tournament=tournament, number=1, status=RoundStatus.SEATED
        )
        if not RefereeAssignment.objects.filter(round=round_, user=referee).exists():
            referee_assign(round=round_, user=referee)
        boards = {
            number: Board.objects.filter(tournament=tournament, number=number).first()
            or board_create(tournament=tournament, number=number, seed=seed)
            for number, seed in BOARD_SEEDS.items()
        }
        for table_number in (1, 2, 3):
            table = self._table(round_, table_number, entries[3 * (table_number - 1) :][:3])
            for hand_number in (1, 2):
                self._hand(table, hand_number, boards[hand_number], referee)

        self.stdout.write(self.style.SUCCESS(f"Demo tournament: /t/{tournament.slug}/"))
        for line in self._logins:
            self.stdout.write(line)
        self.stdout.write(f"Referee API token: {token.key}")

    def _user(self, username: str, *, staff: bool) -> Any:
        """Create ``username`` (staff for a director, never a superuser); an existing user
        is left exactly as it is."""
        where = "/admin/, /director/" if staff else "/api/referee/"
        User = get_user_model()
        existing = User.objects.filter(username=username).first()
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

    def _table(self, round_: Round, number: int, entries: list[Entry]) -> Table:
        table = Table.objects.filter(round=round_, number=number).first() or table_create(
            round=round_, number=number
        )
        for position, entry in enumerate(entries):
            if not Seat.objects.filter(table=table, position=position).exists():
                seat_create(table=table, position=position, entry=entry)
        return table

    def _hand(self, table: Table, number: int, board: Board, referee: Any) -> None:
        hand = Hand.objects.filter(table=table, number=number).first() or hand_create(
            table=table, number=number, board=board
        )
        spec = DEMO_RESULTS.get((table.number, number))
        if spec is None:
            return
        landlord = (board.first_bidder + spec["offset"]) % 3
        doubled = [False, False, False]
        for offset in spec.get("doubled_offsets", ()):
            doubled[(landlord + offset) % 3] = True
        hand_record_result(
            hand=hand,
            landlord=landlord,
            bid=spec["bid"],
            winner=spec["winner"],
            doubled=(doubled[0], doubled[1], doubled[2]),
            redoubled=spec.get("redoubled", False),
            bombs=spec.get("bombs", 0),
            rockets=spec.get("rockets", 0),
            spring=spec.get("spring", False),
            anti_spring=spec.get("anti_spring", False),
            recorded_by=referee,
            idempotency_key=f"demo-{table.round.number}-{table.number}-{number}",
        )
