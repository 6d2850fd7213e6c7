"""Reads for the public pages: only public tournaments and rounds past their draft.

Every function issues a fixed number of queries whatever the tournament's size (the page
tests assert it): related rows come in with ``select_related`` / ``prefetch_related`` or one
``IN`` query, and hands are replayed from logs read in one query.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

from django.db.models import (
    Case,
    Count,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.utils.translation import get_language

from referee.rules.cards import CARD_OF_ID, Card, parse_cards, rank_text
from referee.rules.errors import RulesError
from referee.rules.hand import HandState
from referee.rules.laizi_scoring import BOMB_CLASS_FACTORS
from referee.rules.profiles import get_profile
from referee.rules.scoring import DefenderStake
from referee.rules.six_hand import parse_six
from tournaments.common.board_release import board_released_q, boards_secret
from tournaments.common.player_names import display_name
from tournaments.hands.card_secrecy import (
    NONE,
    PLAYED_ONLY,
    PUBLIC,
    hand_cards_shown,
    hands_cards_shown,
    status_shown,
)
from tournaments.hands.game_words import card_sort_key
from tournaments.hands.gate import hand_desk_state
from tournaments.hands.replay import (
    HandReplay,
    hand_bomb_classes,
    hand_deal_json,
    hand_replay,
    hand_replay_stored,
    hand_wild_shown,
    result_confirm_event,
    six_state,
)
from tournaments.hands.selectors import hand_stakes
from tournaments.models import (
    AnalysisStatus,
    Board,
    BoardPar,
    Entry,
    Hand,
    HandEvent,
    HandEventKind,
    HandExclusion,
    HandSeatResult,
    HandStatus,
    Penalty,
    Round,
    RoundBoard,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)
from tournaments.standings.queries import penalties_in_force

LIVE_STATUSES = frozenset({HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING})


def tournament_public(*, slug: str) -> Tournament | None:
    return Tournament.objects.filter(is_public=True, slug=slug).first()


def tournament_preview(*, slug: str) -> Tournament | None:
    """Any tournament of ``slug``, public or not: a director's preview of its pages."""
    return Tournament.objects.filter(slug=slug).first()


def rounds_public(*, tournament: Tournament) -> QuerySet[Round]:
    """Rounds the public may see: every one past its draft."""
    return (
        Round.objects.filter(tournament=tournament)
        .exclude(status=RoundStatus.DRAFT)
        .order_by("number")
    )


def round_current(*, rounds: list[Round]) -> Round | None:
    """The round being played, else the latest one shown."""
    playing = [r for r in rounds if r.status == RoundStatus.PLAYING]
    return playing[-1] if playing else (rounds[-1] if rounds else None)


def round_public(*, tournament: Tournament, number: int) -> Round | None:
    return rounds_public(tournament=tournament).filter(number=number).first()


def round_tables(*, round: Round) -> list[Table]:
    """The round's tables with seats (players in position order) and hands."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    hands = Hand.objects.order_by("number")
    return list(
        Table.objects.filter(round=round)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats), Prefetch("hands", queryset=hands))
    )


def round_boards(*, round: Round) -> dict[tuple[int, int], Board]:
    """(section, hand number) → board, for the duplicate seating sheet's first bidders."""
    return {
        (rb.section, rb.hand_number): rb.board
        for rb in RoundBoard.objects.filter(round=round).select_related("board")
    }


# --- live board ---------------------------------------------------------------------------


def _live_hands(*, tournament: Tournament) -> QuerySet[Hand]:
    """The newest hand of every table of the rounds being played (its number is its
    table's highest: one look-up of the (table, number) index per hand)."""
    newest = Hand.objects.filter(table_id=OuterRef("table_id")).order_by("-number")
    return Hand.objects.filter(
        table__round__tournament=tournament,
        table__round__status=RoundStatus.PLAYING,
        number=Subquery(newest.values("number")[:1]),
    )


