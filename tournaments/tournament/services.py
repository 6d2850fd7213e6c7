"""Tournaments and their entries."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.rules.errors import UnknownProfile
from referee.rules.profiles import get_profile
from tournaments.common.errors import ApplicationError
from tournaments.common.limits import (
    HANDS_PER_ROUND_MAX,
    REGISTRATION_ORDER_MAX,
    ROUNDS_PLANNED_MAX,
    STAKE_CAP_MAX,
)
from tournaments.common.model_validation import model_validate
from tournaments.common.roles import user_is_director
from tournaments.common.validation import at_most_check, reason_check
from tournaments.hands.gate import results_gate_check, tournament_gate
from tournaments.hands.results import tournament_scores_changed
from tournaments.models import (
    ConfirmedBy,
    Entry,
    Player,
    RoundStatus,
    RuleProfileKey,
    Tournament,
    TournamentLogKind,
    TournamentStatus,
)
from tournaments.season.services import seasons_request
from tournaments.standings.ranking import TiebreakError, tiebreaks_check
from tournaments.tournament import selectors
from tournaments.tournament.log import tournament_log_append

#: The settings whose every change the tournament log keeps (old → new).
LOGGED_SETTINGS = (
    "name", "rule_profile", "format", "status", "hands_per_round", "rounds_planned",
    "is_public", "separate_clubs", "requires_confirmation", "confirmed_by", "tiebreaks",
    "stake_cap",
)  # fmt: skip


def _logged(value: Any) -> Any:
    return list(value) if isinstance(value, list | tuple) else value


def _check_tiebreaks(*, format: str, tiebreaks: list[str]) -> None:
    """Refuse a tie-break chain the format cannot rank by (SPEC R10.8.5)."""
    try:
        tiebreaks_check(format=format, tiebreaks=tiebreaks)
    except TiebreakError as exc:
        raise ApplicationError("invalid_tiebreaks", str(exc)) from exc


def _check_rule_profile(key: str) -> None:
    if key not in RuleProfileKey.values:
        raise ApplicationError(
            "unknown_rule_profile", _("Unknown rule profile %(key)r.") % {"key": key}
        )
    try:
        get_profile(key)
    except UnknownProfile as exc:
        raise ApplicationError("unknown_rule_profile", exc.message) from exc


def _check_stake_cap(*, rule_profile: str, stake_cap: Any) -> None:
    """A stake cap is a whole number 1 … ``STAKE_CAP_MAX``, of a game whose events set one
    (R13.9, R14.7); None: no cap."""
    if stake_cap is None:
        return
    if type(stake_cap) is not int or stake_cap < 1:
        raise ApplicationError(
            "invalid",
            _("The stake cap is a whole number of at least 1, or empty for no cap."),
            extra={"field": "stake_cap"},
        )
    at_most_check("stake_cap", stake_cap, maximum=STAKE_CAP_MAX)
    if not get_profile(rule_profile).cap_is_event_setting:
        raise ApplicationError(
            "stake_cap_not_in_rules",
            _(
                "The %(profile)s rules have no stake cap: only the five- and six-player games "
                "cap the multiplier (R13.9, R14.7)."
            )
            % {"profile": rule_profile},
            extra={"field": "stake_cap"},
        )


def tournament_settings_check(
    *, rule_profile: Any, format: Any, tiebreaks: Any, stake_cap: Any = None
) -> None:
    """The checks a tournament's settings pass wherever they come from (the director's
    forms, the admin, an archive import): a known rule profile, a stake cap its game has
    and a tie-break chain the format can rank by."""
    _check_rule_profile(rule_profile)
    _check_stake_cap(rule_profile=rule_profile, stake_cap=stake_cap)
    _check_tiebreaks(format=format, tiebreaks=tiebreaks)


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    rule_profile: str = RuleProfileKey.COMP2016,
    format: str = "table",
    hands_per_round: int = 6,
    rounds_planned: int = 0,
    is_public: bool = False,
    requires_confirmation: bool = False,
    confirmed_by: str = ConfirmedBy.OFFICIAL,
    separate_clubs: bool = False,
    tiebreaks: list[str] | None = None,
    stake_cap: int | None = None,
) -> Tournament:
    """A new tournament (a draft). ``stake_cap``: five and six players' cap on the
    multiplier (R13.9, R14.7); None or 0: no cap."""
    stake_cap = stake_cap or None
    tournament_settings_check(
        rule_profile=rule_profile, format=format, tiebreaks=tiebreaks or [], stake_cap=stake_cap
    )
    at_most_check("hands_per_round", hands_per_round, maximum=HANDS_PER_ROUND_MAX)
    at_most_check("rounds_planned", rounds_planned, maximum=ROUNDS_PLANNED_MAX)
    tournament = Tournament(
        name=name,
        slug=slug,
        rule_profile=rule_profile,
        format=format,
        hands_per_round=hands_per_round,
        rounds_planned=rounds_planned,
        is_public=is_public,
        requires_confirmation=requires_confirmation,
        confirmed_by=confirmed_by,
        separate_clubs=separate_clubs,
        tiebreaks=tiebreaks or [],
        stake_cap=stake_cap,
    )
    model_validate(tournament)
    tournament.save()
    return tournament


#: What a seated round was seated, scored and shown by: frozen from the first seating on
#: (issue 17: a format changed after seating re-ranked every player at rank 1).
FROZEN_ONCE_SEATED = (
    "rule_profile", "format", "hands_per_round", "requires_confirmation", "stake_cap",
)  # fmt: skip


def _check_status_change(locked: Tournament, status: str | None) -> None:
    """The finished status is the final standings' lock: it is set by publishing them and
    lifted by reopening them with a reason, never by a plain settings change."""
    if status is None or status == locked.status:
        return
    if TournamentStatus.FINISHED in (status, locked.status):
        raise ApplicationError(
            "final_by_publication",
            _(
                "Publish the final standings, or reopen them with a reason, from the "
                "standings screen."
            ),
        )


def _check_frozen_once_seated(
    locked: Tournament, wanted: dict[str, Any], *, tiebreaks: list[str] | None, reason: str
) -> None:
    """Refuse a change of a ``FROZEN_ONCE_SEATED`` setting (``wanted``: the new values of
    those given) once a round has been seated
    (``settings_frozen``), and a new tie-break chain then without a reason
    (``reason_required``)."""
    changing = [f for f, v in wanted.items() if v != getattr(locked, f)]
    new_chain = tiebreaks is not None and list(tiebreaks) != list(locked.tiebreaks)
    if not (changing or new_chain) or not selectors.tournament_has_seated_round(tournament=locked):
        return
    if changing:
        if "rule_profile" in changing and selectors.tournament_has_hands(tournament=locked):
            raise ApplicationError(
                "rule_profile_frozen",
                _("The rule profile cannot change once a hand has been recorded."),
            )
        raise ApplicationError(
            "settings_frozen",
            _(
                "A round has been seated: the format, the rule profile, the stake cap, the hands "
                "per round and the confirmation can no longer change (%(fields)s)."
            )
            % {"fields": ", ".join(changing)},
            extra={"fields": changing},
        )
    if not reason:
        raise ApplicationError(
            "reason_required",
            _("A round has been seated: give a reason for the new tie-break chain."),
        )


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str | None = None,
    rule_profile: str | None = None,
    format: str | None = None,
    status: str | None = None,
    hands_per_round: int | None = None,
    rounds_planned: int | None = None,
    is_public: bool | None = None,
    separate_clubs: bool | None = None,
    requires_confirmation: bool | None = None,
    confirmed_by: str | None = None,
    tiebreaks: list[str] | None = None,
    stake_cap: int | None = None,
    reason: str = "",
    recorded_by: Any = None,
) -> Tournament:
    """Change the given fields; each change is written to the tournament log (who, when,
    old → new, and the reason if given).  Once a round has been seated the format, the rule
    profile, the hands per round and the confirmation are frozen and the tie-break chain
    changes only with a reason; the status never enters or leaves "finished" here
    (``tournament_finish``, ``tournament_reopen``).  The rule profile is frozen once the
    tournament has a hand: the row is locked so a hand cannot be created concurrently
    (``hand_create`` takes the same lock).  A new format or tie-break chain reorders
    the standings: they are recomputed. ``stake_cap``: None leaves it, 0 removes it."""
    at_most_check("hands_per_round", hands_per_round, maximum=HANDS_PER_ROUND_MAX)
    at_most_check("rounds_planned", rounds_planned, maximum=ROUNDS_PLANNED_MAX)
    reason = reason_check(reason) if reason != "" else ""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {field: _logged(getattr(locked, field)) for field in LOGGED_SETTINGS}
    _check_status_change(locked, status)
    # None: unchanged (as every setting here); 0: no cap, stored as NULL. The frozen check
    # sees a removal as the change it is.
    new_cap = None if stake_cap is None else (stake_cap or None)
    _check_frozen_once_seated(
        locked,
        {
            field: value
            for field, value in (
                ("rule_profile", rule_profile),
                ("format", format),
                ("hands_per_round", hands_per_round),
                ("requires_confirmation", requires_confirmation),
            )
            if value is not None
        }
        | ({} if stake_cap is None else {"stake_cap": new_cap}),
        tiebreaks=tiebreaks,
        reason=reason,
    )
    if rule_profile is not None and rule_profile != locked.rule_profile:
        _check_rule_profile(rule_profile)
        if selectors.tournament_has_hands(tournament=locked):
            raise ApplicationError(
                "rule_profile_frozen",
                _("The rule profile cannot change once a hand has been recorded."),
            )
        locked.rule_profile = rule_profile
    changes = {
        "name": name,
        "format": format,
        "status": status,
        "hands_per_round": hands_per_round,
        "rounds_planned": rounds_planned,
        "is_public": is_public,
        "separate_clubs": separate_clubs,
        "requires_confirmation": requires_confirmation,
        "confirmed_by": confirmed_by,
        "tiebreaks": tiebreaks,
    }
    ranking_before = (locked.format, list(locked.tiebreaks))
    for field, value in changes.items():
        if value is not None:
            setattr(locked, field, value)
    if stake_cap is not None:
        locked.stake_cap = new_cap
    # A new profile keeps the cap only if its game has one: the director clears it first.
    _check_stake_cap(rule_profile=locked.rule_profile, stake_cap=locked.stake_cap)
    _check_tiebreaks(format=locked.format, tiebreaks=locked.tiebreaks)
    model_validate(locked)
    after = {field: _logged(getattr(locked, field)) for field in LOGGED_SETTINGS}
    changed = {f: [before[f], after[f]] for f in LOGGED_SETTINGS if before[f] != after[f]}
    if changed:
        # The log row comes first: the database lets a setting change only to what its
        # newest log row says (migration 0024).
        tournament_log_append(
            tournament_id=locked.pk,
            kind=TournamentLogKind.SETTINGS_CHANGED,
            reason=reason,
            changes=changed,
            recorded_by=recorded_by,
        )
    locked.save(update_fields=[*LOGGED_SETTINGS])
    if (locked.format, list(locked.tiebreaks)) != ranking_before:
        tournament_scores_changed(tournament_id=locked.pk)
        locked.refresh_from_db(fields=["log_version"])
    return locked


def entry_duplicate_check(*, tournament: Tournament, name: str, club: str) -> None:
    """Refuse a second registration of a player of the same name and club (ignoring case
    and surrounding spaces): the single-entry form and the CSV import alike."""
    name_key = (name or "").strip().casefold()
    club_key = (club or "").strip().casefold()
    for entry in Entry.objects.filter(tournament=tournament).select_related("player"):
        player = entry.player
        if (player.name.strip().casefold(), player.club.strip().casefold()) == (
            name_key,
            club_key,
        ):
            raise ApplicationError(
                "entry_duplicate",
                _("%(name)s (%(club)s) is already registered as #%(number)s.")
                % {
                    "name": player.name,
                    "club": player.club or "—",
                    "number": entry.registration_order,
                },
                extra={"registration_order": entry.registration_order},
            )


@transaction.atomic
def entry_create(
    *, tournament: Tournament, player: Player, registration_order: int | None = None
) -> Entry:
    """Register ``player``; the order defaults to the next free number.  Entries may
    come late, until the tournament has finished: they are seated from the next round."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status == TournamentStatus.FINISHED:
        raise ApplicationError("tournament_finished", _("The tournament has finished."))
    if registration_order is None:
        registration_order = selectors.entry_next_registration_order(tournament=tournament)
    at_most_check("registration_order", registration_order, maximum=REGISTRATION_ORDER_MAX)
    entry = Entry(tournament=tournament, player=player, registration_order=registration_order)
    model_validate(entry)
    entry.save()
    return entry


