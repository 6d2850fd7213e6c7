"""Issue 16, point 5: who did what, when and why.  Revoking a penalty, withdrawing and
reinstating an entry and every settings change made from /director/ land in the tournament
log (old → new), shown as the tournament page's history."""

from typing import Any

import pytest
from django.test import Client

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.models import Entry, Tournament, TournamentLog, TournamentLogKind
from tournaments.tournament.withdrawals import entry_reinstate, entry_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament() -> Tournament:
    tournament = factories.TournamentFactory(slug="hist", name="Saturday", hands_per_round=6)
    for _ in range(3):
        factories.EntryFactory(tournament=tournament)
    return tournament


def _settings(tournament: Tournament, **changes: Any) -> dict[str, Any]:
    data = {
        "name": tournament.name,
        "slug": tournament.slug,
        "rule_profile": tournament.rule_profile,
        "format": tournament.format,
        "hands_per_round": tournament.hands_per_round,
        "tiebreaks": "",
    }
    for flag in ("is_public", "requires_confirmation", "separate_clubs"):
        if getattr(tournament, flag):
            data[flag] = "on"
    return {**data, **changes}


def test_a_settings_change_is_logged_old_to_new_and_shown(
    director_client: Any, director: Any, tournament: Tournament
) -> None:
    url = f"/director/t/{tournament.slug}/"
    response = director_client.post(
        url,
        _settings(
            tournament, hands_per_round=4, tiebreaks="registration", change_reason="short day"
        ),
    )
    assert response.status_code == 302
    log = TournamentLog.objects.get(tournament=tournament)
    assert (log.kind, log.recorded_by, log.reason) == (
        TournamentLogKind.SETTINGS_CHANGED,
        director,
        "short day",
    )
    assert log.changes == {"hands_per_round": [6, 4], "tiebreaks": [[], ["registration"]]}
    assert log.recorded_at is not None
    page = director_client.get(url).content.decode()
    assert "director-test" in page and "short day" in page
    assert '<span data-field="hands_per_round">hands per round: 6 → 4</span>' in page
    assert "tie-break chain: — → Registration" in page  # the criteria by their titles
    # Saving unchanged settings logs nothing.
    director_client.post(
        url, _settings(Tournament.objects.get(pk=tournament.pk), tiebreaks="registration")
    )
    assert TournamentLog.objects.filter(tournament=tournament).count() == 1


def test_withdraw_and_reinstate_record_who_when_and_why(
    director_client: Any, director: Any, tournament: Tournament
) -> None:
    entry = tournament.entries.first()
    assert entry is not None
    base = f"/director/t/{tournament.slug}/entries/{entry.pk}"
    director_client.post(f"{base}/withdraw/", {"reason": "", "confirm": "on"})  # a reason
    assert not Entry.objects.get(pk=entry.pk).withdrawn
    refused = director_client.post(f"{base}/withdraw/", {"reason": "ill"}, follow=True)
    assert "confirmation_required" in [m.extra_tags for m in refused.context["messages"]]
    assert not Entry.objects.get(pk=entry.pk).withdrawn  # the confirmation step
    director_client.post(f"{base}/withdraw/", {"reason": "ill", "confirm": "on"})
    assert Entry.objects.get(pk=entry.pk).withdrawn
    director_client.post(f"{base}/reinstate/", {"reason": "", "confirm": "on"})
    assert Entry.objects.get(pk=entry.pk).withdrawn
    director_client.post(f"{base}/reinstate/", {"reason": "recovered"})
    assert Entry.objects.get(pk=entry.pk).withdrawn
    director_client.post(f"{base}/reinstate/", {"reason": "recovered", "confirm": "on"})
    assert not Entry.objects.get(pk=entry.pk).withdrawn
    rows = list(
        TournamentLog.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("kind", "entry_id", "reason", "recorded_by")
    )
    assert rows == [
        (TournamentLogKind.ENTRY_WITHDRAWN, entry.pk, "ill", director.pk),
        (TournamentLogKind.ENTRY_REINSTATED, entry.pk, "recovered", director.pk),
    ]
    page = director_client.get(f"/director/t/{tournament.slug}/").content.decode()
    assert "recovered" in page and str(entry.player) in page


