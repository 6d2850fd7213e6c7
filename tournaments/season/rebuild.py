"""The season's ladder rebuilt from the hand logs alone and compared with the stored one
(``manage.py season_rebuild``): the proof that the ladder is a projection of the logs."""

from dataclasses import dataclass

from tournaments.models import Season, SeasonRating, SeasonStep
from tournaments.season.inputs import season_counted, season_inputs_replayed
from tournaments.season.rating import SeasonResult, season_compute

#: Floats compared to this many decimals (the same arithmetic in the same order gives the
#: same bits; the margin only forgives the database's float round trip).
PLACES = 9


@dataclass(frozen=True)
class Difference:
    player_id: int
    what: str
    stored: object
    rebuilt: object

    def __str__(self) -> str:
        return (
            f"player {self.player_id}: {self.what} stored {self.stored!r}, rebuilt {self.rebuilt!r}"
        )


def season_rebuilt(season: Season) -> SeasonResult:
    """The ladder computed from the counted tournaments' hand logs (replayed)."""
    if season.computed_from is not None:
        # The tournaments the stored ladder counted (a recompute waiting on a reopened
        # tournament left it as it was): compare like with like.
        ids = {int(i) for i in season.computed_from}
        counted = [t for t in season_counted(season) if t.pk in ids]
    else:
        counted = []
    return season_compute(season_inputs_replayed(counted))


def _same(a: float, b: float) -> bool:
    return round(a, PLACES) == round(b, PLACES)


def season_compare(season: Season) -> list[Difference]:
    """Every difference between the stored ladder (and chart steps) and the rebuilt one."""
    season.refresh_from_db(fields=["computed_from"])
    rebuilt = season_rebuilt(season)
    out: list[Difference] = []
    stored = {r.player_id: r for r in SeasonRating.objects.filter(season=season)}
    for player_id in sorted(set(stored) | set(rebuilt.players)):
        row, line = stored.get(player_id), rebuilt.players.get(player_id)
        if row is None or line is None:
            out.append(Difference(player_id, "on the ladder", row is not None, line is not None))
            continue
        for name in ("rank", "points", "events", "hands"):
            if getattr(row, name) != getattr(line, name):
                out.append(Difference(player_id, name, getattr(row, name), getattr(line, name)))
        for name in ("mu", "sigma", "ordinal", "trend"):
            if not _same(getattr(row, name), getattr(line, name)):
                out.append(Difference(player_id, name, getattr(row, name), getattr(line, name)))
    steps = {(s.player_id, s.tournament_id): s for s in SeasonStep.objects.filter(season=season)}
    for step in rebuilt.steps:
        got = steps.pop((step.player_id, step.tournament_id), None)
        if got is None:
            out.append(Difference(step.player_id, f"step of {step.tournament_id}", None, step))
            continue
        for name in ("order", "placing", "field", "rank", "points", "hands"):
            if getattr(got, name) != getattr(step, name):
                what = f"{name} after tournament {step.tournament_id}"
                out.append(
                    Difference(step.player_id, what, getattr(got, name), getattr(step, name))
                )
        for name in ("mu", "sigma", "ordinal"):
            if not _same(getattr(got, name), getattr(step, name)):
                what = f"{name} after tournament {step.tournament_id}"
                out.append(
                    Difference(step.player_id, what, getattr(got, name), getattr(step, name))
                )
    for (player_id, tournament_id), got in steps.items():
        out.append(Difference(player_id, f"step of {tournament_id}", got, None))
    return out
