"""``manage.py load_demo``: a small public demo tournament.  Idempotent."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
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


class Command(BaseCommand):
    help = "Create the demo tournament, a director and a referee login (safe to run twice)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
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
        self.stdout.write("Director login: director / director  (/admin/, /director/)")
        self.stdout.write(f"Referee login:  referee / referee  (API token {token.key})")

    def _user(self, username: str, *, staff: bool) -> Any:
        user, _ = get_user_model().objects.get_or_create(username=username)
        user.is_staff = user.is_superuser = staff
        user.set_password(username)
        user.save()
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
