"""One person, one player: likely duplicates, a director's merge (the duplicate's entries
move to the kept player, logged in ``PlayerMerge``) and its undo while no closed season
counts the tournaments concerned.

Results hang on entries (``HandSeatResult.entry``, ``Penalty.entry``, snapshots), never on
players, so moving an entry keeps every result.  Two entries of one tournament cannot
become one player's (a tournament registers a player once; two seats of one table cannot be
one person): such a merge is refused, naming the tournament and, when the two sat at one
table, that table."""

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.models import (
    Entry,
    Player,
    PlayerMerge,
    Season,
    SeasonStatus,
    Seat,
)


def name_key(name: str) -> str:
    """A name as compared for likely duplicates: case, accents, spaces and dots ignored."""
    text = unicodedata.normalize("NFKD", name).casefold()
    return "".join(c for c in text if c.isalnum())


@dataclass(frozen=True)
class LikelyPair:
    first: Player
    second: Player
    because: str


def players_likely_duplicates(*, limit: int = 200) -> list[LikelyPair]:
    """Pairs of players (not merged) that are likely one person: the same name (as
    ``name_key`` compares), or the same Chinese name, in the same club or with no club."""
    players = list(
        Player.objects.filter(merged_into=None).only("name", "chinese_name", "club", "external_id")
    )
    groups: dict[tuple[str, str], list[Player]] = {}
    for p in players:
        if name_key(p.name):
            groups.setdefault(("name", name_key(p.name)), []).append(p)
        if p.chinese_name.strip():
            groups.setdefault(("chinese", p.chinese_name.strip()), []).append(p)
    seen: set[tuple[int, int]] = set()
    pairs: list[LikelyPair] = []
    for (kind, _key), members in sorted(groups.items()):
        members.sort(key=lambda p: p.pk)
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if (a.pk, b.pk) in seen:
                    continue
                if a.external_id and b.external_id:
                    continue  # two federation ids: two people
                if a.club and b.club and name_key(a.club) != name_key(b.club):
                    continue
                seen.add((a.pk, b.pk))
                because = _("same name") if kind == "name" else _("same Chinese name")
                pairs.append(LikelyPair(first=a, second=b, because=because))
                if len(pairs) >= limit:
                    return pairs
    return pairs


def players_matching(*, name: str, chinese_name: str = "", limit: int = 5) -> list[Player]:
    """The players (not merged) a new registration of ``name`` is likely to be."""
    key = name_key(name)
    query = Q(pk__in=[])
    if chinese_name.strip():
        query |= Q(chinese_name=chinese_name.strip())
    found = list(Player.objects.filter(query, merged_into=None)[:limit])
    if key:
        first = name.strip()[:1]
        for p in Player.objects.filter(merged_into=None, name__istartswith=first).order_by("pk"):
            if len(found) >= limit:
                break
            if name_key(p.name) == key and p not in found:
                found.append(p)
    return found


def player_resolve(player: Player) -> Player:
    """The player a (possibly merged) player's entries are with now."""
    seen = {player.pk}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        seen.add(player.merged_into_id)
        player = Player.objects.get(pk=player.merged_into_id)
    return player


def _conflicts(kept: Player, merged: Player) -> None:
    both = Entry.objects.filter(player=kept).values_list("tournament_id", flat=True)
    clash = Entry.objects.filter(player=merged, tournament_id__in=list(both)).select_related(
        "tournament"
    )
    for entry in clash:
        other = Entry.objects.get(tournament_id=entry.tournament_id, player=kept)
        tables = set(Seat.objects.filter(entry=entry).values_list("table_id", flat=True))
        shared = (
            Seat.objects.filter(entry=other, table_id__in=tables)
            .select_related("table", "round")
            .first()
        )
        if shared is not None:
            raise ApplicationError(
                "merge_same_table",
                _(
                    "%(a)s and %(b)s sat at one table (%(tournament)s, round %(round)s, "
                    "table %(table)s): they are two people."
                )
                % {
                    "a": kept,
                    "b": merged,
                    "tournament": entry.tournament,
                    "round": shared.round.number,
                    "table": shared.table.number,
                },
                extra={"tournament": entry.tournament.slug, "table_id": shared.table_id},
            )
        raise ApplicationError(
            "merge_same_tournament",
            _("%(a)s and %(b)s are both registered in %(tournament)s: they are two people.")
            % {"a": kept, "b": merged, "tournament": entry.tournament},
            extra={"tournament": entry.tournament.slug},
        )


