"""Every admin page of the tournaments app loads for a director."""

import io
from typing import Any

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import NoReverseMatch, reverse

from referee.rules.cards import deal_from_seed, format_cards
from tests import factories
from tournaments.director.selectors import seating_explanation_text
from tournaments.hands.write import hand_create
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Player,
    RefereeAssignment,
    Round,
    RoundLog,
    Seat,
    Table,
    Tournament,
)
from tournaments.rounds.services import round_start, table_hand_add

pytestmark = pytest.mark.django_db

MODEL_ADMINS = [model for model in admin.site._registry if model._meta.app_label == "tournaments"]


@pytest.fixture
def demo(db: Any) -> None:
    call_command("load_demo", allow_production=True, stdout=io.StringIO())


def admin_url(model: Any, view: str, *args: Any) -> str:
    meta = model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=args)


def test_every_tournaments_model_is_registered() -> None:
    names = {model.__name__ for model in MODEL_ADMINS}
    assert {"Tournament", "Player", "Board", "Hand", "Round", "Table", "Entry"} <= names


@pytest.mark.parametrize("model", MODEL_ADMINS, ids=lambda m: m.__name__)
def test_changelist_and_change_pages_load(director_client: Any, demo: None, model: Any) -> None:
    assert director_client.get(admin_url(model, "changelist")).status_code == 200
    instance = model.objects.first()
    if instance is not None:
        response = director_client.get(admin_url(model, "change", instance.pk))
        assert response.status_code == 200


@pytest.mark.parametrize("model", MODEL_ADMINS, ids=lambda m: m.__name__)
def test_add_pages_load(director_client: Any, demo: None, model: Any) -> None:
    model_admin = admin.site._registry[model]
    request = director_client.get("/").wsgi_request
    expected = 200 if model_admin.has_add_permission(request) else 403
    assert director_client.get(admin_url(model, "add")).status_code == expected


def test_admin_index_and_player_search(director_client: Any, demo: None) -> None:
    assert director_client.get(reverse("admin:index")).status_code == 200
    response = director_client.get(admin_url(Player, "changelist"), {"q": "张伟"})
    assert response.status_code == 200
    assert "张伟" in response.content.decode()


def test_hand_event_log_is_read_only(director_client: Any, demo: None) -> None:
    hand = Hand.objects.filter(status="finished", events__kind="result").first()
    assert hand is not None
    response = director_client.get(admin_url(Hand, "change", hand.pk))
    inline = next(f for f in response.context["inline_admin_formsets"] if f.opts.model is HandEvent)
    assert not inline.has_add_permission
    assert not inline.has_change_permission
    assert not inline.has_delete_permission
    assert "result" in response.content.decode()


def test_rule_profile_change_is_refused_once_hands_exist(director_client: Any, demo: None) -> None:
    tournament = Tournament.objects.get(slug="demo")
    url = admin_url(Tournament, "change", tournament.pk)
    page = director_client.get(url)
    data = {
        **{k: v for k, v in _form_data(page).items()},
        "rule_profile": "classic",
    }
    response = director_client.post(url, data)
    assert response.status_code == 200  # form re-displayed with the error
    assert response.context["adminform"].form.errors["rule_profile"]
    assert Tournament.objects.get(pk=tournament.pk).rule_profile == "comp2016"


def test_seat_inline_refuses_a_second_seat_in_the_round(director_client: Any, demo: None) -> None:
    table = Table.objects.filter(round__tournament__slug="demo").order_by("number")[0]
    seat = Seat.objects.get(table=table, position=0)
    other = factories.TableFactory(round=table.round, number=99)  # no hands: seats not frozen
    response = _post_new_seat(director_client, other, position=2, entry_id=seat.entry_id)
    assert response.status_code == 200
    assert "already has a seat in this round" in response.content.decode()


def _table_without_hands(table: Table) -> Table:
    """A new table of ``table``'s round, seats 0 and 1 taken and no hands: the seats of a
    table with hands are frozen (in the database too), so the inline's own checks are
    shown on this one."""
    other = factories.TableFactory(round=table.round, number=99)
    for position in (0, 1):
        entry = factories.EntryFactory(
            tournament=table.round.tournament, registration_order=900 + position
        )
        factories.SeatFactory(table=other, position=position, entry=entry)
    return other


