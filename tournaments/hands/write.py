"""Hands and their append-only event log: the one write path for hand actions.

Every write goes through ``writing.hand_write``: it locks the hand row, checks the
idempotency key and the expected version, builds the ``referee.rules`` state from the row's
snapshot, lets the service decide, appends its ``HandEvent`` and writes the row's summary
and snapshot (``replay``); scores come from one place only, ``referee.rules.scoring``. The
API, the admin, the commands and the tests call these.
"""

import secrets
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, cast

from django.db import connection
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.rules.actions import (
    Action,
    Bid,
    DeclaredPlay,
    Double,
    Pass,
    PlayCards,
    Redouble,
)
from referee.rules.errors import BadResult, RulesError
from referee.rules.games import action_reader, deal_json_checked, deal_json_from_seed
from referee.rules.physical import PhysicalHandState, check_deal, deal_written_in
from referee.rules.profiles import RuleProfile, get_profile
from referee.rules.scoring import DealResult, result_from_json, score_hand
from referee.rules.six_five_scoring import SixResult
from referee.rules.six_hand import Call, PartnerShown
from tournaments.common.errors import ApplicationError
from tournaments.common.model_validation import model_validate
from tournaments.common.profiles import rules_of
from tournaments.common.rows import Columns, column, fetch_one, table_name
from tournaments.common.seat_names import seat_name
from tournaments.common.seats import MAX_SEATS, no_doubles
from tournaments.common.transactions import hand_write_atomic
from tournaments.common.validation import (
    bool_check,
    bool_per_seat_check,
    int_check,
    invalid,
    reason_check,
    seat_check,
)
from tournaments.hands.boards import board_deal_json, boards_not_replayed_check
from tournaments.hands.replay import (
    AnyHandState,
    HandReplay,
    hand_replay_stored,
    hand_summary_set,
    hand_wild_due,
    replay_of_snapshot,
    rules_error,
    six_state,
    snapshot_new,
)
from tournaments.hands.results import results_final_error
from tournaments.hands.writing import (
    HandWrite,
    NewEvent,
    hand_write,
)
from tournaments.models import (
    Board,
    Hand,
    HandEventKind,
    HandStatus,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentStatus,
)
from tournaments.models.hands import LIVE_HAND_STATUSES
from tournaments.tournament import selectors

CLOSED_STATUSES = frozenset({HandStatus.FINISHED, HandStatus.PASSED_OUT, HandStatus.VOIDED})
_KIND_OF_ACTION: dict[type, str] = {
    Bid: HandEventKind.BID,
    Double: HandEventKind.DOUBLE,
    Redouble: HandEventKind.REDOUBLE,
    PlayCards: HandEventKind.PLAY,
    DeclaredPlay: HandEventKind.PLAY,
    Pass: HandEventKind.PLAY,
    Call: HandEventKind.CALL,
    PartnerShown: HandEventKind.PARTNER,
}
#: Seeds the server deals from: below 2**53 so that every JSON client reads them exactly.
_SEED_LIMIT = 2**53


def hand_board_check(*, table: Table, board: Board) -> None:
    """Refuse a board of another tournament than the table's (also used by the admin)."""
    if board.tournament_id != table.round.tournament_id:
        raise ApplicationError(
            "board_not_in_tournament", _("The board belongs to another tournament.")
        )


_TOURNAMENT = Columns(Tournament, "t")
#: The start's lock (``hand_start_lock``): the tournament row with its round's status. By hand
#: for what it does, not for speed: Django's ``select_for_update`` has no ``FOR KEY SHARE``
#: (one start a table; not on the hot path of an action). The columns by name, not *: a
#: prepared statement's result must not change shape when a deploy's migration adds a column
#: while this process still runs (PostgreSQL refuses "cached plan must not change result type").
_START_LOCK_SQL = (
    f"SELECT {_TOURNAMENT.sql}, r.{column(Round, 'status')}"
    f" FROM {table_name(Tournament)} t JOIN {table_name(Round)} r"
    f" ON r.{column(Round, 'tournament')} = t.{column(Tournament, 'id')}"
    f" WHERE r.{column(Round, 'id')} = %s"
)


def hand_start_lock(*, table: Table) -> Tournament:
    """The tournament row of ``table`` and its round's row, locked ``FOR KEY SHARE`` on
    PostgreSQL, for a hand's start; refused once the final standings are published
    (``results_final``) or the round is closed (``round_not_playing``).

    A change of the tournament's rule profile (``FOR UPDATE``) waits for the start, and so
    does the round's close (``round_lock``): a hand started meanwhile is one the close's
    check sees. Other tables' starts do not wait (``FOR UPDATE`` queued every table at the
    start of a round), nor do the writes that mark and bump the tournament's log version
    (``FOR NO KEY UPDATE``: ``hands.results``), which ``FOR SHARE`` did: at the hand changes
    of a whole round the starts and the finishing writes queued behind one another, 38 waits
    of 50–232 ms (PostgreSQL's ``log_lock_waits``, issue 30). Other databases serialise
    writes anyway."""
    sql = _START_LOCK_SQL + (" FOR KEY SHARE" if connection.vendor == "postgresql" else "")
    row = fetch_one(sql, [table.round_id])
    if row is None:
        raise Tournament.DoesNotExist
    tournament: Tournament = _TOURNAMENT.instance(row)
    round_status = row[_TOURNAMENT.width]
    if tournament.status == TournamentStatus.FINISHED:
        raise results_final_error()
    if round_status == RoundStatus.CLOSED:
        raise ApplicationError(
            "round_not_playing",
            _("Round %(number)s is closed: a director reopens it before a hand starts.")
            % {"number": table.round.number},
        )
    return tournament