@transaction.atomic
def tournament_finish(*, tournament: Tournament, recorded_by: Any = None) -> Tournament:
    """Publish the final standings: every round closed, every hand counted or excluded
    (``results_incomplete`` lists those that are not), the standings stored at the
    current log version, the tournament finished and public, and its results locked
    (``tournament_scores_changed`` refuses every change with ``results_final`` until a
    director reopens them: ``tournament_reopen``).  Written to the tournament log."""
    from tournaments.standings.snapshots import standings_snapshot_update

    # FOR NO KEY UPDATE: a standings recompute running meanwhile holds the computation's
    # advisory lock and key-share locks this row (its snapshot rows reference it); a full
    # FOR UPDATE here, waiting next for that advisory lock, would deadlock with it.
    locked = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
    if locked.status == TournamentStatus.FINISHED:
        raise ApplicationError("tournament_finished", _("The tournament has finished."))
    open_rounds = [
        str(n)
        for n in locked.rounds.exclude(status=RoundStatus.CLOSED)
        .order_by("number")
        .values_list("number", flat=True)
    ]
    if open_rounds:
        raise ApplicationError(
            "rounds_open",
            _("Close every round first (open: %(rounds)s).") % {"rounds": ", ".join(open_rounds)},
        )
    if not locked.rounds.exists():
        raise ApplicationError("round_has_no_tables", _("The tournament has no rounds."))
    # Final means complete (issue 29): a result corrected after its round closed awaits
    # confirmation again, and is listed here until settled or excluded.
    results_gate_check(tournament_gate(tournament=locked))
    version = standings_snapshot_update(tournament_id=locked.pk)
    changes: dict[str, Any] = {
        "log_version": version,
        "status": [locked.status, TournamentStatus.FINISHED.value],
    }
    if not locked.is_public:
        changes["is_public"] = [False, True]
    tournament_log_append(
        tournament_id=locked.pk,
        kind=TournamentLogKind.FINAL_PUBLISHED,
        changes=changes,
        recorded_by=recorded_by,
    )
    locked.status = TournamentStatus.FINISHED
    locked.is_public = True
    locked.save(update_fields=["status", "is_public"])
    # The seasons counting it recompute their ladder after the commit (final, or final again).
    seasons_request(tournament_ids=[locked.pk])
    return locked


@transaction.atomic
def tournament_reopen(
    *, tournament: Tournament, reason: str, recorded_by: Any = None
) -> Tournament:
    """Unlock a finished tournament's results for a correction, with a reason, by a
    director.  The tournament runs again (its rounds stay closed: reopen the one to
    correct); publishing the final standings again shows them as "Final, revised <time>:
    <reason>" (``final_revision``)."""
    reason = reason_check(reason)
    if not user_is_director(recorded_by):
        raise ApplicationError(
            "director_required", _("Only a director can reopen the final results.")
        )
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status != TournamentStatus.FINISHED:
        raise ApplicationError(
            "results_not_final", _("The final standings have not been published.")
        )
    tournament_log_append(
        tournament_id=locked.pk,
        kind=TournamentLogKind.RESULTS_REOPENED,
        reason=reason,
        changes={"status": [TournamentStatus.FINISHED.value, TournamentStatus.RUNNING.value]},
        recorded_by=recorded_by,
    )
    locked.status = TournamentStatus.RUNNING
    locked.save(update_fields=["status"])
    return locked