def _post_new_seat(client: Any, table: Table, *, position: int, entry_id: int) -> Any:
    """POST the table's admin change page with one more seat row."""
    url = admin_url(Table, "change", table.pk)
    data = _form_data(client.get(url))
    new = int(data["seats-TOTAL_FORMS"])
    data.update(
        {
            "seats-TOTAL_FORMS": str(new + 1),
            f"seats-{new}-position": str(position),
            f"seats-{new}-entry": str(entry_id),
            f"seats-{new}-table": str(table.pk),
        }
    )
    return client.post(url, data)


def _form_data(response: Any) -> dict[str, str]:
    """Initial POST data of an admin change page (main form and inline formsets)."""
    data: dict[str, str] = {}
    context = response.context
    form = context["adminform"].form
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = str(value)
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[f"{formset.prefix}-{name}"] = str(management.initial.get(name, ""))
        for inline_form in formset.forms:
            for name, field in inline_form.fields.items():
                value = inline_form.initial.get(name, field.initial)
                key = f"{inline_form.prefix}-{name}"
                if value is None or (isinstance(value, bool) and not value):
                    continue
                data[key] = "on" if value is True else str(getattr(value, "pk", value))
    return data


def test_adding_a_hand_goes_through_the_service(
    director_client: Any, director: Any, demo: None
) -> None:
    # Table 2 has played the round's two hands: a director allows one more first.
    table = Table.objects.get(round__tournament__slug="demo", number=2)
    board = table.round.tournament.boards.get(number=3)
    add = {"table": table.pk, "number": 7, "board": board.pk}
    refused = director_client.post(admin_url(Hand, "add"), add, follow=True)
    assert "played the round&#x27;s 2 hands" in refused.content.decode()
    assert not Hand.objects.filter(table=table, number=7).exists()
    table_hand_add(table=table, reason="replay of a misdealt board", recorded_by=director)
    response = director_client.post(admin_url(Hand, "add"), add)
    assert response.status_code == 302
    hand = Hand.objects.get(table=table, number=7)
    assert (hand.rule_profile, hand.status, hand.version) == ("comp2016", "bidding", 0)


def test_adding_a_hand_while_one_is_live_is_refused(director_client: Any, demo: None) -> None:
    table = Table.objects.get(round__tournament__slug="demo", number=3)  # hand 2 is live
    board = table.round.tournament.boards.get(number=3)
    response = director_client.post(
        admin_url(Hand, "add"), {"table": table.pk, "number": 7, "board": board.pk}, follow=True
    )
    assert "is playing hand 2" in response.content.decode()
    assert not Hand.objects.filter(table=table, number=7).exists()