def table_hands_allowed(*, table: Table, hands_per_round: int) -> int:
    """The round's hands plus those a director added at ``table`` (``table_hand_add``,
    one ``hand_added`` entry of the round log each)."""
    return hands_per_round + selectors.table_hands_added(tables=[table]).get(table.pk, 0)


def hand_start_check(*, table: Table, hands_per_round: int, seats: int) -> None:
    """Refuse a new hand at ``table`` while one of its ``seats`` seats is empty
    (``table_not_full``: a seat emptied before the table's first hand), while a hand is being
    played (``hand_in_progress``; the database refuses it too: ``hand_one_live_per_table``)
    or once the table has played the round's hands (``round_hands_done``; a voided hand does
    not count). Should be called while holding the table row's lock, so that two devices
    starting at once are decided one after the other."""
    seated = Seat.objects.filter(table_id=table.pk).count()
    if seated < seats:
        raise ApplicationError(
            "table_not_full",
            _("Table %(table)s has %(seated)s of its %(seats)s seats filled: seat it first.")
            % {"table": table.number, "seated": seated, "seats": seats},
        )
    counts = Hand.objects.filter(table_id=table.pk).aggregate(
        live=Count("pk", filter=Q(status__in=LIVE_HAND_STATUSES)),
        played=Count("pk", filter=~Q(status=HandStatus.VOIDED)),
    )
    if counts["live"]:
        live = Hand.objects.filter(table_id=table.pk, status__in=LIVE_HAND_STATUSES).first()
        raise ApplicationError(
            "hand_in_progress",
            _("Table %(table)s is playing hand %(number)s: finish or void it first.")
            % {"table": table.number, "number": live.number if live else "?"},
            extra={"hand": live.pk if live else None},
        )
    if counts["played"] >= hands_per_round:
        allowed = table_hands_allowed(table=table, hands_per_round=hands_per_round)
        if counts["played"] >= allowed:
            raise ApplicationError(
                "round_hands_done",
                ngettext(
                    "Table %(table)s has played the round's %(count)s hand; a director can "
                    "add a hand, with a reason.",
                    "Table %(table)s has played the round's %(count)s hands; a director can "
                    "add a hand, with a reason.",
                    allowed,
                )
                % {"table": table.number, "count": allowed},
                extra={"hands": allowed},
            )


def hand_reopen_check(*, hand: Hand) -> None:
    """Refuse to reopen ``hand`` (an undo of the play or pass that closed it) while its table
    plays another hand (``hand_in_progress``: a table has one live hand, and the database
    refuses a second, ``hand_one_live_per_table``).

    An undo and a start at once are decided one after the other on the table's row: a
    start locks it (``FOR UPDATE``) before its check, and the reopening here, before its
    own (``FOR NO KEY UPDATE``: a per-seat row's insert still key-shares it). The start's
    lock of the tournament row (``hand_start_lock``, ``FOR KEY SHARE``) does not conflict
    with the reopening's writes of that row (the log version), so the two cannot deadlock
    there. Should be called while holding the hand row's lock."""
    locked = Table.objects.select_for_update(no_key=True).filter(pk=hand.table_id)
    list(locked.order_by().values_list("pk"))
    live = (
        Hand.objects.filter(table_id=hand.table_id, status__in=LIVE_HAND_STATUSES)
        .exclude(pk=hand.pk)
        .only("pk", "number")
        .first()
    )
    if live is not None:
        raise ApplicationError(
            "hand_in_progress",
            _(
                "Table %(table)s is playing hand %(number)s: finish or void it before "
                "hand %(closed)s reopens."
            )
            % {"table": hand.table.number, "number": live.number, "closed": hand.number},
            extra={"hand": live.pk},
        )