def _per_tournament(queryset: QuerySet[Any], path: str, value: Any) -> Subquery:
    """One aggregate of ``queryset``'s rows of the outer tournament (``path`` leads to it),
    as a subquery column: one index look-up per table, no join fan-out between tables."""
    return Subquery(
        queryset.filter(**{path: OuterRef("pk")})
        .order_by()
        .values(path)
        .annotate(x=value)
        .values("x")[:1]
    )


#: Round statuses, in the order a round moves through them: the rounds' sum of these grows
#: with every round made, seated, started or closed (``public_version``).
_ROUND_STEPS = {
    RoundStatus.DRAFT: 1, RoundStatus.SEATED: 2, RoundStatus.PLAYING: 3, RoundStatus.CLOSED: 4,
}  # fmt: skip


_VERSION_COLUMNS = (
    "pk", "name", "status", "log_version", "format", "rounds_planned",
    "hands_n", "hands_v", "hands_live", "hands_last", "rounds_n", "rounds_steps",
    "seats", "seats_n", "penalties_n", "penalties_last", "excluded", "entries_n",
    "par_runs", "par_done",
)  # fmt: skip


def public_version(*, slug: str) -> str | None:
    """A fingerprint of what the tournament's public pages other than the live board and
    the standings show (its home, rounds, boards, hands, players): the tournament's row,
    its rounds and their statuses, its hands (each bumps its ``version`` with every event),
    their seats, penalties and exclusions. None for no public tournament. One query of
    subqueries on the foreign-key indexes (``tournaments.public.page_cache``); a hand in
    play is counted by ``live_version``, which the page cache reads with it."""
    hands = Hand.objects.all()
    # a secret board's hands count by what the public sees of them (how many, in play or
    # closed), never by their moves: the version is an ETag anybody reads
    shown = Hand.objects.filter(Q(board__isnull=True) | board_released_q(OuterRef("board_id")))
    step = Case(
        *(When(status=status, then=Value(n)) for status, n in _ROUND_STEPS.items()),
        default=Value(0),
        output_field=IntegerField(),
    )
    row = (
        Tournament.objects.filter(slug=slug, is_public=True)
        .annotate(
            hands_n=_per_tournament(hands, "table__round__tournament", Count("pk")),
            hands_v=_per_tournament(shown, "table__round__tournament", Sum("version")),
            hands_live=_per_tournament(
                hands, "table__round__tournament", Count("pk", filter=Q(status__in=LIVE_STATUSES))
            ),
            hands_last=_per_tournament(hands, "table__round__tournament", Max("pk")),
            rounds_n=_per_tournament(Round.objects.all(), "tournament", Count("pk")),
            rounds_steps=_per_tournament(Round.objects.all(), "tournament", Sum(step)),
            seats=_per_tournament(Seat.objects.all(), "table__round__tournament", Max("pk")),
            seats_n=_per_tournament(Seat.objects.all(), "table__round__tournament", Count("pk")),
            penalties_n=_per_tournament(Penalty.objects.all(), "tournament", Count("revoked_at")),
            penalties_last=_per_tournament(Penalty.objects.all(), "tournament", Max("pk")),
            excluded=_per_tournament(
                HandExclusion.objects.all(), "table__round__tournament", Count("pk")
            ),
            entries_n=_per_tournament(Entry.objects.all(), "tournament", Count("pk")),
            # par analyses (issue 33): stored for released boards only, so they tell nothing
            # of a secret one
            par_runs=_per_tournament(BoardPar.objects.all(), "board__tournament", Sum("run")),
            par_done=_per_tournament(
                BoardPar.objects.all(),
                "board__tournament",
                Count("pk", filter=Q(status=AnalysisStatus.DONE)),
            ),
        )
        .values_list(*_VERSION_COLUMNS)
        .first()
    )
    if row is None:
        return None
    return hashlib.sha1(repr(row).encode(), usedforsecurity=False).hexdigest()[:20]


