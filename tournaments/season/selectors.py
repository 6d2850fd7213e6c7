"""Reads of the season pages: the ladder, a player's season, two players head to head."""

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F

from tournaments.common.player_names import display_name
from tournaments.models import (
    HandSeatResult,
    Player,
    Season,
    SeasonRating,
    SeasonStatus,
    SeasonStep,
)
from tournaments.season.inputs import season_counted, season_reopened


def season_get(*, slug: str, director: bool = False) -> Season | None:
    """The season of ``slug`` if the public may see it (a director sees every season)."""
    season = Season.objects.filter(slug=slug).first()
    if season is None or not (season.is_public or director):
        return None
    return season


def seasons_public() -> list[Season]:
    return list(Season.objects.filter(is_public=True).order_by("-created_at", "id"))


def player_label(player: Player) -> str:
    return display_name(player.name, player.chinese_name)


def season_ladder(*, season: Season) -> list[SeasonRating]:
    return list(
        SeasonRating.objects.filter(season=season).select_related("player").order_by("rank")
    )


@dataclass
class SeasonState:
    counted: int
    reopened: list[Any]
    closed: bool


def season_state(*, season: Season) -> SeasonState:
    return SeasonState(
        counted=len(season.computed_from or {}),
        reopened=season_reopened(season),
        closed=season.status == SeasonStatus.CLOSED,
    )


@dataclass
class PlayerSeason:
    player: Player
    line: SeasonRating | None
    steps: list[SeasonStep] = field(default_factory=list)


def player_season(*, season: Season, player_id: int) -> PlayerSeason | None:
    """A player of the ladder, with their steps (one a tournament played, in order)."""
    line = (
        SeasonRating.objects.filter(season=season, player_id=player_id)
        .select_related("player")
        .first()
    )
    if line is None:
        return None
    steps = list(
        SeasonStep.objects.filter(season=season, player_id=player_id)
        .select_related("tournament")
        .order_by("order")
    )
    return PlayerSeason(player=line.player, line=line, steps=steps)


@dataclass
class HeadToHead:
    first: Player
    second: Player
    hands_together: int = 0
    #: One a landlord (地主), the other a farmer: the hands each won.
    opposed: int = 0
    first_won: int = 0
    second_won: int = 0
    #: Both farmers (农民) against a landlord: the hands they won together.
    partners: int = 0
    partners_won: int = 0
    #: Tournaments both played: (tournament, first's placing, second's placing).
    events: list[tuple[Any, int | None, int | None]] = field(default_factory=list)


def head_to_head(*, season: Season, first: Player, second: Player) -> HeadToHead:
    """The counted hands of the season where ``first`` and ``second`` sat at one table."""
    out = HeadToHead(first=first, second=second)
    ids = [t.pk for t in season_counted(season)]
    ids = [i for i in ids if str(i) in (season.computed_from or {})]
    rows = (
        HandSeatResult.objects.filter(
            tournament_id__in=ids,
            entry__player_id__in=[first.pk, second.pk],
            passed_out=False,
        )
        .values_list("hand_id", "entry__player_id", "is_landlord", "won")
        .order_by("hand_id")
    )
    by_hand: dict[int, dict[int, tuple[bool, bool]]] = {}
    for hand_id, player_id, is_landlord, won in rows:
        by_hand.setdefault(hand_id, {})[player_id] = (is_landlord, won)
    for seats in by_hand.values():
        if len(seats) != 2:
            continue
        out.hands_together += 1
        (_a_landlord, a_won), (_b_landlord, b_won) = seats[first.pk], seats[second.pk]
        # Two players at one table are on one side when they won or lost together: the two
        # farmers, or the landlord and his six-player partner (R13.8).
        if a_won != b_won:
            out.opposed += 1
            if a_won:
                out.first_won += 1
            else:
                out.second_won += 1
        else:
            out.partners += 1
            out.partners_won += int(a_won)
    steps: dict[int, dict[int, SeasonStep]] = {}
    for step in SeasonStep.objects.filter(
        season=season, player_id__in=[first.pk, second.pk]
    ).select_related("tournament"):
        steps.setdefault(step.tournament_id, {})[step.player_id] = step
    for both in sorted(steps.values(), key=lambda s: next(iter(s.values())).order):
        if len(both) == 2:
            out.events.append(
                (
                    both[first.pk].tournament,
                    both[first.pk].placing,
                    both[second.pk].placing,
                )
            )
    return out


def ladder_players(*, season: Season) -> list[tuple[int, str]]:
    """(id, name) of the ladder's players, by name: the head-to-head form's choices."""
    rows = (
        SeasonRating.objects.filter(season=season)
        .annotate(name=F("player__name"), chinese=F("player__chinese_name"))
        .values_list("player_id", "name", "chinese")
    )
    return sorted(((p, display_name(n, c)) for p, n, c in rows), key=lambda r: r[1].casefold())