@hand_write_atomic
def hand_create(
    *,
    table: Table,
    number: int | None = None,
    board: Board | None = None,
    deal: dict[str, Any] | None = None,
    seed: int | None = None,
    random_deal: bool = False,
    physical_cards: bool = False,
    first_bidder: int | None = None,
    board_from_movement: bool = False,
) -> HandWrite:
    """Start hand ``number`` (default: the next one) at ``table``.

    Without a board, deal or seed, a duplicate round's hand plays the board its movement
    assigns (``board_from_movement``: and is refused, ``board_not_assigned``, when there is
    none).  An entry never plays a board twice (``board_already_played``, SPEC R10.8.3).

    The deal is a duplicate ``board``, an ad-hoc ``deal``, dealt by the server from
    ``seed`` (``random_deal``: from a fresh random seed, recorded on the hand), or
    unknown: ``physical_cards`` (actions checked as far as the cards seen allow, first
    bidder given) or nothing at all (result-only entry).

    The tournament row is key-share-locked so the hand is created with the tournament's
    current rule profile and a concurrent profile change waits (or is refused); tables
    starting hands at once do not wait for each other, nor for the hands finishing
    (``hand_start_lock``).
    """
    int_check("number", number, minimum=1, maximum=2**31 - 1, allow_none=True)
    int_check("seed", seed, minimum=0, maximum=_SEED_LIMIT - 1, allow_none=True)
    # a seat of no table refused now; of this table's once its profile is read (below)
    int_check("first_bidder", first_bidder, minimum=0, maximum=MAX_SEATS - 1, allow_none=True)
    bool_check(
        random_deal=random_deal,
        physical_cards=physical_cards,
        board_from_movement=board_from_movement,
    )
    if board_from_movement and (
        board is not None or deal is not None or seed is not None or random_deal or physical_cards
    ):
        raise ApplicationError(
            "board_and_deal",
            _("Give one of a board, an ad-hoc deal, a seed or physical cards, not several."),
        )
    if deal is not None and not isinstance(deal, dict):
        raise invalid("deal", _("must be an object."))
    sources = sum((board is not None, deal is not None, seed is not None or random_deal))
    if sources > 1 or (physical_cards and sources):
        raise ApplicationError(
            "board_and_deal",
            _("Give one of a board, an ad-hoc deal, a seed or physical cards, not several."),
        )
    tournament = hand_start_lock(table=table)
    profile = rules_of(tournament)
    seat_check("first_bidder", first_bidder, profile.seats, allow_none=True)

    # Two devices starting a hand at one table at once: the second waits here, then takes
    # the next number (no unique-constraint error half-way through the request).
    list(Table.objects.select_for_update().filter(pk=table.pk).order_by().values_list("pk"))
    hand_start_check(table=table, hands_per_round=tournament.hands_per_round, seats=profile.seats)
    if number is None:
        last = Hand.objects.filter(table_id=table.pk).order_by("-number").only("number").first()
        number = (last.number if last is not None else 0) + 1
    elif Hand.objects.filter(table=table, number=number).exists():
        raise ApplicationError(
            "hand_number_taken",
            _("Table %(table)s already has a hand %(number)s.")
            % {"table": table.number, "number": number},
        )
    if board is None and not sources and not physical_cards:
        # Duplicate: hand k of every table of a section plays the round's board k.
        board = selectors.round_board(table=table, hand_number=number)
    if board is None and board_from_movement:
        raise ApplicationError(
            "board_not_assigned",
            _("The round assigns no board to hand %(number)s of table %(table)s.")
            % {"number": number, "table": table.number},
        )
    if (
        not result_entry_allowed(profile.key)
        and not physical_cards
        and board is None
        and not sources
    ):
        raise ApplicationError(
            "variant_needs_deal",
            _(
                "Hands under the %(profile)s rules are refereed play by play (from a known "
                "deal or from physical cards), not from a result alone."
            )
            % {"profile": profile.key},
            # What a client needs to start the hand instead: the profile, its seats, and
            # the deals that referee it play by play (the API's ``deal`` values).
            extra={
                "profile": profile.key,
                "seats": profile.seats,
                "deals": ["random", "board", "physical"],
            },
        )
    if board is not None:
        hand_board_check(table=table, board=board)
        wild_board = board.wild_rank is not None
        if (
            len(board.seat_cards) != profile.seats
            or wild_board != profile.wild_cards
            or not _board_deals_profile(board, profile)
        ):
            raise ApplicationError(
                "board_not_for_profile",
                _("Board %(number)s was not dealt for the tournament's rules (%(profile)s).")
                % {"number": board.number, "profile": profile.key},
            )
        boards_not_replayed_check(
            entry_ids=list(
                Seat.objects.filter(table_id=table.pk).values_list("entry_id", flat=True)
            ),
            board_ids=[board.pk],
        )
    if profile.game == "big3":
        _big3_first_bidder_check(
            first_bidder, dealt=bool(sources) or board is not None, physical=physical_cards
        )
    if profile.game == "six_p":
        _six_players_start_check(first_bidder, physical=physical_cards)
    if first_bidder is None:
        first_bidder = selectors.table_first_bidder(table=table, hand_number=number)
    if random_deal:
        seed = secrets.randbelow(_SEED_LIMIT)
    if seed is not None:
        if not 0 <= seed < _SEED_LIMIT:
            raise ApplicationError("validation", _("A seed is a whole number from 0 to 2**53."))
        deal = deal_json_from_seed(profile, seed, first_bidder=first_bidder)
    elif deal is not None:
        try:
            deal = deal_json_checked(profile, deal)
        except RulesError as exc:
            raise rules_error(exc) from exc
    if physical_cards and first_bidder is None:
        first_bidder = 0
    hand = Hand(
        table=table,
        number=number,
        board=board,
        deal=deal,
        seed=seed,
        physical_cards=physical_cards,
        first_bidder=first_bidder if physical_cards else None,
        rule_profile=tournament.rule_profile,
        stake_cap=tournament.stake_cap,
        seats=profile.seats,
        doubled=no_doubles(profile.seats),
    )
    # A new hand has no log: its snapshot is the empty log's (the first write's state), and
    # its summary the empty log's (six players: the face-up card's holder is the landlord,
    # playing at the base of 1 from the start, R13.3).
    hand_summary_set(hand=hand, replay=replay_of_snapshot(hand=hand, snapshot=snapshot_new()))
    # The row's check constraints hold by construction (and the database enforces them);
    # its one unique constraint, the number, is checked above under the table's lock.
    model_validate(hand, exclude=["table", "board"], constraints=False)
    hand.save()
    return HandWrite(hand=hand)  # no event written: its answer is the empty log's state