@dataclass(frozen=True)
class LiveSeat:
    position: int
    #: the player's name as the page's language shows it (``display_name``)
    name: str


@dataclass
class LiveTable:
    """What the live board shows of one table."""

    table_id: int
    number: int
    seats: list[LiveSeat]
    hand: Hand | None = None
    replay: HandReplay | None = None
    cards_left: list[int] | None = None
    last_play: tuple[int, list[Card] | None] | None = None
    #: what the last play's wild cards stood for (its ``as``, SPEC §11.2), None for a plain play
    last_declared: list[Card] | None = None
    #: a ``laizi`` hand's wild rank, once its landlord is known (``hand_wild_shown``)
    wild: str | None = None
    #: each defender's stake so far, as the hand's rule profile counts them
    stakes: tuple[DefenderStake, ...] = ()
    passes: int = 0
    #: the shared cache's key of this card as read here (``live_card_key``)
    key: str = ""
    #: the hand's board is secret (``card_secrecy``): nothing of it is shown
    secret: bool = False
    #: the hand's status as the public may see it (``card_secrecy.status_shown``)
    status: str = ""


#: What a hand's card on the live board depends on, read from the hand's row.
_CARD_HAND_FIELDS = (
    "pk", "number", "version", "status", "board_id", "scores",
)  # fmt: skip
_SeatKey = tuple[int, int, str, str]  # position, entry id, name, Chinese name


@dataclass
class LiveBoard:
    """The live board's tables in board order, each with the key of its rendered card:
    the key changes whenever anything the card shows may have changed (the hand's version
    and status, the cards the public may see, the seats and their names, the language),
    so a card rendered once serves every spectator until then (``tournaments.public.
    views.live``)."""

    #: (table id, card key), in board order
    cards: list[tuple[int, str]]
    #: what the cards of the tables not rendered yet are made of (``live_tables``)
    numbers: dict[int, int]
    seats: dict[int, list[_SeatKey]]
    hand_ids: dict[int, int]
    played: dict[int, bool]
    #: a digest of what the board shows, in any language (``live_version``)
    version: str = ""


def live_card_key(
    *,
    tournament: Tournament,
    table_id: int,
    number: int,
    hand: tuple[Any, ...] | None,
    played: bool,
    seats: list[_SeatKey],
) -> str:
    """The shared cache's key of one table's rendered card (``LiveBoard``)."""
    text = repr(
        (tournament.pk, tournament.slug, table_id, number, hand, played, seats, get_language())
    )
    return "public-live:" + hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


def live_board(*, tournament: Tournament) -> LiveBoard:
    """The tables of the playing rounds and the keys of their cards, as plain values (four
    queries, no model instances: what a poll costs when every card is rendered already)."""
    playing = {"round__tournament": tournament, "round__status": RoundStatus.PLAYING}
    tables = list(
        Table.objects.filter(**playing)
        .order_by("round__number", "number")
        .values_list("pk", "number")
    )
    hands = {
        row[0]: _card_hand(row[1:])
        for row in _live_hands(tournament=tournament).values_list("table_id", *_CARD_HAND_FIELDS)
    }
    seats: dict[int, list[_SeatKey]] = {}
    for table_id, *seat in (
        Seat.objects.filter(**{f"table__{k}": v for k, v in playing.items()})
        .order_by("table_id", "position")
        .values_list(
            "table_id", "position", "entry_id", "entry__player__name", "entry__player__chinese_name"
        )
    ):
        seats.setdefault(table_id, []).append(tuple(seat))  # type: ignore[arg-type]
    # what card_secrecy reads of a hand, without a model instance per table (a tenth of a
    # millisecond each: a third of this function's time at 334 tables)
    rows = [SimpleNamespace(pk=h[0], status=h[3], board_id=h[4]) for h in hands.values()]
    shown = hands_cards_shown(user=PUBLIC, hands=cast(list[Hand], rows))
    played = {table_id: shown[h[0]].played for table_id, h in hands.items()}
    hands = {table_id: _card_hand_shown(h, played[table_id]) for table_id, h in hands.items()}
    cards = [
        (
            table_id,
            live_card_key(
                tournament=tournament,
                table_id=table_id,
                number=number,
                hand=hands.get(table_id),
                played=played.get(table_id, False),
                seats=seats.get(table_id, []),
            ),
        )
        for table_id, number in tables
    ]
    # what the board shows, in no language: its version (``live_version``)
    shows = repr((tournament.pk, tournament.name, tables, hands, played, seats))
    return LiveBoard(
        cards=cards,
        numbers=dict(tables),
        seats=seats,
        hand_ids={table_id: h[0] for table_id, h in hands.items()},
        played=played,
        version=hashlib.sha1(shows.encode(), usedforsecurity=False).hexdigest()[:20],
    )