def test_reinstate_refuses_an_active_entry_and_a_finished_tournament(
    tournament: Tournament, director: Any
) -> None:
    entry = tournament.entries.first()
    assert entry is not None
    with pytest.raises(ApplicationError) as excinfo:
        entry_reinstate(entry=entry, reason="why not", recorded_by=director)
    assert excinfo.value.code == "entry_not_withdrawn"
    entry_withdraw(entry=entry, reason="ill", recorded_by=director)
    factories.tournament_set(tournament.pk, status="finished")
    with pytest.raises(ApplicationError) as excinfo:
        entry_reinstate(entry=entry, reason="recovered", recorded_by=director)
    assert excinfo.value.code == "tournament_finished"
    assert Entry.objects.get(pk=entry.pk).withdrawn
    assert TournamentLog.objects.filter(kind=TournamentLogKind.ENTRY_REINSTATED).count() == 0


def test_only_directors_reinstate(client: Any, referee: Any, tournament: Tournament) -> None:
    entry = tournament.entries.first()
    assert entry is not None
    entry_withdraw(entry=entry, reason="ill")
    url = f"/director/t/{tournament.slug}/entries/{entry.pk}/reinstate/"
    for user in (None, referee):
        if user is not None:
            client.force_login(user)
        assert client.post(url, {"reason": "sneaky"}).status_code == 302  # to the login page
        assert Entry.objects.get(pk=entry.pk).withdrawn
    assert not TournamentLog.objects.filter(kind=TournamentLogKind.ENTRY_REINSTATED).exists()


def test_a_director_revokes_a_penalty_from_the_hand_page_with_a_reason(
    director_client: Any, director: Any, referee: Any
) -> None:
    from tournaments.hands.write import hand_create
    from tournaments.models import Penalty
    from tournaments.tournament.penalties import penalty_create

    table = factories.seated_table(slug="revoke")
    hand = hand_create(table=table).hand
    entry = table.seats.get(position=0).entry
    penalty = penalty_create(entry=entry, points=-3, reason="slow play", hand=hand)
    url = f"/director/t/revoke/hands/{hand.pk}/revoke/"
    # Anonymous and a referee are sent to sign in; nothing changes.
    client = Client()
    assert client.post(url, {"penalty": penalty.pk, "reason": "x"}).status_code == 302
    client.force_login(referee)
    assert client.post(url, {"penalty": penalty.pk, "reason": "x"}).status_code == 302
    assert Penalty.objects.get(pk=penalty.pk).revoked_at is None
    # No reason: refused; an unknown or absurd id: 404.
    director_client.post(url, {"penalty": penalty.pk, "reason": ""})
    assert Penalty.objects.get(pk=penalty.pk).revoked_at is None
    assert director_client.post(url, {"penalty": 10**30, "reason": "x"}).status_code == 404
    assert director_client.post(url, {"penalty": "x", "reason": "x"}).status_code == 404
    director_client.post(url, {"penalty": penalty.pk, "reason": "appeal upheld"})
    assert Penalty.objects.get(pk=penalty.pk).revoked_at is None  # not confirmed
    director_client.post(url, {"penalty": penalty.pk, "reason": "appeal upheld", "confirm": "on"})
    stored = Penalty.objects.get(pk=penalty.pk)
    assert (stored.revoked_by, stored.revoke_reason) == (director, "appeal upheld")
    page = director_client.get(f"/director/t/revoke/hands/{hand.pk}/").content.decode()
    assert "appeal upheld" in page and "director-test" in page
    history = director_client.get("/director/t/revoke/").content.decode()
    assert "appeal upheld" in history