def _board_deals_profile(board: Board, profile: RuleProfile) -> bool:
    """Whether ``board``'s cards are a deal of ``profile`` (a board dealt under another
    profile of as many seats, before the tournament's profile changed: a Dou Dizhu board
    is no Big Three deal)."""
    try:
        deal_json_checked(profile, board_deal_json(board))
    except RulesError:
        return False
    return True


def _big3_first_bidder_check(first_bidder: int | None, *, dealt: bool, physical: bool) -> None:
    """Big Three's first bidder is the holder of ♥4, or of the lowest heart held (R12.4): a
    dealt hand's comes from its deal, so none is given; a physical-cards hand's is the one
    the referee finds at the table, so it is given (no rotation names it)."""
    if dealt and first_bidder is not None:
        raise ApplicationError(
            "first_bidder_from_hearts",
            _(
                "Under Big Three a dealt hand's first bidder is the holder of the lowest "
                "heart (R12.4): the deal names it, so leave it out."
            ),
            extra={"rule_number": "R12.4"},
        )
    if physical and first_bidder is None:
        raise ApplicationError(
            "first_bidder_required",
            _(
                "Under Big Three the first bidder holds ♥4, or the lowest heart if ♥4 is in "
                "the hole (R12.4): give the seat that holds it."
            ),
            extra={"rule_number": "R12.4"},
        )


def _six_players_start_check(first_bidder: int | None, *, physical: bool) -> None:
    """Six players have no first bidder: the holder of the face-up card is the landlord
    (R13.3), whom a dealt hand's deal names; a physical-cards hand's is the seat the referee
    sees it in, so it is given (``first_bidder``: the landlord)."""
    if physical:
        if first_bidder is None:
            raise ApplicationError(
                "first_bidder_required",
                _(
                    "In six players the holder of the face-up card is the landlord (R13.3): "
                    "give his seat (first_bidder)."
                ),
                extra={"rule_number": "R13.3"},
            )
        return
    if first_bidder is not None:
        raise ApplicationError(
            "first_bidder_from_face_up",
            _(
                "Six players have no first bidder: the holder of the face-up card is the "
                "landlord (R13.3), and the deal names him. Leave it out."
            ),
            extra={"rule_number": "R13.3"},
        )


def hand_open_check(*, hand: Hand) -> None:
    if hand.status in CLOSED_STATUSES:
        raise ApplicationError(
            "hand_closed",
            _("The hand is already closed (%(status)s).") % {"status": hand.get_status_display()},
        )


def hand_needs_confirmation(*, hand: Hand) -> bool:
    """Whether ``hand``, closing now, needs confirmation: the tournament's setting at this
    moment, read from the database (SPEC R10.8.1: fixed when the hand closes, kept in the
    closing event; a later change of the setting changes no closed hand)."""
    return Tournament.objects.filter(
        pk=hand.table.round.tournament_id, requires_confirmation=True
    ).exists()