def live_version(*, slug: str, read: dict[str, Any] | None = None) -> str | None:
    """The live board's version: changes whenever what the public board shows may change
    (a table's hand as the public may see it, its seats, the tables of the rounds being
    played), and only then: a secret board's hand counts only by what the public sees of it
    (in play or closed), so the version, an ETag, tells nothing of its moves. None for no
    public tournament. Five queries (``live_board``), read once per
    ``PUBLIC_BOARD_SECONDS`` by the page cache, not per poll. ``read``, if given, is handed
    the board read (``"live_board"``), which the render of the same request uses rather
    than reading it again."""
    tournament = tournament_public(slug=slug)
    if tournament is None:
        return None
    board = live_board(tournament=tournament)
    if read is not None:
        read["live_board"] = board
    return board.version


def _card_hand_shown(hand: tuple[Any, ...], played: bool) -> tuple[Any, ...]:
    """A hand's card key values (``_card_hand``) as far as the public sees them: a hand on
    a secret board (not ``played``) by its id, number, board and status shown only
    (``card_secrecy.status_shown``), not its version or scores."""
    if played:
        return hand
    pk, number, _version, status, board_id, _scores = hand
    return (pk, number, status_shown(status, NONE), board_id)


def _card_hand(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """``_CARD_HAND_FIELDS``' values as a card key holds them (the status as text)."""
    pairs = zip(_CARD_HAND_FIELDS, values, strict=True)
    return tuple(str(v) if name == "status" else v for name, v in pairs)


def live_tables(
    *, tournament: Tournament, board: LiveBoard, table_ids: list[int]
) -> list[LiveTable]:
    """The cards of ``table_ids`` (of ``board``) with their newest hands as their rows'
    snapshots hold them (``hand_replay_stored``: the log folded by the writes, the actions
    re-applied as accepted): one query (the hands) whatever their number. Each card's
    ``key`` is made of what was read here, so a hand that moved on since ``board`` was read
    is stored under its new key, never under an old one."""
    wanted = [board.hand_ids[t] for t in table_ids if t in board.hand_ids]
    hands = {
        h.table_id: h for h in Hand.objects.filter(pk__in=wanted).select_related("board")
    } if wanted else {}  # fmt: skip
    out = []
    for table_id in table_ids:
        seats = [
            LiveSeat(position=s[0], name=display_name(s[2], s[3]))
            for s in board.seats.get(table_id, [])
        ]
        row = LiveTable(table_id=table_id, number=board.numbers[table_id], seats=seats)
        hand = hands.get(table_id)
        if hand is not None:
            row.hand = hand
            shown = PLAYED_ONLY if board.played[table_id] else NONE
            row.status = status_shown(hand.status, shown)
            if shown.outcome:
                # the snapshot, not the log read and every action checked again: the
                # events' query and a re-check of each play, per card rendered
                row.replay = hand_replay_stored(hand=hand)
                _live_state(row, row.replay)
                classes = hand_bomb_classes(replay=row.replay)
                row.stakes = hand_stakes(
                    row.replay.summary, hand.rule_profile, classes, stake_cap=hand.stake_cap
                )
            else:  # a secret board: nothing of it (card_secrecy)
                row.secret = True
        row.key = live_card_key(
            tournament=tournament,
            table_id=table_id,
            number=row.number,
            hand=None
            if hand is None
            else _card_hand_shown(
                _card_hand(tuple(getattr(hand, name) for name in _CARD_HAND_FIELDS)),
                board.played.get(table_id, False),
            ),
            played=board.played.get(table_id, False),
            seats=board.seats.get(table_id, []),
        )
        out.append(row)
    return out


def _live_state(row: LiveTable, replay: HandReplay) -> None:
    state = replay.state
    if state is not None:
        row.cards_left = list(state.card_counts)
    row.wild = hand_wild_shown(replay=replay)
    for event in reversed(replay.actions):
        action = event.payload["action"]
        if "play" in action:
            if action["play"] == "pass":
                row.passes += 1
                continue
            row.last_play = (action["seat"], cards_of(action["play"]))
            declared = action.get("as")
            row.last_declared = cards_of(declared) if isinstance(declared, str) else None
        break


def cards_of(text: str) -> list[Card] | None:
    """Cards as written in the log (suits where known); None if unreadable. Six players'
    cards with their copies (``♠7#2``) as the table sees them: rank and suit (R13.10)."""
    try:
        if "#" in text:
            return [CARD_OF_ID[card] for _, card, _ in parse_six(text) if card is not None]
        return list(parse_cards(text))
    except (RulesError, ValueError):  # a page renders whatever the log holds
        return None


# --- hand replay ----------------------------------------------------------------------------


def hand_public(*, tournament: Tournament, hand_id: int) -> Hand | None:
    return (
        Hand.objects.filter(pk=hand_id, table__round__tournament=tournament)
        .exclude(table__round__status=RoundStatus.DRAFT)
        .select_related("table__round", "board")
        .first()
    )


@dataclass
class Step:
    """One line of the replay: a bid, double, redouble, play, pass or announcement."""

    kind: str
    seat: int | None
    value: Any = None
    cards: list[Card] | None = None
    trick: int | None = None
    cards_left: list[int] | None = None
    #: what a play's wild cards stood for (its ``as``, SPEC §11.2), None for a plain play
    declared: list[Card] | None = None
    #: the index of its action among the hand's actions in force (announcements: None), as
    #: par analysis numbers them (``HandPar``)
    action: int | None = None


@dataclass
class HandPage:
    hand: Hand
    seats: list[Seat]
    replay: HandReplay
    live: bool
    #: The hand's board is still secret (card_secrecy): nothing of it is shown, only
    #: whether the hand is in play or closed (``status``).
    secret: bool = False
    #: the status the public may see (``card_secrecy.status_shown``)
    status: str = ""
    #: the landlord's seat, None before the auction ends or on a secret board
    landlord: int | None = None
    #: six players: the landlord's partner once public, and whether the sides are known (he
    #: revealed himself, the landlord plays alone, or the hand is over: R13.11)
    partner: int | None = None
    sides_known: bool = True
    steps: list[Step] = field(default_factory=list)
    deal: list[list[Card]] | None = None
    kitty: list[Card] | None = None
    #: a ``laizi`` hand's wild rank, once its landlord is known (R11.2.1)
    wild: str | None = None
    #: a ``laizi`` hand's bombs by class (R11.2.3), each scored by its own factor (R11.2.4)
    bomb_classes: list[tuple[str, int, int]] | None = None
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    #: the hand's desk state (awaiting confirmation, disputed, confirmed…) and, when players
    #: confirmed its current result with their PINs, their names (an official is not named)
    state: str = ""
    confirmed_by_players: list[str] = field(default_factory=list)

    @property
    def farmers(self) -> int:
        """The farmers (农民) against the landlord: two, three at a ``four_p`` table."""
        return int(self.hand.seats) - 1

    @property
    def has_rockets(self) -> bool:
        """Whether the hand's game has a rocket (火箭): one pack; two packs have none
        (R11.1.5, R14.5), so the score's breakdown leaves its column out."""
        return get_profile(self.hand.rule_profile).packs == 1

    @property
    def has_doubling(self) -> bool:
        """Whether the hand's game has doubling (加倍): not four_p, five_p (R11.1, R14.3)."""
        return get_profile(self.hand.rule_profile).has_doubling

    @property
    def breakdown_middle(self) -> int:
        """How many columns stand between a seat and its score in the breakdown (the
        landlord's row spans them): bid, bombs, spring and the calculation, with rockets and
        doublings where the game has them."""
        return 4 + self.has_rockets + self.has_doubling


def hand_page(*, hand: Hand) -> HandPage:
    """The hand's log as replay steps, with the cards the public may see
    (``card_secrecy``). A live hand shows only what has been played: no deal, no kitty
    before it is revealed, no unplayed cards; a hand on a board still being played
    elsewhere shows no card at all, and of its replay only the auction."""
    seats = list(
        Seat.objects.filter(table_id=hand.table_id)
        .select_related("entry__player")
        .order_by("position")
    )
    events = list(HandEvent.objects.filter(hand=hand).order_by("seq"))
    replay = hand_replay(hand=hand, events=events)
    live = replay.summary["status"] in LIVE_STATUSES
    shown = hand_cards_shown(user=PUBLIC, hand=hand)
    page = HandPage(
        hand=hand,
        seats=seats,
        replay=replay,
        live=live,
        secret=not shown.outcome,
        status=status_shown(replay.summary["status"], shown),
    )
    if not shown.outcome:  # a secret board: nothing of it (card_secrecy)
        return page
    page.landlord = replay.summary["landlord_seat"]
    page.partner = replay.summary["partner_seat"]  # six players: public, or None (R13.11)
    six = six_state(replay.state)
    page.sides_known = six is None or (
        six.partner_public or six.is_over or six.public_view()["alone"]
    )
    data = hand_deal_json(hand=hand) if shown.unplayed else None
    if data is not None:
        order = card_sort_key(hand.rule_profile)  # Big Three: 4 … A 2 3 (R12.2)
        page.deal = [sorted(cards_of(h) or [], key=order) for h in data["hands"]]
        page.kitty = sorted(cards_of(data["kitty"]) or [], key=order)
    elif shown.played and isinstance(replay.state, HandState) and replay.state.kitty_revealed:
        page.kitty = list(replay.state.deal.kitty)
    if shown.played:
        page.wild = hand_wild_shown(replay=replay)
        played = hand_bomb_classes(replay=replay)
        if played is not None and replay.state is not None and replay.state.bombs:
            page.bomb_classes = [
                (name, played[name], factor) for name, factor in BOMB_CLASS_FACTORS
            ]
    profile = get_profile(hand.rule_profile)
    page.steps = _steps(
        replay,
        deal_counts=[profile.hand_size] * hand.seats if replay.state is not None else None,
        kitty_size=profile.kitty_size,
        first_bidder_digs=profile.all_pass == "first_bidder_digs",
        # six players: the face-up card names the landlord before any action (R13.3)
        landlord=replay.summary["landlord_seat"] if profile.game == "six_p" else None,
    )
    page.breakdown = breakdown(
        replay.summary,
        hand.rule_profile,
        hand_bomb_classes(replay=replay),
        stake_cap=hand.stake_cap,
    )
    page.state = hand_desk_state(hand, irregular=replay.irregular is not None)
    confirm = result_confirm_event(hand=hand, events=events)
    if confirm is not None and confirm.payload.get("by") == "players":
        names = {
            seat.entry.registration_order: display_name(
                seat.entry.player.name, seat.entry.player.chinese_name
            )
            for seat in seats
        }
        page.confirmed_by_players = [
            names.get(n, f"#{n}") for n in confirm.payload.get("registrations", [])
        ]
    return page


def _steps(
    replay: HandReplay,
    *,
    deal_counts: list[int] | None,
    kitty_size: int,
    first_bidder_digs: bool = False,
    landlord: int | None = None,
) -> list[Step]:
    """Bids, doublings and plays grouped into tricks (a trick ends when every other seat
    passed), with the announcements (报牌) recorded for them. ``first_bidder_digs``
    (``big3_one_round``, R12.5.3): when every seat passed, the first bidder digs at 1 (烂挖),
    said as a step of its own before the first play."""
    steps: list[Step] = []
    announced: dict[int, list[HandEvent]] = {}
    for event in replay.events:
        if event.kind in (HandEventKind.ANNOUNCE, HandEventKind.ANNOUNCE_MISSING):
            announced.setdefault(event.payload.get("action_index", -1), []).append(event)
    counts = list(deal_counts) if deal_counts else None
    others = len(replay.summary["doubled"]) - 1
    trick, passes, kitty_taken = 0, 0, False
    no_bids: list[int] = []  # the seats that did not bid, while nobody has
    for index, event in enumerate(replay.actions):
        action = event.payload["action"]
        seat = action["seat"]
        if "bid" in action:
            steps.append(Step("bid", seat, action["bid"], action=index))
            if action["bid"]:
                landlord = seat
            elif landlord is None:
                no_bids.append(seat)
                if first_bidder_digs and len(no_bids) == others + 1:  # everyone passed: 烂挖
                    landlord = no_bids[0]
                    steps.append(Step("forced_dig", landlord, 1))
        elif "double" in action:
            steps.append(Step("double", seat, action["double"], action=index))
        elif "redouble" in action:
            steps.append(Step("redouble", seat, action["redouble"], action=index))
        elif "call" in action:  # six players: the partner card, or none (R13.4, R13.5)
            steps.append(Step("call", seat, action["call"], action=index))
        elif "partner" in action:  # six players, physical cards: shown at the end (R13.8)
            steps.append(Step("partner", seat, True, action=index))
        elif action.get("play") == "pass":
            passes += 1
            steps.append(Step("pass", seat, trick=trick, action=index))
        else:
            if trick == 0 or passes >= others:
                trick += 1
            passes = 0
            cards = cards_of(action["play"])
            if counts is not None and cards is not None:
                if landlord is not None and not kitty_taken:
                    counts[landlord] += kitty_size  # the kitty joins the landlord's hand (R3.3)
                    kitty_taken = True
                counts[seat] -= len(cards)
            declared = action.get("as")
            steps.append(
                Step(
                    "play",
                    seat,
                    cards=cards,
                    trick=trick,
                    cards_left=list(counts or []),
                    declared=cards_of(declared) if isinstance(declared, str) else None,
                    action=index,
                )
            )
        for note in announced.get(index, []):
            kind = "announce" if note.kind == HandEventKind.ANNOUNCE else "announce_missing"
            steps.append(Step(kind, note.payload.get("seat"), note.payload.get("cards_left")))
    return steps


def breakdown(
    summary: dict[str, Any],
    profile_key: str,
    bomb_classes: dict[str, int] | None = None,
    *,
    stake_cap: int | None = None,
) -> list[dict[str, Any]]:
    """Per seat: a farmer's stake factor by factor, as the hand's rule profile counts them
    (``referee.rules.scoring.stake_breakdown`` or a variant's, the code that scored the
    hand), won or lost; the landlord scores the sum, opposite (R8.1)."""
    scores = summary["scores"]
    if not summary["winner"] or scores is None or None in scores:
        return []
    stakes = {
        stake.seat: stake
        for stake in hand_stakes(summary, profile_key, bomb_classes, stake_cap=stake_cap)
    }
    if not stakes:
        return []
    doubled = summary["doubled"]
    rows: list[dict[str, Any]] = []
    for seat in range(len(scores)):
        stake = stakes.get(seat)
        if stake is None:
            rows.append({"seat": seat, "landlord": True, "score": scores[seat]})
            continue
        rows.append(
            {
                "seat": seat,
                "landlord": False,
                "stake": stake,
                "bid": stake.bid,
                "bombs": summary["bombs"],
                "rockets": summary["rockets"],
                "spring": int(bool(summary["spring"] or summary["anti_spring"])),
                "doublings": int(doubled[seat]) * (1 + int(summary["redoubled"])),
                "sign": "+" if summary["winner"] == "defenders" else "−",
                "score": scores[seat],
            }
        )
    return rows


# --- players and boards ---------------------------------------------------------------------


def entry_public(*, tournament: Tournament, entry_id: int) -> Entry | None:
    return Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("player").first()


def entry_hand_results(*, entry: Entry) -> list[HandSeatResult]:
    """The entry's counted hands, in playing order, with their round and table; a duplicate
    board's once it is released, as the standings count them (``card_secrecy``)."""
    return list(
        HandSeatResult.objects.filter(entry=entry)
        .exclude(hand__table__round__status=RoundStatus.DRAFT)
        .exclude(board_id__in=boards_secret(tournament_id=entry.tournament_id))
        .select_related("hand__table__round", "hand__board")
        .order_by("hand__table__round__number", "hand__number")
    )


def entry_penalties(*, entry: Entry) -> list[Penalty]:
    """The entry's penalties and adjustments in force (SPEC §9), in the order given, with
    the hand they were given at."""
    return list(
        penalties_in_force()
        .filter(entry=entry)
        .select_related("hand__table__round")
        .order_by("recorded_at", "pk")
    )


def board_public(*, tournament: Tournament, number: int) -> Board | None:
    return (
        Board.objects.filter(tournament=tournament, number=number)
        .select_related("tournament")
        .first()
    )


def board_hands(*, board: Board) -> list[Hand]:
    """Every visible hand played on ``board``, with its table and players."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return list(
        Hand.objects.filter(board=board)
        .exclude(table__round__status=RoundStatus.DRAFT)
        .select_related("table__round")
        .prefetch_related(Prefetch("table__seats", queryset=seats))
        .order_by("table__round__number", "table__number")
    )


def matchpoints(scores: list[int | None]) -> list[int | None]:
    """Matchpoints of results on one board and position (R10.4.3): 2 per result beaten and
    1 per other equal result; groups of one are not scored (R10.8.4)."""
    known = [s for s in scores if s is not None]
    if len(known) < 2:
        return [None for _ in scores]
    return [
        None
        if s is None
        else 2 * sum(1 for o in known if o < s) + sum(1 for o in known if o == s) - 1
        for s in scores
    ]


def hand_deal_cards(*, board: Board) -> dict[str, Any]:
    """A board's cards for its traveller: every seat's hand, the kitty and the wild rank.
    Only for a board
    ``card_secrecy.board_cards_visible`` releases. Sorted as the game ranks its cards (Big
    Three: 4 … A 2 3, R12.2)."""
    order = card_sort_key(board.tournament.rule_profile)
    kitty = cards_of(board.kitty)
    return {
        "hands": [sorted(cards_of(h) or [], key=order) for h in board.seat_cards],
        "kitty": None if kitty is None else sorted(kitty, key=order),
        "first_bidder": board.first_bidder,
        # a laizi board's wild rank (R11.2.1), drawn with its deal
        "wild": None if board.wild_rank is None else rank_text(board.wild_rank),
    }