def test_adding_a_hand_with_a_foreign_board_is_a_form_error(
    director_client: Any, demo: None
) -> None:
    table = Table.objects.get(round__tournament__slug="demo", number=3)
    foreign = factories.BoardFactory()
    response = director_client.post(
        admin_url(Hand, "add"), {"table": table.pk, "number": 8, "board": foreign.pk}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["board"]
    assert not Hand.objects.filter(table=table, number=8).exists()


# --- directors are staff users; what the admin lets them do ---------------------------


def test_a_director_needs_no_model_permissions(director_client: Any, director: Any) -> None:
    assert not director.is_superuser and not director.user_permissions.exists()
    index = director_client.get(reverse("admin:index")).content.decode()
    assert admin_url(Tournament, "changelist") in index


def test_a_referee_account_gets_no_admin(client: Any, referee: Any) -> None:
    client.force_login(referee)
    response = client.get(admin_url(Tournament, "changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_hand_events_cannot_be_edited_or_deleted(director_client: Any, demo: None) -> None:
    hand = Hand.objects.filter(status="finished", events__kind="result").first()
    assert hand is not None
    event = hand.events.get()
    before = (event.kind, event.payload)
    with pytest.raises(NoReverseMatch):  # no admin page of their own
        admin_url(HandEvent, "changelist")
    edit = {
        "events-TOTAL_FORMS": "1",
        "events-INITIAL_FORMS": "1",
        "events-0-id": str(event.pk),
        "events-0-hand": str(hand.pk),
        "events-0-kind": "note",
        "events-0-payload": "{}",
        "events-0-DELETE": "on",
    }
    assert director_client.post(admin_url(Hand, "change", hand.pk), edit).status_code == 403
    assert (
        director_client.post(admin_url(Hand, "delete", hand.pk), {"post": "yes"}).status_code == 403
    )
    bulk = {"action": "delete_selected", "_selected_action": [hand.pk], "post": "yes"}
    director_client.post(admin_url(Hand, "changelist"), bulk)  # refused: protected events
    event = HandEvent.objects.get(pk=event.pk)
    assert (event.kind, event.payload) == before


def test_adding_a_board_deals_it_from_its_seed(director_client: Any, demo: None) -> None:
    tournament = Tournament.objects.get(slug="demo")
    response = director_client.post(
        admin_url(Board, "add"), {"tournament": tournament.pk, "number": 9, "seed": 42}
    )
    assert response.status_code == 302
    board = Board.objects.get(tournament=tournament, number=9)
    deal = deal_from_seed(42)
    assert board.seat_cards == [format_cards(cards) for cards in deal.hands]
    assert board.kitty == format_cards(deal.kitty)
    assert board.first_bidder == deal.first_bidder
    assert director_client.post(admin_url(Board, "change", board.pk), {}).status_code == 403


def test_a_board_with_a_negative_seed_is_a_form_error(director_client: Any, demo: None) -> None:
    tournament = Tournament.objects.get(slug="demo")
    response = director_client.post(
        admin_url(Board, "add"), {"tournament": tournament.pk, "number": 9, "seed": -1}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors
    assert not Board.objects.filter(tournament=tournament, number=9).exists()


def test_seat_inline_refuses_an_entry_of_another_tournament(
    director_client: Any, demo: None
) -> None:
    table = _table_without_hands(Table.objects.get(round__tournament__slug="demo", number=1))
    foreign = factories.EntryFactory()
    page = director_client.get(admin_url(Table, "change", table.pk))
    offered = page.context["inline_admin_formsets"][0].formset.forms[0].fields["entry"].queryset
    assert foreign not in offered  # choices are the table's tournament's entries
    response = _post_new_seat(director_client, table, position=2, entry_id=foreign.pk)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Seat.objects.filter(entry=foreign).exists()


def test_a_new_table_can_be_added_with_its_seats(director_client: Any, demo: None) -> None:
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    entry = factories.EntryFactory(tournament=round_.tournament, registration_order=10)
    data = {
        "round": str(round_.pk),
        "number": "4",
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "0",
        "seats-0-position": "0",
        "seats-0-entry": str(entry.pk),
        "hands-TOTAL_FORMS": "0",
        "hands-INITIAL_FORMS": "0",
    }
    response = director_client.post(admin_url(Table, "add"), data)
    assert response.status_code == 302
    seat = Seat.objects.get(entry=entry)
    assert (seat.table.number, seat.round_id) == (4, round_.pk)


def test_referee_assignment_offers_plain_referee_accounts_only(
    director_client: Any, demo: None
) -> None:
    factories.UserFactory(username="just-a-player")
    response = director_client.get(admin_url(RefereeAssignment, "add"))
    offered = set(
        response.context["adminform"]
        .form.fields["user"]
        .queryset.values_list("username", flat=True)
    )
    assert "referee" in offered
    assert not {"just-a-player", "director"} & offered  # directors: tests/security


def test_referee_assignment_refuses_a_table_of_another_round(
    director_client: Any, demo: None
) -> None:
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    referee = RefereeAssignment.objects.get(round=round_).user
    other_table = factories.TableFactory()
    response = director_client.post(
        admin_url(RefereeAssignment, "add"),
        {"round": round_.pk, "table": other_table.pk, "user": referee.pk},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["table"]


# --- the two 500s of issue 8, now refusals with a message ------------------------------


def test_moving_a_seated_table_to_another_round_is_refused_with_a_message(
    director_client: Any, demo: None
) -> None:
    table = Table.objects.get(round__tournament__slug="demo", number=1)
    other = factories.RoundFactory(tournament=table.round.tournament, number=2)
    url = admin_url(Table, "change", table.pk)
    data = {**_form_data(director_client.get(url)), "round": str(other.pk)}
    response = director_client.post(url, data)
    assert response.status_code == 200
    assert "cannot move to another round" in str(response.context["adminform"].form.errors)
    assert Table.objects.get(pk=table.pk).round_id != other.pk


def test_swapping_two_seats_positions_goes_through_the_override(
    director_client: Any, demo: None
) -> None:
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    table = factories.TableFactory(round=round_, number=9)
    entries = [
        factories.EntryFactory(tournament=round_.tournament, registration_order=20 + i)
        for i in range(3)
    ]
    for position, entry in enumerate(entries):
        factories.SeatFactory(table=table, position=position, entry=entry)
    url = admin_url(Table, "change", table.pk)
    data = _form_data(director_client.get(url))
    first, second = (
        next(
            k
            for k, v in data.items()
            if k.startswith("seats-") and k.endswith("-position") and v == p
        )
        for p in ("0", "1")
    )
    data[first], data[second] = "1", "0"
    refused = director_client.post(url, data)  # no reason given
    assert refused.status_code == 200
    assert "Give a reason" in refused.content.decode()
    data[first.replace("-position", "-reason")] = "players sat in each other's chairs"
    response = director_client.post(url, data)
    assert response.status_code == 302
    after = dict(Seat.objects.filter(table=table).values_list("position", "entry_id"))
    assert after == {0: entries[1].pk, 1: entries[0].pk, 2: entries[2].pk}
    log = RoundLog.objects.get(round=round_, kind="seat_override")
    assert log.reason == "players sat in each other's chairs"


def test_changing_a_seat_after_hands_is_a_correction_with_an_event(
    director_client: Any, demo: None
) -> None:
    table = Table.objects.get(round__tournament__slug="demo", number=1)
    newcomer = factories.EntryFactory(tournament=table.round.tournament, registration_order=30)
    seat = Seat.objects.get(table=table, position=0)
    url = admin_url(Table, "change", table.pk)
    data = _form_data(director_client.get(url))
    key = next(k for k, v in data.items() if k.endswith("-entry") and v == str(seat.entry_id))
    data[key] = str(newcomer.pk)
    data[key.replace("-entry", "-reason")] = "wrong player on the score sheet"
    response = director_client.post(url, data)
    assert response.status_code == 302
    finished = Hand.objects.filter(table=table, status="finished")
    assert finished.exists()
    for hand in finished:
        assert hand.events.filter(kind="seat_correction").exists()
        assert hand.seat_results.get(position=0).entry_id == newcomer.pk


# --- rounds and entries through the services' actions ----------------------------------


def _new_round(count: int = 4) -> Round:
    tournament = factories.TournamentFactory()
    for order in range(1, count + 1):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    return Round.objects.create(tournament=tournament, number=1)


def _action(client: Any, action: str, round_: Round, **data: Any) -> Any:
    payload = {"action": action, "_selected_action": [round_.pk], **data}
    return client.post(admin_url(Round, "changelist"), payload, follow=True)


def test_seating_a_round_shows_a_preview_then_writes_it(director_client: Any) -> None:
    round_ = _new_round()
    preview = director_client.post(
        admin_url(Round, "changelist"),
        {"action": "seat_action", "_selected_action": [round_.pk]},
    )
    assert preview.status_code == 200
    assert "Table 1:" in preview.content.decode()
    assert not Seat.objects.filter(round=round_).exists()  # nothing written yet
    seed = preview.context["preview"].seed
    _action(director_client, "seat_action", round_, seed=seed, confirm="yes")
    round_.refresh_from_db()
    assert (round_.status, round_.seed) == ("seated", seed)
    assert Seat.objects.filter(round=round_).count() == 3
    assert seating_explanation_text(round=round_) == preview.context["preview"].explanation


def test_round_actions_show_the_services_refusals(director_client: Any) -> None:
    round_ = _new_round()
    response = _action(director_client, "start_action", round_)
    assert response.status_code == 200
    assert "Only a seated round can start" in response.content.decode()
    _action(director_client, "seat_action", round_, seed=1, confirm="yes")
    _action(director_client, "start_action", round_)
    hand_create(table=Table.objects.get(round=round_))
    refused = _action(director_client, "close_action", round_, confirm="yes")
    assert "results are missing: round 1, table 1, hand 1" in refused.content.decode()
    assert Round.objects.get(pk=round_.pk).status == "playing"
    _action(director_client, "close_action", round_, confirm="yes", force="on", reason="time up")
    assert Round.objects.get(pk=round_.pk).status == "closed"
    _action(director_client, "reopen_action", round_, confirm="yes", reason="late result")
    assert Round.objects.get(pk=round_.pk).status == "playing"


def test_a_round_status_is_not_edited_by_hand(director_client: Any) -> None:
    round_ = _new_round()
    url = admin_url(Round, "change", round_.pk)
    data = {**_form_data(director_client.get(url)), "status": "closed"}
    director_client.post(url, data)
    assert Round.objects.get(pk=round_.pk).status == "draft"


def test_withdrawing_an_entry_goes_through_the_service(director_client: Any) -> None:
    round_ = _new_round(3)
    _action(director_client, "seat_action", round_, seed=1, confirm="yes")
    entry = Seat.objects.filter(round=round_).first().entry  # type: ignore[union-attr]
    payload = {"action": "withdraw_action", "_selected_action": [entry.pk]}
    refused = director_client.post(admin_url(Entry, "changelist"), payload, follow=True)
    assert "has not started" in refused.content.decode()
    assert not Entry.objects.get(pk=entry.pk).withdrawn
    round_start(round=round_)
    director_client.post(admin_url(Entry, "changelist"), payload, follow=True)
    assert Entry.objects.get(pk=entry.pk).withdrawn


def test_adding_a_round_to_a_finished_tournament_is_a_form_error(director_client: Any) -> None:
    tournament = factories.TournamentFactory(status="finished")
    response = director_client.post(
        admin_url(Round, "add"), {"tournament": tournament.pk, "number": 1}
    )
    assert response.status_code == 200
    assert "The tournament has finished." in response.content.decode()
    assert not Round.objects.filter(tournament=tournament).exists()


def test_adding_a_table_goes_through_the_service(director_client: Any) -> None:
    round_ = _new_round()
    data = {
        "round": str(round_.pk),
        "number": "1",
        "seats-TOTAL_FORMS": "0",
        "seats-INITIAL_FORMS": "0",
        "hands-TOTAL_FORMS": "0",
        "hands-INITIAL_FORMS": "0",
    }
    assert director_client.post(admin_url(Table, "add"), data).status_code == 302
    assert Table.objects.filter(round=round_, number=1).exists()


def test_a_refused_move_with_a_seat_change_in_the_same_post_is_no_500(
    director_client: Any, demo: None
) -> None:
    table = Table.objects.get(round__tournament__slug="demo", number=1)
    other = factories.RoundFactory(tournament=table.round.tournament, number=2)
    newcomer = factories.EntryFactory(tournament=table.round.tournament, registration_order=31)
    url = admin_url(Table, "change", table.pk)
    data = {**_form_data(director_client.get(url)), "round": str(other.pk)}
    key = next(k for k in data if k.startswith("seats-0-entry"))
    data[key] = str(newcomer.pk)
    data["seats-0-reason"] = "wrong player"
    response = director_client.post(url, data)
    assert response.status_code == 200
    assert not Seat.objects.filter(entry=newcomer).exists()


def test_a_duplicate_hand_added_without_a_board_plays_the_rounds_board(
    director_client: Any,
) -> None:
    tournament = factories.TournamentFactory(format="duplicate", hands_per_round=2)
    for order in range(1, 4):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    round_ = Round.objects.create(tournament=tournament, number=1)
    _action(director_client, "seat_action", round_, seed=4, confirm="yes")
    table = Table.objects.get(round=round_)
    response = director_client.post(admin_url(Hand, "add"), {"table": table.pk, "number": 2})
    assert response.status_code == 302
    hand = Hand.objects.get(table=table, number=2)
    assert hand.board is not None and hand.board.number == 2


def test_frozen_fields_are_read_only_and_say_why(director_client: Any, demo: None) -> None:
    hand = Hand.objects.filter(status="finished").first()
    assert hand is not None
    page = director_client.get(admin_url(Hand, "change", hand.pk))
    fields = page.context["adminform"].form.fields
    assert "scores" not in fields and "doubled" not in fields  # shown, not editable
    assert "only with a new event" in page.content.decode()
    table = director_client.get(admin_url(Table, "change", hand.table_id)).content.decode()
    assert "seats are frozen" in table
    round_page = director_client.get(admin_url(Round, "change", hand.table.round_id))
    assert "refuses moving a round that has hands" in round_page.content.decode()