# --------------------------------------------------------------------------- actions
@hand_write_atomic
def hand_action_record(
    *,
    hand: Hand,
    action: dict[str, Any],
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Record one bid, double, redouble, play or pass (``action`` in the rules library's
    JSON form, e.g. ``{"seat": 1, "play": "33"}``), checked by ``referee.rules``.

    A rejected action raises ``ApplicationError`` with the rules code (SPEC R9.1), the
    action's index and the play to beat, and changes nothing.
    """
    profile = get_profile(hand.rule_profile)
    seat = action.get("seat") if isinstance(action, dict) else None
    if type(seat) is int and profile.seats <= seat < MAX_SEATS:
        seat_check("seat", seat, profile.seats)
    if (
        isinstance(action, dict)
        and "partner" in action
        and (profile.game != "six_p" or not hand.physical_cards)
    ):
        raise ApplicationError(
            "no_partner_shown",
            _(
                "Only a six-player hand from physical cards names its partner at the end: a "
                "dealt hand's deal names him (R13.8, R13.10)."
            ),
            extra={"rule_number": "R13.10"},
        )
    if isinstance(action, dict) and "call" in action and profile.game != "six_p":
        raise ApplicationError(
            "no_call",
            _(
                "The %(profile)s rules have no call: only the six-player landlord calls a "
                "partner card (R13.4)."
            )
            % {"profile": profile.key},
        )
    if isinstance(action, dict) and "as" in action and not profile.wild_cards:
        raise ApplicationError(
            "no_wild_cards",
            _("The %(profile)s rules have no wild cards: a play declares nothing (as).")
            % {"profile": profile.key},
        )
    try:
        parsed = action_reader(profile)(action)
    except RulesError as exc:
        raise rules_error(exc) from exc
    canonical = parsed.to_json()

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        hand_open_check(hand=locked)
        if hand_wild_due(replay=replay) and isinstance(parsed, PlayCards | DeclaredPlay | Pass):
            raise ApplicationError(
                "wild_rank_missing",
                _(
                    "Enter the wild rank drawn before the first play: it is drawn once the "
                    "landlord is known (R11.2.1)."
                ),
            )
        if isinstance(parsed, PlayCards):
            _wild_reading_check(replay=replay, action=parsed)
        state = _action_push(replay=replay, action=parsed)
        payload: dict[str, Any] = {"action": canonical}
        six = six_state(state)
        if six is not None and six.revealed_at == len(six.actions) - 1:
            payload["reveals_partner"] = True  # the log records when he became known (R13.11)
        if state.is_over:
            payload.update(closes=True, needs_confirmation=hand_needs_confirmation(hand=locked))
        return NewEvent(_KIND_OF_ACTION[type(parsed)], payload, actor_seat=parsed.seat)

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.payload.get("action") == canonical,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


def _wild_reading_check(*, replay: HandReplay, action: PlayCards) -> None:
    """Physical cards, ``laizi``: a play holding a wild card and sent without a declaration
    is refused (``wild_reading_required``, its legal readings listed) unless reading it as
    its own cards is its only legal reading: the rules would otherwise choose a reading the
    referee never said (issue 29). Any other refusal of the play (turn, cards seen) comes
    first, as it would for the play declared."""
    state = replay.state
    if not isinstance(state, PhysicalHandState) or replay.result_event is not None:
        return
    try:
        readings = state.wild_readings(action)
    except RulesError as exc:
        raise rules_error(exc, index=len(state.actions)) from exc
    if not readings or readings == [action]:
        return
    _action_push(replay=replay, action=readings[0])
    state.pop()
    details: dict[str, Any] = {
        "index": len(state.actions),
        "readings": [reading.to_json() for reading in readings],
    }
    top = state.top_play
    if top is not None:
        details["top"] = {"seat": state.top_seat, "cards": top.text()}
    raise ApplicationError(
        "wild_reading_required",
        _("%(cards)s holds a wild card: say what it stands for (as), one of: %(readings)s.")
        % {
            "cards": action.cards,
            "readings": ", ".join(
                r.declared if isinstance(r, DeclaredPlay) else r.cards for r in readings
            ),
        },
        extra=details,
    )


def _action_push(*, replay: HandReplay, action: Action | DeclaredPlay) -> AnyHandState:
    """Push ``action`` onto the locked hand's replayed state, or raise the refusal (the
    state then unchanged)."""
    state = replay.state
    if state is None:
        raise ApplicationError(
            "no_deal",
            _("This hand has no deal and is not in physical-cards mode: enter its result."),
        )
    if replay.result_event is not None:
        raise ApplicationError("hand_closed", _("The hand's result has been entered."))
    try:
        # a declared play comes only from the laizi reader, whose state takes it
        state.push(cast(Action, action))
    except RulesError as exc:
        top = state.top_play
        details: dict[str, Any] = {"index": len(state.actions)}
        if top is not None:
            details["top"] = {"seat": state.top_seat, "cards": top.text()}
        raise rules_error(exc, **details) from exc
    return state


@hand_write_atomic
def hand_action_undo(
    *,
    hand: Hand,
    reason: str,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Take back the last action in force (an entry mistake), with a reason: an ``undo``
    event, nothing deleted. A hand finished by its last play reopens, unless its table
    has started another hand since (``hand_reopen_check``); a confirmed, voided or
    result-entered hand cannot be undone."""

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        reason_check(reason)
        if locked.status == HandStatus.VOIDED or replay.result_event is not None:
            raise ApplicationError("hand_closed", _("Only actions of a live hand can be undone."))
        if locked.confirmation == "confirmed":
            raise ApplicationError("hand_closed", _("A confirmed hand cannot be undone."))
        if not replay.actions:
            raise ApplicationError("nothing_to_undo", _("The hand has no action to undo."))
        if locked.status in CLOSED_STATUSES:  # closed by the action undone: the hand reopens
            hand_reopen_check(hand=locked)
        undone = replay.actions[-1]
        return NewEvent(
            HandEventKind.UNDO,
            {"undone_seq": undone.seq, "action": undone.payload["action"], "reason": reason},
            actor_seat=undone.actor_seat,
        )

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.UNDO and e.payload.get("reason") == reason,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


