"""A season as CSV (the ladder; every player's steps) and in the JSON archive (its choices,
its tournaments by slug, its merges, its ladder and steps: what a restore re-checks by
computing again)."""

from typing import Any

from tournaments.common.player_names import display_name
from tournaments.models import PlayerMerge, Season, SeasonRating, SeasonStep
from tournaments.standings.csv_export import csv_writer

LADDER_COLUMNS = (
    "rank", "player_id", "name", "chinese_name", "club", "external_id", "mu", "sigma",
    "ordinal", "points", "events", "hands", "trend",
)  # fmt: skip
STEP_COLUMNS = (
    "player_id", "name", "order", "tournament", "placing", "field", "points", "mu", "sigma",
    "ordinal", "rank", "hands",
)  # fmt: skip


def season_ladder_csv(*, season: Season, out: Any) -> None:
    writer = csv_writer(out)
    writer.writerow(LADDER_COLUMNS)
    for r in SeasonRating.objects.filter(season=season).select_related("player").order_by("rank"):
        p = r.player
        writer.writerow(
            [
                r.rank,
                p.pk,
                p.name,
                p.chinese_name,
                p.club,
                p.external_id,
                f"{r.mu:.4f}",
                f"{r.sigma:.4f}",
                f"{r.ordinal:.4f}",
                r.points,
                r.events,
                r.hands,
                f"{r.trend:.4f}",
            ]
        )


def season_steps_csv(*, season: Season, out: Any) -> None:
    writer = csv_writer(out)
    writer.writerow(STEP_COLUMNS)
    steps = (
        SeasonStep.objects.filter(season=season)
        .select_related("player", "tournament")
        .order_by("player__name", "player_id", "order")
    )
    for s in steps:
        writer.writerow(
            [
                s.player_id,
                display_name(s.player.name, s.player.chinese_name),
                s.order,
                s.tournament.slug,
                s.placing,
                s.field,
                s.points,
                f"{s.mu:.4f}",
                f"{s.sigma:.4f}",
                f"{s.ordinal:.4f}",
                s.rank,
                s.hands,
            ]
        )


def season_archive(*, season: Season) -> dict[str, Any]:
    """The season as JSON: its settings, tournaments (slugs), the merges touching its
    players, its ladder and steps (players by id and external id)."""
    ladder = list(
        SeasonRating.objects.filter(season=season).select_related("player").order_by("rank")
    )
    players = {r.player_id for r in ladder}
    return {
        "format": "doudizhu-season",
        "version": 1,
        "season": {
            "name": season.name,
            "slug": season.slug,
            "club": season.club,
            "status": season.status,
            "is_public": season.is_public,
            "profiles": list(season.profiles),
            "formats": list(season.formats),
            "tournaments": list(
                season.tournaments.order_by("created_at", "id").values_list("slug", flat=True)
            ),
            "computed_from": season.computed_from,
        },
        "players": [
            {
                "id": r.player_id,
                "name": r.player.name,
                "chinese_name": r.player.chinese_name,
                "club": r.player.club,
                "external_id": r.player.external_id,
            }
            for r in ladder
        ],
        "ladder": [
            {
                "player": r.player_id,
                "rank": r.rank,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "points": r.points,
                "events": r.events,
                "hands": r.hands,
                "trend": r.trend,
            }
            for r in ladder
        ],
        "steps": [
            {
                "player": s.player_id,
                "tournament": s.tournament.slug,
                "order": s.order,
                "placing": s.placing,
                "field": s.field,
                "mu": s.mu,
                "sigma": s.sigma,
                "ordinal": s.ordinal,
                "rank": s.rank,
                "points": s.points,
                "hands": s.hands,
            }
            for s in SeasonStep.objects.filter(season=season)
            .select_related("tournament")
            .order_by("player_id", "order")
        ],
        "merges": [
            {
                "kept": m.kept_id,
                "merged": m.merged_id,
                "entries": list(m.entries),
                "reason": m.reason,
                "recorded_at": m.recorded_at.isoformat(),
                "undone_at": m.undone_at.isoformat() if m.undone_at else None,
            }
            for m in PlayerMerge.objects.filter(kept_id__in=players).order_by("recorded_at", "id")
        ],
    }
