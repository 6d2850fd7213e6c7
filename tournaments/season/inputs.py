"""What a season's rating and points are computed from, read two ways that must agree:

- ``season_inputs_stored``: the per-seat result rows (``HandSeatResult``) the hand services
  keep, in one query: what the Celery task reads;
- ``season_inputs_replayed``: every hand's event log replayed through the rules library
  (``tournaments.hands.replay``), ignoring the hand rows' summaries and the result rows: what
  ``manage.py season_rebuild`` reads to prove the stored ladder is a projection of the logs.

Both take the players from the entries (after merges), the seats from the seating and the
penalties from their table."""

from collections import defaultdict
from collections.abc import Iterable

from django.db import connection
from django.db.models import Exists, OuterRef, Sum

from tournaments.hands.replay import hand_replay
from tournaments.models import (
    Hand,
    HandEvent,
    HandSeatResult,
    HandStatus,
    Penalty,
    Season,
    Seat,
    Tournament,
    TournamentLog,
    TournamentLogKind,
    TournamentStatus,
    Winner,
)
from tournaments.models.hands import COUNTED_CONFIRMATIONS, COUNTED_STATUSES
from tournaments.season.rating import EventInput, HandOutcome


def season_candidates(season: Season) -> list[Tournament]:
    """The season's tournaments of a counted profile and format, in season order."""
    qs = season.tournaments.all()
    if season.profiles:
        qs = qs.filter(rule_profile__in=season.profiles)
    if season.formats:
        qs = qs.filter(format__in=season.formats)
    return list(qs.order_by("created_at", "id"))


def season_reopened(season: Season) -> list[Tournament]:
    """Candidates whose final results were published and are reopened now."""
    published = TournamentLog.objects.filter(
        tournament=OuterRef("pk"), kind=TournamentLogKind.FINAL_PUBLISHED
    )
    ids = [t.pk for t in season_candidates(season)]
    return list(
        Tournament.objects.filter(pk__in=ids)
        .exclude(status=TournamentStatus.FINISHED)
        .filter(Exists(published))
        .order_by("created_at", "id")
    )


def season_counted(season: Season) -> list[Tournament]:
    """The tournaments the ladder counts: candidates whose results are final."""
    return [t for t in season_candidates(season) if t.status == TournamentStatus.FINISHED]


def _field(tournament_ids: list[int]) -> dict[int, dict[int, int]]:
    """Per tournament, the players who were seated, each with their penalties' sum."""
    out: dict[int, dict[int, int]] = defaultdict(dict)
    seated = Seat.objects.filter(round__tournament_id__in=tournament_ids).values_list(
        "round__tournament_id", "entry__player_id"
    )
    for tournament_id, player_id in seated:
        out[tournament_id][player_id] = 0
    penalties = (
        Penalty.objects.filter(tournament_id__in=tournament_ids, revoked_at=None)
        .values("tournament_id", "entry__player_id")
        .annotate(points=Sum("points"))
    )
    for row in penalties:
        players = out[row["tournament_id"]]
        if row["entry__player_id"] in players:
            players[row["entry__player_id"]] += row["points"]
    return out


def season_inputs_stored(tournaments: Iterable[Tournament]) -> list[EventInput]:
    """The counted hands of ``tournaments`` from their per-seat result rows."""
    ids = [t.pk for t in tournaments]
    if not ids:
        return []
    totals = _field(ids)
    # One plain query (hundreds of thousands of rows for a season: no model instances).
    query = (
        HandSeatResult.objects.filter(tournament_id__in=ids)
        .order_by(
            "tournament_id", "round__number", "hand_number", "table_id", "hand_id", "position"
        )
        .values_list(
            "tournament_id",
            "hand_id",
            "entry__player_id",
            "is_landlord",
            "won",
            "score",
            "passed_out",
        )
    )
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    hands: dict[int, list[HandOutcome]] = defaultdict(list)
    current: list[tuple[int, bool, bool]] = []
    current_key: tuple[int, int] | None = None

    def flush() -> None:
        if current_key is None or not current:
            return
        landlord = [p for p, is_landlord, _ in current if is_landlord]
        if len(landlord) == 1:
            won = next(w for p, is_landlord, w in current if is_landlord)
            # the landlord's side wins or loses with him: a six-player partner (R13.8)
            partners = tuple(p for p, is_l, w in current if not is_l and w == won)
            farmers = tuple(p for p, is_l, w in current if not is_l and w != won)
            hands[current_key[0]].append(HandOutcome(landlord[0], farmers, won, partners))

    for tournament_id, hand_id, player, is_landlord, won, score, passed_out in rows:
        key = (tournament_id, hand_id)
        if key != current_key:
            flush()
            current, current_key = [], key
        if tournament_id in totals and player in totals[tournament_id]:
            totals[tournament_id][player] += score
        if not passed_out:
            current.append((player, is_landlord, won))
    flush()
    return [EventInput(tournament_id=i, hands=hands[i], totals=dict(totals[i])) for i in ids]


def season_inputs_replayed(tournaments: Iterable[Tournament]) -> list[EventInput]:
    """The counted hands of ``tournaments`` from their event logs alone (each hand replayed
    through the rules library); slow by design: a check, not the ladder's path."""
    ids = [t.pk for t in tournaments]
    totals = _field(ids)
    seat_players: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player in Seat.objects.filter(round__tournament_id__in=ids).values_list(
        "table_id", "position", "entry__player_id"
    ):
        seat_players[table_id][position] = player
    hands_of: dict[int, list[HandOutcome]] = defaultdict(list)
    events: dict[int, list[HandEvent]] = defaultdict(list)
    hand_rows = list(
        Hand.objects.filter(table__round__tournament_id__in=ids)
        .select_related("table__round")
        .order_by("table__round__tournament_id", "table__round__number", "number", "table_id", "id")
    )
    for event in HandEvent.objects.filter(hand__in=[h.pk for h in hand_rows]).order_by(
        "hand_id", "seq"
    ):
        events[event.hand_id].append(event)
    for hand in hand_rows:
        summary = hand_replay(hand=hand, events=events[hand.pk]).summary
        counts = (
            summary["status"] in COUNTED_STATUSES
            and summary["confirmation"] in COUNTED_CONFIRMATIONS
        )
        if not counts:
            continue
        tournament_id = hand.table.round.tournament_id
        players = seat_players[hand.table_id]
        for position, score in enumerate(summary["scores"] or []):
            seated = players.get(position)
            if seated is not None and seated in totals[tournament_id]:
                totals[tournament_id][seated] += score
        if summary["status"] == HandStatus.PASSED_OUT or summary["landlord_seat"] is None:
            continue
        landlord_seat, partner_seat = summary["landlord_seat"], summary["partner_seat"]
        side = (landlord_seat, partner_seat)
        farmers = tuple(players[p] for p in sorted(players) if p not in side)
        hands_of[tournament_id].append(
            HandOutcome(
                landlord=players[landlord_seat],
                farmers=farmers,
                landlord_won=summary["winner"] == Winner.LANDLORD,
                partners=() if partner_seat is None else (players[partner_seat],),
            )
        )
    return [EventInput(tournament_id=i, hands=hands_of[i], totals=dict(totals[i])) for i in ids]