@hand_write_atomic
def hand_announcement_record(
    *,
    hand: Hand,
    seat: int,
    made: bool = True,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Confirm the due 报牌 of ``seat`` (SPEC R6.1), or log it as missing (R6.2: an
    irregularity, no score change; a penalty is a separate decision)."""
    kind = HandEventKind.ANNOUNCE if made else HandEventKind.ANNOUNCE_MISSING

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        due = [a for a in replay.announcements_due if a.seat == seat]
        if not due:
            raise ApplicationError(
                "no_announcement_due",
                _("%(seat)s has no announcement due.") % {"seat": seat_name(seat)},
            )
        announcement = due[0]
        payload = {
            "seat": announcement.seat,
            "cards_left": announcement.cards_left,
            "action_index": announcement.event_index,
        }
        return NewEvent(kind, payload, actor_seat=seat)

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == kind and e.payload.get("seat") == seat,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


@hand_write_atomic
def hand_deal_record(
    *,
    hand: Hand,
    deal: dict[str, Any],
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Write in the deal of a physical-cards hand once it has ended, and check the log
    against it.

    The deal is recorded either way; the event's ``check`` names the first action the deal
    makes illegal (its index, code and explanation), or says the whole log is legal. A
    failed check makes the hand irregular: it does not count until a director keeps it
    (``hand_corrections.hand_irregular_keep``), corrects or voids it.
    """
    try:
        parsed = deal_written_in(get_profile(hand.rule_profile), deal)
    except RulesError as exc:
        raise rules_error(exc) from exc
    canonical = parsed.to_json()

    def decide(locked: Hand, replay: HandReplay) -> list[NewEvent]:
        if not locked.physical_cards:
            raise ApplicationError(
                "not_physical_cards", _("Only a physical-cards hand has its deal written in.")
            )
        if locked.status not in (HandStatus.FINISHED, HandStatus.PASSED_OUT):
            # Written in while the hand is live, the deal would check only the actions so
            # far and not the ones after it: it is written in once the hand has ended.
            raise ApplicationError(
                "hand_live",
                _("The deal of a physical-cards hand is written in once the hand has ended."),
            )
        # six players: the face-up card's holder, the landlord the referee gave (R13.3)
        if parsed.first_bidder != locked.first_bidder:
            raise ApplicationError(
                "first_bidder_mismatch",
                _("The deal's first bidder must be the hand's (%(seat)s).")
                % {"seat": seat_name(locked.first_bidder)},
            )
        error = check_deal(
            parsed,
            [e.payload["action"] for e in replay.actions],
            rules_of(locked),
            wild=getattr(replay.state, "wild", None),  # laizi: the wild rank typed in
        )
        check: dict[str, Any] = {"ok": error is None}
        if error is not None:
            check.update(index=error.index, code=error.code, rule=error.message)
        events = [NewEvent(HandEventKind.DEAL, {"deal": canonical, "check": check})]
        if error is not None:
            # Irregular: held back from the standings (disputed) until a director keeps it
            # with a reason (``hand_irregular_keep``), corrects or voids it.
            events.append(
                NewEvent(
                    HandEventKind.DISPUTE,
                    {"irregular": "deal_check_failed", "reason": error.message},
                )
            )
        return events

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.DEAL and e.payload["deal"] == canonical,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


# --------------------------------------------------------------------------- result-only
class LeftOut(Enum):
    """A field the caller left out, where None is a value (six players' ``partner``: None
    is the landlord alone)."""

    LEFT_OUT = "left out"


LEFT_OUT = LeftOut.LEFT_OUT


def partner_given(partner: int | LeftOut | None) -> dict[str, int | None]:
    """``partner`` as a result entry's field: none when left out."""
    return {} if partner is LEFT_OUT else {"partner": partner}


#: A result-only entry's result: a three-player or Big Three ``DealResult``; six players'
#: own, with the partner (R13.4, R13.9).
EntryResult = DealResult | SixResult


def result_of_json(data: object, profile: RuleProfile) -> EntryResult:
    """A stored result (a result or correction event's ``result``) read back as the entry
    that wrote it: six players' with the partner, every other game's as ``DealResult``."""
    if profile.game == "six_p":
        return SixResult.from_json(data)
    return DealResult.from_json(data)


def result_payload(result: EntryResult, profile: RuleProfile) -> dict[str, Any]:
    """A result event's payload: the result, its scores (``score_hand``, the rules library's
    one scoring entry point) and the profile (``rules_of`` the hand: its cap included)."""
    try:
        # a game of its own (Big Three) reads the result as its rules do, then scores it
        scored = result if profile.is_three_player else result_from_json(result.to_json(), profile)
        scores = score_hand(scored, profile)
    except RulesError as exc:
        raise rules_error(exc) from exc
    return {
        "result": result.to_json(),
        "scores": list(scores),
        "rule_profile": profile.key,
        "rule_profile_hash": profile.content_hash,
    }


#: What a result-only entry leaves out: nothing doubled, no bomb, no spring.
_ENTRY_DEFAULTS: dict[str, Any] = {
    "redoubled": False, "bombs": 0, "rockets": 0, "spring": False, "anti_spring": False,
}  # fmt: skip

_RESULT_FIELDS = frozenset(DealResult.__dataclass_fields__) | {"partner"}


#: A three-player result-only entry's fields, in the order a form shows them.
FULL_RESULT_FIELDS = (
    "landlord", "bid", "winner", "doubled", "redoubled", "bombs", "rockets", "spring",
    "anti_spring",
)  # fmt: skip
#: What a Big Three result-only entry asks (R12.11, R12.12.2): the digger (``landlord``), his
#: bid and the side that went out first; it has no doubling, bomb, rocket or spring.
BIG3_RESULT_FIELDS = ("landlord", "bid", "winner")
#: What a six-player result-only entry asks (R13.4, R13.9): the landlord (the face-up card's
#: holder), his partner (the third copy's holder, or nobody: he played alone), the winning
#: side, the bombs and a spring; no bid (the base is 1), no doubling, no rocket.
SIX_RESULT_FIELDS = ("landlord", "partner", "winner", "bombs", "spring", "anti_spring")


def result_entry_fields(rule_profile: str) -> tuple[str, ...]:
    """The fields a result-only entry (or a correction) of a hand of ``rule_profile`` asks:
    every field of a three-player result; the digger, his bid and the winner in Big Three
    (SPEC §12); the landlord, his partner, the winner, bombs and spring in six players
    (§13); none in another variant, whose result comes from its log (``result_entry``)."""
    profile = get_profile(rule_profile)
    if profile.is_three_player:
        return FULL_RESULT_FIELDS
    if profile.game == "big3":
        return BIG3_RESULT_FIELDS
    if profile.game == "six_p":
        return SIX_RESULT_FIELDS
    return ()


def result_entry_allowed(rule_profile: str) -> bool:
    """Whether a hand of ``rule_profile`` may be entered, or corrected, by its result's
    fields (``result_entry_fields``): the three-player profiles, Big Three and six players.
    Another variant's result comes from its log (``result_entry``); the referee's phone (the
    assignments' ``result_only``) and the director's correction form show the fields by this
    answer."""
    return bool(result_entry_fields(rule_profile))


def passed_out_possible(rule_profile: str) -> bool:
    """Whether a hand of ``rule_profile`` can be passed out (流局). Not in Big Three: its
    opening bid is compulsory (``big3``, R12.5.1) or three passes make the first bidder dig
    at 1 (``big3_one_round``, 烂挖, R12.5.3); every deal is played and scored (R12.5.2).
    Not in six players: the face-up card names the landlord, there is no auction (R13.3)."""
    profile = get_profile(rule_profile)
    if profile.game == "six_p":
        return False
    return not (profile.compulsory_opening or profile.all_pass == "first_bidder_digs")


def passed_out_check(rule_profile: str) -> None:
    """Refuse a passed-out record (or correction) where the rules have none."""
    if not passed_out_possible(rule_profile):
        if get_profile(rule_profile).game == "six_p":
            raise ApplicationError(
                "no_passed_out",
                _(
                    "Under the %(profile)s rules no deal is passed out: the face-up card names "
                    "the landlord, there is no auction (R13.3). A deal the table redealt has "
                    "no record: void the hand."
                )
                % {"profile": rule_profile},
                extra={"rule_number": "R13.3"},
            )
        raise ApplicationError(
            "no_passed_out",
            _(
                "Under the %(profile)s rules no deal is passed out: every deal has a digger "
                "and is played and scored (R12.5.2). A deal the table redealt has no record: "
                "void the hand."
            )
            % {"profile": rule_profile},
            extra={"rule_number": "R12.5.2"},
        )


def result_entry(fields: Mapping[str, Any], *, hand: Hand) -> EntryResult:
    """A result-only entry's (or a correction's) fields, in ``DealResult.to_json``'s form
    (``doubled`` a tuple too; the flags, the bombs and the rocket may be left out), as a
    ``DealResult``; six players' as a ``SixResult``, with ``partner`` (a seat, or None: the
    landlord played alone) and no bid. A flag of the wrong type is refused here
    (``invalid``); a landlord, bid, bomb or rocket count or winner of the wrong type is a
    contradiction the rules name with its rule, as one out of range is (``invalid_result``,
    in ``result_entry_check``). Nobody doubled when ``doubled`` is left out or None. Another
    variant hand's result comes from its log only (``result_from_log``): its own factors (two
    packs' bombs, bomb classes) are not a three-player result's."""
    profile = get_profile(hand.rule_profile)
    if not result_entry_allowed(hand.rule_profile):
        raise ApplicationError(
            "result_from_log",
            _(
                "Under the %(profile)s rules a hand's result comes from its log of actions: "
                "play it to its end, or correct it to passed out, or void it."
            )
            % {"profile": profile.key},
        )
    seats = hand.seats
    landlord = fields.get("landlord")
    if type(landlord) is int and seats <= landlord < MAX_SEATS:  # a seat of bigger tables
        seat_check("landlord", landlord, seats)
    unknown = fields.keys() - _RESULT_FIELDS
    if unknown:
        raise TypeError(f"result_entry() got unexpected fields {sorted(unknown)}")
    data = {**_ENTRY_DEFAULTS, **fields}
    _partner_and_bid_check(data, profile)
    if data.get("doubled") is None:
        data["doubled"] = no_doubles(seats)
    bool_per_seat_check("doubled", data["doubled"], seats)
    bool_check(redoubled=data["redoubled"], spring=data["spring"], anti_spring=data["anti_spring"])
    if not profile.is_three_player:
        # the game's own reading refuses what its rules cannot produce (Big Three: a double,
        # a bomb, a rocket, a spring: R12.11.1, R12.9, R12.10; six players: a bid other than
        # the base, R13.3), naming the rule
        try:
            read = result_from_json({**data, "doubled": list(data["doubled"])}, profile)
        except BadResult as exc:
            raise ApplicationError(
                "invalid_result",
                _("This result cannot happen under the rules."),
                extra={"rule": exc.message, "field": exc.field},
            ) from exc
        except RulesError as exc:
            raise rules_error(exc) from exc
        if isinstance(read, SixResult):
            return read
    data.pop("partner", None)
    return DealResult(**{**data, "doubled": tuple(data["doubled"])})


def _partner_and_bid_check(data: dict[str, Any], profile: RuleProfile) -> None:
    """Six players' result names the partner (or None: alone) and has no bid but the base
    (R13.3, R13.4); every other game's names a bid and has no partner."""
    if profile.game == "six_p":
        if "partner" not in data:
            raise ApplicationError(
                "partner_required",
                _(
                    "A six-player result names the landlord's partner (暗地主), the holder "
                    "of the partner card's third copy, or null when the landlord played alone "
                    "(R13.4)."
                ),
                extra={"field": "partner", "rule_number": "R13.4"},
            )
        if data.get("bid") is None:
            data.pop("bid", None)  # the base, 1 (R13.3)
        return
    if data.get("partner") is not None:
        raise ApplicationError(
            "no_partner",
            _("Only a six-player landlord has a partner (R13.4): leave it out."),
            extra={"field": "partner", "rule_number": "R13.4"},
        )
    data.pop("partner", None)
    if data.get("bid") is None:
        raise ApplicationError(
            "bid_required",
            _("A result names the landlord's bid."),
            extra={"field": "bid"},
        )


def result_entry_check(
    *, hand: Hand, result: EntryResult, replay: HandReplay | None = None
) -> dict[str, Any]:
    """What entering ``result`` on ``hand`` must pass, in this order: the hand is open
    (``hand_closed``), its actions are not being logged (``hand_logged_live``), and the
    result is consistent and possible (``score_hand``: ``invalid_result`` or
    ``impossible_result`` naming the rule in ``details.rule``). Answers the result event's
    payload, with the scores. ``hand_record_result`` calls it on the locked row,
    ``hand_result_preview`` on the row as read (``replay``: the hand's, when the caller has
    it)."""
    hand_open_check(hand=hand)
    if (replay or hand_replay_stored(hand=hand)).actions:
        raise ApplicationError(
            "hand_logged_live",
            _("This hand's actions are being logged; its result comes from the log."),
        )
    return result_payload(result, rules_of(hand))


def hand_result_preview(*, hand: Hand, **fields: Any) -> dict[str, Any]:
    """What ``hand_record_result`` with these fields would record, by its own checks: the
    result, each seat's score and whether the hand would then await confirmation (the
    phone's summary before the referee saves). Writes nothing; refused as the entry is."""
    payload = result_entry_check(hand=hand, result=result_entry(fields, hand=hand))
    payload["needs_confirmation"] = hand_needs_confirmation(hand=hand)
    return payload


@hand_write_atomic
def hand_record_result(
    *,
    hand: Hand,
    landlord: int,
    winner: str,
    bid: int | None = None,
    partner: int | LeftOut | None = LEFT_OUT,
    doubled: Sequence[bool] | None = None,
    redoubled: bool = False,
    bombs: int = 0,
    rockets: int = 0,
    spring: bool = False,
    anti_spring: bool = False,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Record a hand's result summary (result-only entry) and finish the hand.

    For tables that do not log plays: refused once actions are logged. Checked for
    consistency and scored by ``score_hand`` under the hand's rule profile
    (``result_entry_check``, which the preview runs too). ``partner``: six players only (a
    seat, or None: the landlord played alone), where ``bid`` is left out.
    """
    fields = {
        "landlord": landlord, "bid": bid, "doubled": doubled, "redoubled": redoubled,
        "bombs": bombs, "rockets": rockets, "spring": spring, "anti_spring": anti_spring,
        "winner": winner, **partner_given(partner),
    }  # fmt: skip
    result = result_entry(fields, hand=hand)

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        payload = result_entry_check(hand=locked, result=result, replay=replay)
        payload["needs_confirmation"] = hand_needs_confirmation(hand=locked)
        return NewEvent(HandEventKind.RESULT, payload)

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: (
            e.kind == HandEventKind.RESULT
            and e.payload.get("result") == result_payload(result, rules_of(hand))["result"]
        ),
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


@hand_write_atomic
def hand_record_passed_out(
    *,
    hand: Hand,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Record, for a table that does not log plays, that everybody passed (流局, R2.4):
    the hand scores 0 for every seat and counts as a hand played (R10.8.2). Refused where
    the rules pass out no deal (``passed_out_check``: Big Three)."""
    passed_out_check(hand.rule_profile)

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        hand_open_check(hand=locked)
        if replay.actions:
            raise ApplicationError(
                "hand_logged_live",
                _("This hand's actions are being logged; its result comes from the log."),
            )
        payload = {"closes": True, "needs_confirmation": hand_needs_confirmation(hand=locked)}
        return NewEvent(HandEventKind.PASS_OUT, payload)

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.PASS_OUT,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


__all__ = [
    "CLOSED_STATUSES",
    "LEFT_OUT",
    "LeftOut",
    "hand_action_record",
    "hand_action_undo",
    "hand_announcement_record",
    "hand_board_check",
    "hand_create",
    "hand_deal_record",
    "hand_needs_confirmation",
    "hand_open_check",
    "hand_record_passed_out",
    "hand_record_result",
    "hand_result_preview",
    "partner_given",
    "passed_out_check",
    "passed_out_possible",
    "result_entry",
    "result_entry_allowed",
    "result_entry_check",
    "result_entry_fields",
    "result_of_json",
]
