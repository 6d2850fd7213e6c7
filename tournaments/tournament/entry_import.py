"""Registering players from a CSV file (stdlib ``csv``): a preview with one verdict per
row, then the import, all or nothing.

The preview runs the very same writes (``player_create`` and ``entry_create``, each row
in its own savepoint) inside a transaction that is always rolled back, so it checks
exactly what the import will and writes nothing. Columns: ``name`` (required),
``chinese_name``, ``club``, ``external_id``, ``player_id``.  A row whose ``external_id``
names a known player registers that player (the player it was merged into, if merged); a
row that only looks like known players (``players_matching``: the same name or Chinese name)
is refused with those players offered, and the director chooses in ``player_id``: one of
their ids, or ``new`` for another person of that name."""

import csv
import io
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.errors import ApplicationError
from tournaments.common.validation import invalid
from tournaments.models import Player, Tournament
from tournaments.season.merge import player_resolve, players_matching
from tournaments.tournament.players import player_create
from tournaments.tournament.services import entry_create, entry_duplicate_check

COLUMNS = ("name", "chinese_name", "club", "external_id", "player_id")
#: The columns that describe a new player.
PLAYER_COLUMNS = ("name", "chinese_name", "club", "external_id")
#: ``player_id`` value that registers a new player despite likely matches.
NEW_PLAYER = "new"
MAX_ROWS = 2000
MAX_BYTES = 512 * 1024


@dataclass(frozen=True)
class ImportRow:
    line: int
    fields: dict[str, str]
    error: str = ""
    registration_order: int | None = None
    #: The known players a refused row is likely to be: ``(id, "name (club)")``.
    matches: tuple[tuple[int, str], ...] = ()


class _Rollback(Exception):
    """Ends the preview's transaction."""


def _rows(text: str) -> list[tuple[int, dict[str, str]]]:
    try:
        return _csv_rows(text)
    except csv.Error as exc:
        raise ApplicationError(
            "csv_malformed",
            _("The file is not readable CSV: %(error)s.") % {"error": exc},
        ) from exc


def _csv_rows(text: str) -> list[tuple[int, dict[str, str]]]:
    if not isinstance(text, str):
        raise invalid("text", _("must be text."))
    if len(text.encode()) > MAX_BYTES:
        raise ApplicationError("too_large", _("The file is too large."))
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if "name" not in header:
        raise ApplicationError(
            "csv_header", _("The first line must name the columns, with at least “name”.")
        )
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        raise ApplicationError(
            "csv_header", _("Unknown columns: %(columns)s.") % {"columns": ", ".join(unknown)}
        )
    reader.fieldnames = header
    rows: list[tuple[int, dict[str, str]]] = []
    for record in reader:
        if len(rows) >= MAX_ROWS:
            raise ApplicationError("too_large", _("Too many rows."))
        fields = {c: (record.get(c) or "").strip() for c in COLUMNS}
        if any(fields.values()):
            rows.append((reader.line_num, fields))
    if not rows:
        raise ApplicationError("csv_empty", _("The file has no players."))
    return rows


def _chosen(value: str) -> Player | None:
    if value.strip().lower() == NEW_PLAYER:
        return None
    player = Player.objects.filter(pk=int(value)).first() if value.strip().isdigit() else None
    if player is None:
        raise ApplicationError(
            "player_unknown",
            _("player_id must be a known player's id or “%(new)s”.") % {"new": NEW_PLAYER},
        )
    return player_resolve(player)


def _label(player: Player) -> str:
    return f"#{player.pk} {player}" + (f" ({player.club})" if player.club else "")


def _register(tournament: Tournament, fields: dict[str, str]) -> int:
    player = (
        Player.objects.filter(external_id=fields["external_id"]).first()
        if fields["external_id"]
        else None
    )
    if player is not None:
        player = player_resolve(player)
    elif fields["player_id"]:
        player = _chosen(fields["player_id"])
    else:
        entry_duplicate_check(tournament=tournament, name=fields["name"], club=fields["club"])
        likely = players_matching(name=fields["name"], chinese_name=fields["chinese_name"])
        if likely:
            raise ApplicationError(
                "player_likely_known",
                _(
                    "Likely already a player: %(players)s. Put that id in the player_id "
                    "column, or “%(new)s” for another person."
                )
                % {"players": "; ".join(_label(p) for p in likely), "new": NEW_PLAYER},
                extra={"matches": [(p.pk, _label(p)) for p in likely]},
            )
    if player is None:
        entry_duplicate_check(tournament=tournament, name=fields["name"], club=fields["club"])
        player = player_create(**{c: fields[c] for c in PLAYER_COLUMNS})
    return entry_create(tournament=tournament, player=player).registration_order


def _run(tournament: Tournament, text: str) -> list[ImportRow]:
    out = []
    for line, fields in _rows(text):
        try:
            with transaction.atomic():
                order = _register(tournament, fields)
            out.append(ImportRow(line=line, fields=fields, registration_order=order))
        except ApplicationError as exc:
            matches = tuple(tuple(m) for m in exc.extra.get("matches", []))  # type: ignore[attr-defined]
            out.append(ImportRow(line=line, fields=fields, error=exc.message, matches=matches))
    return out


def entries_import_preview(*, tournament: Tournament, text: str) -> list[ImportRow]:
    """What importing ``text`` would do, row by row; writes nothing."""
    result: list[ImportRow] = []
    try:
        with transaction.atomic():
            result = _run(tournament, text)
            raise _Rollback
    except _Rollback:
        pass
    return result


@transaction.atomic
def entries_import(*, tournament: Tournament, text: str) -> list[ImportRow]:
    """Register every row of ``text``, or none if any row is refused."""
    rows = _run(tournament, text)
    bad = [r for r in rows if r.error]
    if bad:
        transaction.set_rollback(True)
        raise ApplicationError(
            "csv_rows_refused",
            ngettext(
                "%(count)s row is refused; nothing was imported.",
                "%(count)s rows are refused; nothing was imported.",
                len(bad),
            )
            % {"count": len(bad)},
            extra={"rows": [{"line": r.line, "error": r.error} for r in bad]},
        )
    return rows
