"""Per-seat result rows and the tournament log version: what standings are built from.

Every service that changes whether or how a hand counts (finishing, correcting,
voiding, confirming, disputing it, or correcting who sat where) calls
``hand_results_sync`` in its transaction; penalty services call
``tournament_scores_changed``.
"""

from django.db.models import F

from tournaments.models import Hand, HandSeatResult, Seat, Tournament, Winner


def tournament_scores_changed(*, tournament_id: int) -> None:
    """Bump the tournament's log version in the caller's transaction."""
    Tournament.objects.filter(pk=tournament_id).update(log_version=F("log_version") + 1)


def hand_results_sync(*, hand: Hand) -> None:
    """Rewrite ``hand``'s per-seat rows from its summary and seats, then bump the log version.

    A hand that counts (finished or passed out, and confirmed where the tournament
    asks for it) has one row per seat; any other hand has none.
    """
    tournament_id = hand.table.round.tournament_id
    HandSeatResult.objects.filter(hand=hand).delete()
    if hand.counts:
        seats = Seat.objects.filter(table_id=hand.table_id).order_by("position")
        HandSeatResult.objects.bulk_create(
            HandSeatResult(
                hand=hand,
                tournament_id=tournament_id,
                position=seat.position,
                entry_id=seat.entry_id,
                is_landlord=seat.position == hand.landlord_seat,
                won=_seat_won(hand, seat.position),
                score=hand.scores[seat.position] or 0,
            )
            for seat in seats
        )
    tournament_scores_changed(tournament_id=tournament_id)


def _seat_won(hand: Hand, position: int) -> bool:
    if not hand.winner or hand.landlord_seat is None:
        return False
    return (position == hand.landlord_seat) == (hand.winner == Winner.LANDLORD)