def _closed_season_check(tournament_ids: list[int], code: str, message: str) -> None:
    if Season.objects.filter(status=SeasonStatus.CLOSED, tournaments__in=tournament_ids).exists():
        raise ApplicationError(code, message)


@transaction.atomic
def player_merge(
    *, kept: Player, merged: Player, reason: str = "", recorded_by: Any = None
) -> PlayerMerge:
    """Merge ``merged`` (a duplicate registration) into ``kept``: every entry of ``merged``
    moves to ``kept``; ``merged`` keeps its row, marked ``merged_into``.  Refused between a
    player and itself, for a player already merged, across a conflict (both in one
    tournament) and for a tournament of a closed season."""
    if not user_is_director(recorded_by):
        raise ApplicationError("director_required", _("Only a director can merge players."))
    if kept.pk == merged.pk:
        raise ApplicationError("merge_same_player", _("A player cannot be merged into itself."))
    # Both rows locked, in primary-key order.
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=[kept.pk, merged.pk])
        .order_by("pk")
    }
    kept, merged = locked[kept.pk], locked[merged.pk]
    if kept.merged_into_id is not None or merged.merged_into_id is not None:
        raise ApplicationError("player_merged", _("This player was merged into another already."))
    _conflicts(kept, merged)
    moving = list(Entry.objects.filter(player=merged).order_by("pk"))
    _closed_season_check(
        [e.tournament_id for e in moving],
        "season_closed",
        _("A closed season counts one of these tournaments: its players stay as they are."),
    )
    log = PlayerMerge.objects.create(
        kept=kept,
        merged=merged,
        entries=[e.pk for e in moving],
        reason=reason.strip(),
        recorded_by=recorded_by if getattr(recorded_by, "pk", None) else None,
    )
    try:
        with transaction.atomic():
            Entry.objects.filter(pk__in=log.entries).update(player=kept)
    except IntegrityError as exc:
        # A registration of ``kept`` committed since the check: the constraint says it.
        raise ApplicationError(
            "merge_same_tournament",
            _("%(a)s and %(b)s are both registered in one tournament: they are two people.")
            % {"a": kept, "b": merged},
        ) from exc
    # The duplicate keeps its row and external id: the CSV import follows ``merged_into``.
    merged.merged_into = kept
    merged.save(update_fields=["merged_into"])
    _season_players_changed([e.tournament_id for e in moving])
    return log


@transaction.atomic
def player_merge_undo(*, merge: PlayerMerge, recorded_by: Any = None) -> PlayerMerge:
    """Undo a merge: its entries move back to the merged player.  Refused once undone, and
    once a closed season counts one of those entries' tournaments."""
    if not user_is_director(recorded_by):
        raise ApplicationError("director_required", _("Only a director can undo a merge."))
    log = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if log.undone_at is not None:
        raise ApplicationError("merge_undone", _("This merge was undone already."))
    players = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=[log.kept_id, log.merged_id])
        .order_by("pk")
    }
    kept, merged = players[log.kept_id], players[log.merged_id]
    if kept.merged_into_id is not None:
        raise ApplicationError(
            "merge_undo_later_first",
            _("%(kept)s was merged into another player since: undo that merge first.")
            % {"kept": kept},
        )
    tournaments = list(
        Entry.objects.filter(pk__in=log.entries).values_list("tournament_id", flat=True)
    )
    _closed_season_check(
        tournaments,
        "season_closed",
        _("A closed season counts one of these tournaments: the merge stays."),
    )
    # Only the entries still with the kept player (a later merge's undo took none away).
    Entry.objects.filter(pk__in=log.entries, player=kept).update(player=merged)
    merged.merged_into = None
    merged.save(update_fields=["merged_into"])
    log.undone_at = timezone.now()
    log.undone_by = recorded_by if getattr(recorded_by, "pk", None) else None
    log.save(update_fields=["undone_at", "undone_by"])
    _season_players_changed(tournaments)
    return log


def _season_players_changed(tournament_ids: list[int]) -> None:
    """The open seasons counting these tournaments recompute after the commit."""
    from tournaments.season.services import seasons_request

    seasons_request(tournament_ids=tournament_ids)
