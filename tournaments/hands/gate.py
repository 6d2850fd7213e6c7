"""Final means complete (issue 29): the hands of a round that do not count yet, the gate of
closing the round and of publishing the final standings.

A hand does not count yet while it is being played, awaits confirmation, is disputed or is
held back as irregular; a table that has not played the round's hands has *missing* hands
(one a hand it still owes: ``hands_per_round`` less the hands it played that were not
voided). Each of them stops ``round_close`` and ``tournament_finish`` with
``results_incomplete`` (its details list them) until it is settled, or a director excludes it
with a reason (``tournaments.hands.exclusions``). The results desk shows the same states and
the same list (``tournaments.director.selectors``), so the desk and the refusal agree.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from tournaments.common.errors import ApplicationError
from tournaments.hands.selectors import irregular_hand_ids
from tournaments.models import (
    Confirmation,
    ExcludedState,
    Hand,
    HandExclusion,
    HandStatus,
    Round,
    Table,
    Tournament,
)

#: The desk states of a hand that does not count yet (and of a hand not played: missing).
UNSETTLED = frozenset(ExcludedState.values)
LIVE = (HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING)

#: Each unsettled state in words (the desk's words for it).
STATE_WORDS: dict[str, Promise] = {
    "playing": gettext_lazy("Playing"),
    "awaiting": gettext_lazy("Awaiting confirmation"),
    "disputed": gettext_lazy("Disputed"),
    "irregular": gettext_lazy("Irregular: the deal does not fit the log"),
    "missing": pgettext_lazy("a hand not played", "Missing"),
}


def hand_desk_state(hand: Hand, *, irregular: bool = False) -> str:
    """A hand's desk state from its row (SPEC R10.8.1: ``finished`` counts without
    confirmation, ``confirmed`` after it); ``irregular``: its written-in deal failed its
    check (``hands.selectors.irregular_hand_ids``), held back until a director decides."""
    if hand.status == HandStatus.VOIDED:
        return "voided"
    if irregular:
        return "irregular"
    if hand.status in LIVE:
        return "playing"
    states: dict[str, str] = {
        Confirmation.PENDING: "awaiting",
        Confirmation.DISPUTED: "disputed",
        Confirmation.CONFIRMED: "confirmed",
    }
    return states.get(hand.confirmation, "finished")


@dataclass(frozen=True)
class HandLine:
    """One hand of a table as the desk and the gate see it: its number, its desk state and
    its row (None for a missing hand, one the table has not played)."""

    number: int
    state: str
    hand: Hand | None = None


def table_lines(*, hands: list[Hand], wanted: int, irregular: set[int]) -> list[HandLine]:
    """A table's hands (by number) and, after them, the hands it still owes: ``wanted``
    (the round's hands) less the hands played that were not voided."""
    lines = [
        HandLine(number=h.number, state=hand_desk_state(h, irregular=h.pk in irregular), hand=h)
        for h in hands
    ]
    played = sum(1 for h in hands if h.status != HandStatus.VOIDED)
    last = max((h.number for h in hands), default=0)
    return lines + [
        HandLine(number=last + i + 1, state="missing") for i in range(max(0, wanted - played))
    ]


@dataclass(frozen=True)
class Unsettled:
    """A hand that does not count yet: where it is and why."""

    round: int
    table: int
    table_id: int
    number: int
    state: str
    hand_id: int | None

    def words(self) -> str:
        return _("round %(round)s, table %(table)s, hand %(hand)s — %(state)s") % {
            "round": self.round,
            "table": self.table,
            "hand": self.number,
            "state": STATE_WORDS[self.state],
        }

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "hand": self.number,
            "state": self.state,
            "hand_id": self.hand_id,
        }


@dataclass(frozen=True)
class Gate:
    """What stands between the results and their close: the hands that do not count yet
    (``unsettled``) and the exclusions a director made (``excluded``, in force or not)."""

    unsettled: list[Unsettled]
    excluded: list[HandExclusion]

    @property
    def open(self) -> bool:
        return not self.unsettled


def _tables(rounds: Iterable[Round]) -> list[Table]:
    hands = Hand.objects.select_related("board").order_by("number")
    exclusions = HandExclusion.objects.select_related("recorded_by").order_by("number")
    return list(
        Table.objects.filter(round__in=list(rounds))
        .select_related("round")
        .order_by("round__number", "number")
        .prefetch_related(
            Prefetch("hands", queryset=hands), Prefetch("exclusions", queryset=exclusions)
        )
    )


def results_gate(*, rounds: Iterable[Round], hands_per_round: int) -> Gate:
    """The gate of ``rounds`` (of one tournament): every hand of their tables that does not
    count yet and is not excluded, round, table and hand in order; and the exclusions made.
    Three queries, and a replay of each disputed physical-cards hand (``irregular``)."""
    tables = _tables(rounds)
    irregular = irregular_hand_ids(hands=[h for t in tables for h in t.hands.all()])
    unsettled: list[Unsettled] = []
    excluded: list[HandExclusion] = []
    for table in tables:
        exclusions = {e.number: e for e in table.exclusions.all()}
        excluded += exclusions.values()
        for line in table_lines(
            hands=list(table.hands.all()), wanted=hands_per_round, irregular=irregular
        ):
            if line.state in UNSETTLED and line.number not in exclusions:
                unsettled.append(
                    Unsettled(
                        round=table.round.number,
                        table=table.number,
                        table_id=table.pk,
                        number=line.number,
                        state=line.state,
                        hand_id=line.hand.pk if line.hand is not None else None,
                    )
                )
    return Gate(unsettled=unsettled, excluded=excluded)


def round_gate(*, round: Round) -> Gate:
    return results_gate(rounds=[round], hands_per_round=round.tournament.hands_per_round)


def tournament_gate(*, tournament: Tournament) -> Gate:
    return results_gate(
        rounds=Round.objects.filter(tournament=tournament),
        hands_per_round=tournament.hands_per_round,
    )


def results_incomplete_error(unsettled: list[Unsettled]) -> ApplicationError:
    """The refusal of closing a round or publishing the final standings while ``unsettled``
    hands do not count: the message lists them, ``details.hands`` too."""
    return ApplicationError(
        "results_incomplete",
        ngettext(
            "%(count)d result is missing: %(hands)s. Settle it (confirm, correct, finish or "
            "void it, or play the hand), or exclude it with a reason.",
            "%(count)d results are missing: %(hands)s. Settle each (confirm, correct, finish or "
            "void it, or play the hand), or exclude it with a reason.",
            len(unsettled),
        )
        % {"count": len(unsettled), "hands": "; ".join(u.words() for u in unsettled)},
        extra={"hands": [u.as_json() for u in unsettled]},
    )


def results_gate_check(gate: Gate) -> None:
    """Refuse with ``results_incomplete`` while a hand of ``gate`` does not count."""
    if gate.unsettled:
        raise results_incomplete_error(gate.unsettled)
