"""A director's bad input in the admin is a form error or a message, never a 500, and a
refusal writes nothing.

Reproductions from the issue: autocomplete fields given a non-integer value were a 500, and
so was any trigger or unique-constraint error behind an admin save. Then a hypothesis fuzz
over every admin add and change form.
"""

from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.messages import ERROR
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories
from tests.tournaments.test_admin import _form_data, admin_url, demo
from tournaments.models import Entry, HandEvent, Player, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db
__all__ = ["demo"]  # the fixture, imported for this module's tests

MODEL_ADMINS = [model for model in admin.site._registry if model._meta.app_label == "tournaments"]


def row_counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in apps.get_app_config("tournaments").get_models()
    }


def error_messages(response: Any) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages if m.level == ERROR]


# --- autocomplete -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "1.5", "\x00", "99999999999999999999999", "-"])
def test_autocomplete_field_with_a_non_integer_value_in_the_query(
    director_client: Any, demo: None, value: str
) -> None:
    response = director_client.get(admin_url(Entry, "add"), {"player": value})
    assert response.status_code == 200


def test_autocomplete_field_with_a_non_integer_value_posted(
    director_client: Any, demo: None
) -> None:
    before = row_counts()
    tournament = Tournament.objects.get(slug="demo")
    response = director_client.post(
        admin_url(Entry, "add"),
        {"tournament": tournament.pk, "player": "abc", "registration_order": "20"},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["player"]
    assert row_counts() == before


def test_inline_autocomplete_field_with_a_non_integer_value_posted(
    director_client: Any, demo: None
) -> None:
    table = Table.objects.filter(round__tournament__slug="demo").order_by("number").first()
    assert table is not None
    url = admin_url(Table, "change", table.pk)
    data = _form_data(director_client.get(url))
    data["seats-0-entry"] = "abc"
    seats_before = list(Seat.objects.values_list("pk", "entry_id"))
    response = director_client.post(url, data)
    assert response.status_code == 200
    assert list(Seat.objects.values_list("pk", "entry_id")) == seats_before


# --- database refusals behind a save or a delete ------------------------------------------------


def test_moving_a_seated_table_is_refused_with_the_reason(director_client: Any, demo: None) -> None:
    """A table with seats cannot move to another round: the table service's check (and
    behind it a database trigger) refuses, the form shows why, nothing is written."""
    table = Table.objects.filter(round__tournament__slug="demo").order_by("number").first()
    assert table is not None
    other_round = factories.RoundFactory(tournament=table.round.tournament, number=2)
    url = admin_url(Table, "change", table.pk)
    data = {**_form_data(director_client.get(url)), "round": str(other_round.pk)}
    before = row_counts()

    response = director_client.post(url, data)

    assert response.status_code == 200
    assert "cannot move to another round" in response.content.decode()
    table.refresh_from_db()
    assert table.round_id != other_round.pk
    assert row_counts() == before


def test_a_unique_constraint_behind_a_save_is_a_message(director_client: Any, demo: None) -> None:
    """Two new seat rows for one entry: each row's check sees no seat yet, the database's
    one-seat-per-entry-per-round constraint refuses the second."""
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    entry = factories.EntryFactory(tournament=round_.tournament, registration_order=10)
    data = {
        "round": str(round_.pk),
        "number": "4",
        "seats-TOTAL_FORMS": "2",
        "seats-INITIAL_FORMS": "0",
        "seats-0-position": "0",
        "seats-0-entry": str(entry.pk),
        "seats-1-position": "1",
        "seats-1-entry": str(entry.pk),
        "hands-TOTAL_FORMS": "0",
        "hands-INITIAL_FORMS": "0",
    }
    before = row_counts()

    response = director_client.post(admin_url(Table, "add"), data)

    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert error_messages(response)
    assert row_counts() == before
    assert not Seat.objects.filter(entry=entry).exists()


def test_deleting_a_tournament_with_a_hand_log_is_a_message(
    director_client: Any, demo: None
) -> None:
    """Deleting would delete hand events, which the append-only trigger refuses."""
    tournament = Tournament.objects.get(slug="demo")
    before = row_counts()
    response = director_client.post(admin_url(Tournament, "delete", tournament.pk), {"post": "yes"})
    assert response.status_code in (200, 302)  # the admin's refusal page, or a message
    if response.status_code == 302:
        assert error_messages(response)
    assert row_counts() == before


def test_bulk_deleting_tournaments_with_a_hand_log_is_a_message(
    director_client: Any, demo: None
) -> None:
    tournament = Tournament.objects.get(slug="demo")
    before = row_counts()
    response = director_client.post(
        admin_url(Tournament, "changelist"),
        {"action": "delete_selected", "_selected_action": [tournament.pk], "post": "yes"},
    )
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert error_messages(response)
    assert row_counts() == before
    assert HandEvent.objects.exists()


# --- fuzz -------------------------------------------------------------------------------------

form_value = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=st.sampled_from("0123456789-.e\x00abc地"), max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["", "abc", "1.5", "-1", "0", "1e309", "nan", "\x00", "on", "x" * 300]),
)


class _Discard(Exception):
    """Raised at the end of an example to roll its writes back."""


def post_and_check(client: Any, url: str, data: dict[str, str]) -> None:
    """No 500; a form error or an error message leaves every table as it was."""
    try:
        with transaction.atomic():
            before = row_counts()
            response = client.post(url, data)
            assert response.status_code < 500, (url, data)
            refused = response.status_code == 200 or error_messages(response)
            if refused:
                assert row_counts() == before, (url, data)
            raise _Discard
    except _Discard:
        pass


FUZZ = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def pages(director_client: Any, demo: None) -> dict[str, Any]:
    """model -> [(url, initial POST data, field names)] for its add and change form, read once
    (hypothesis runs every example of a test inside one use of the fixtures)."""
    request = director_client.get("/").wsgi_request
    found: dict[str, Any] = {}
    for model in MODEL_ADMINS:
        model_admin = admin.site._registry[model]
        urls = []
        if model_admin.has_add_permission(request):
            urls.append(admin_url(model, "add"))
        instance = model.objects.order_by("pk").first()
        if instance is not None and model_admin.has_change_permission(request, instance):
            urls.append(admin_url(model, "change", instance.pk))
        found[model.__name__] = []
        for url in urls:
            response = director_client.get(url)
            names = sorted(
                set(_form_data(response)) | set(response.context["adminform"].form.fields)
            )
            found[model.__name__].append((url, _form_data(response), names))
    return found


@pytest.mark.parametrize("model", MODEL_ADMINS, ids=lambda m: m.__name__)
@FUZZ
@given(data=st.data())
def test_fuzz_admin_forms(
    director_client: Any, pages: dict[str, Any], model: Any, data: Any
) -> None:
    """Every add form and change form (main form and inline rows), fields given junk."""
    for url, initial, names in pages[model.__name__]:
        chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=4))
        junk = {name: data.draw(form_value) for name in chosen}
        post_and_check(director_client, url, {**initial, **junk})


def test_the_fuzz_reaches_forms_that_save(director_client: Any, demo: None) -> None:
    """Guard against a fuzz that only ever sees form errors: a valid post saves."""
    url = admin_url(Player, "add")
    before = Player.objects.count()
    response = director_client.post(url, {"name": "Sun Li", "chinese_name": "孙丽"})
    assert response.status_code == 302
    assert Player.objects.count() == before + 1
