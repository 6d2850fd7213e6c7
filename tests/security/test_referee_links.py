"""Issue 16, point 1: a director (staff, not superuser) must never obtain a sign-in link for,
or assign, an account with more rights than a referee.

Reproduction from the issue: signed in as the demo director, POST the round page's referee
form with a superuser's name; the page showed a one-time link for that superuser, and
opening it in a fresh browser signed in as the superuser.

Every route by which a director can make or obtain a link or an assignment is walked over
HTTP with a staff, a superuser and a permission-holding target: refused with a code and a
message, nothing written, nobody signed in.
"""

import io
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments.common.roles import REFEREE_GROUP
from tournaments.models import RefereeAssignment, Round, Table
from tournaments.rounds.login_links import _tokens, link_path

pytestmark = pytest.mark.django_db

PASSWORD = "a long director passphrase 7"
ROUND_PAGE = "/director/t/demo/rounds/1/"
ASSIGN = "/director/t/demo/rounds/1/referee/"
LINK_PAGE = "/referee/link/"


@pytest.fixture
def demo(db: Any) -> None:
    call_command("load_demo", allow_production=True, stdout=io.StringIO())


@pytest.fixture
def director_client(demo: None) -> Client:
    """The demo director (staff, no permissions, not a superuser), signed in by password."""
    director = get_user_model().objects.get(username="director")
    assert director.is_staff and not director.is_superuser
    director.set_password(PASSWORD)
    director.save()
    client = Client()
    response = client.post(
        "/admin/login/?next=/director/",
        {"username": "director", "password": PASSWORD, "next": "/director/"},
    )
    assert response.status_code == 302
    return client


def _referee_group() -> Group:
    return Group.objects.get_or_create(name=REFEREE_GROUP)[0]


def _superuser() -> Any:
    user = factories.UserFactory(username="root", is_staff=True, is_superuser=True)
    user.groups.add(_referee_group())  # even in the referee group
    return user


def _superuser_not_staff() -> Any:
    return factories.UserFactory(username="root-off-staff", is_superuser=True)


def _staff() -> Any:
    user = factories.UserFactory(username="other-director", is_staff=True)
    user.groups.add(_referee_group())
    return user


def _permission_holder() -> Any:
    """A referee-group account that also holds a permission (through another group)."""
    user = factories.UserFactory(username="ref-with-perms")
    keepers = Group.objects.create(name="user keepers")
    keepers.permissions.add(Permission.objects.get(codename="change_user"))
    user.groups.add(_referee_group(), keepers)
    return user


TARGETS = {
    "superuser": (_superuser, "privileged_account"),
    "superuser-not-staff": (_superuser_not_staff, "privileged_account"),
    "staff": (_staff, "privileged_account"),
    "permission-holder": (_permission_holder, "privileged_account"),
}


@pytest.fixture(params=sorted(TARGETS))
def target(request: Any, demo: None) -> tuple[Any, str]:
    make, code = TARGETS[request.param]
    return make(), code


def _state(user: Any) -> tuple[Any, ...]:
    """What a refusal must leave unchanged."""
    user.refresh_from_db()
    return (
        RefereeAssignment.objects.count(),
        sorted(RefereeAssignment.objects.values_list("round_id", "table_id", "user_id")),
        get_user_model().objects.count(),
        sorted(user.groups.values_list("name", flat=True)),
        user.is_staff,
        user.is_superuser,
        user.last_login,
    )


def _links(html: str) -> dict[str, str]:
    """The round page's sign-in links, by referee name."""
    rows = re.findall(
        r'<tr data-referee="([^"]+)">.*?(?:href="([^"]*/referee/link/#[^"]*)"|</tr>)', html, re.S
    )
    return {name: href for name, href in rows if href}


def _messages(response: Any) -> list[tuple[str, str]]:
    return [(m.tags, str(m)) for m in response.context["messages"]]


def _signed_in_as(client: Client) -> str | None:
    response = client.get("/api/v1/me/")
    return response.json()["username"] if response.status_code == 200 else None


# --- the way it should work: a plain referee's link ------------------------------------


def test_a_plain_referees_link_from_the_round_page_signs_in_only_after_a_post(
    director_client: Client,
) -> None:
    response = director_client.post(ASSIGN, {"username": "new-ref", "table": ""}, follow=True)
    assert ("success", "Referee assigned.") in _messages(response)
    link = _links(response.content.decode())["new-ref"]
    path, _hash, code = link.partition("#")
    assert path.endswith(LINK_PAGE) and "." in code
    phone = Client()
    page = phone.get(path)  # what a link preview, or the phone, fetches: no code in it
    assert page.status_code == 200 and _signed_in_as(phone) is None
    assert phone.post(LINK_PAGE, {"code": code}).status_code == 302
    assert _signed_in_as(phone) == "new-ref"
    assert phone.get("/admin/auth/user/add/").status_code != 200


def test_the_qr_code_encodes_the_same_link(director_client: Client) -> None:
    import segno

    response = director_client.get(ROUND_PAGE)
    assert "no-store" in response["Cache-Control"]  # live links: in no cache
    html = response.content.decode()
    link = _links(html)["referee"]
    qr = segno.make(link, error="m").svg_inline(scale=3)
    assert qr in html


# --- the escalation walk: every route, every privileged target -------------------------


def test_round_page_referee_form_refuses_a_privileged_account(
    director_client: Client, target: tuple[Any, str]
) -> None:
    user, code = target
    before = _state(user)
    table = Table.objects.filter(round__tournament__slug="demo", round__number=1).first()
    for table_id in ("", str(table.pk)):
        response = director_client.post(
            ASSIGN, {"username": user.username, "table": table_id}, follow=True
        )
        assert response.status_code == 200
        errors = [(tags, text) for tags, text in _messages(response) if "error" in tags]
        assert len(errors) == 1 and code in errors[0][0], errors
        assert user.username in errors[0][1] and "plain referee account" in errors[0][1]
        assert user.username not in _links(response.content.decode())
    assert _state(user) == before
    assert user.username not in {
        o
        for o in re.findall(
            r'<option value="([^"]+)">', director_client.get(ROUND_PAGE).content.decode()
        )
    }


def test_round_page_shows_no_link_for_a_privileged_account_assigned_around_the_services(
    director_client: Client, target: tuple[Any, str]
) -> None:
    """An assignment written before this fix, or by an old archive: the page shows the
    refusal, never a link."""
    user, code = target
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    RefereeAssignment.objects.create(round=round_, user=user)
    before = _state(user)
    html = director_client.get(ROUND_PAGE).content.decode()
    assert user.username not in _links(html)
    assert "referee" in _links(html)  # the demo referee's link is still there
    row = re.search(rf'<tr data-referee="{re.escape(user.username)}">.*?</tr>', html, re.S)
    assert row is not None and f'data-code="{code}"' in row.group(0)
    assert "/referee/link/#" not in row.group(0)
    assert _state(user) == before


def test_a_link_made_for_a_privileged_account_signs_nobody_in(
    demo: None, target: tuple[Any, str]
) -> None:
    """Even a validly signed code (made around ``link_path``) is refused when used."""
    user, code = target
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    forged = f"{urlsafe_base64_encode(force_bytes(user.pk))}.{_tokens.make_token(user)}"
    before = _state(user)
    phone = Client()
    response = phone.post(LINK_PAGE, {"code": forged})
    assert response.status_code == 400
    assert f'data-code="{code}"' in response.content.decode()
    assert _signed_in_as(phone) is None
    assert phone.get("/admin/auth/user/add/").status_code == 302  # to the admin sign-in
    assert _state(user) == before


def test_a_link_dies_when_its_referee_is_made_staff(demo: None) -> None:
    referee = get_user_model().objects.get(username="referee")
    code = link_path(user=referee).partition("#")[2]
    referee.is_staff = True
    referee.save()
    phone = Client()
    assert phone.post(LINK_PAGE, {"code": code}).status_code == 400
    assert _signed_in_as(phone) is None


def test_admin_referee_assignment_add_refuses_a_privileged_account(
    director_client: Client, target: tuple[Any, str]
) -> None:
    user, _code = target
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    before = _state(user)
    url = reverse("admin:tournaments_refereeassignment_add")
    offered = director_client.get(url).context["adminform"].form.fields["user"].queryset
    assert user not in offered and get_user_model().objects.get(username="director") not in offered
    response = director_client.post(url, {"round": round_.pk, "table": "", "user": user.pk})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["user"]
    assert _state(user) == before


def test_admin_referee_assignment_change_refuses_a_privileged_account(
    director_client: Client, target: tuple[Any, str]
) -> None:
    user, _code = target
    assignment = RefereeAssignment.objects.get(round__tournament__slug="demo")
    before = _state(user)
    url = reverse("admin:tournaments_refereeassignment_change", args=[assignment.pk])
    response = director_client.post(
        url, {"round": assignment.round_id, "table": "", "user": user.pk}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["user"]
    assert RefereeAssignment.objects.get(pk=assignment.pk).user.username == "referee"
    assert _state(user) == before


def test_admin_round_inline_refuses_a_privileged_account(
    director_client: Client, target: tuple[Any, str]
) -> None:
    user, _code = target
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    url = reverse("admin:tournaments_round_change", args=[round_.pk])
    page = director_client.get(url)
    data = _admin_form_data(page)
    prefix = next(
        f.formset.prefix
        for f in page.context["inline_admin_formsets"]
        if f.formset.model is RefereeAssignment
    )
    n = int(data[f"{prefix}-TOTAL_FORMS"])
    data[f"{prefix}-TOTAL_FORMS"] = str(n + 1)
    data[f"{prefix}-{n}-user"] = str(user.pk)
    data[f"{prefix}-{n}-round"] = str(round_.pk)
    before = _state(user)
    response = director_client.post(url, data)
    assert response.status_code == 200  # the form again, with the error
    assert user.username not in str(RefereeAssignment.objects.values_list("user__username"))
    assert _state(user) == before


def test_a_director_cannot_reach_the_user_or_group_admin(
    director_client: Client, target: tuple[Any, str]
) -> None:
    """So a director cannot make a referee a superuser, or a superuser a referee."""
    user, _code = target
    referee = get_user_model().objects.get(username="referee")
    before = _state(user), _state(referee)
    group = _referee_group()
    for url in (
        "/admin/auth/user/",
        "/admin/auth/user/add/",
        f"/admin/auth/user/{user.pk}/change/",
        f"/admin/auth/user/{referee.pk}/change/",
        f"/admin/auth/user/{referee.pk}/password/",
        "/admin/auth/group/",
        f"/admin/auth/group/{group.pk}/change/",
    ):
        assert director_client.get(url).status_code == 403, url
    response = director_client.post(
        f"/admin/auth/user/{referee.pk}/change/",
        {"username": "referee", "is_superuser": "on", "is_staff": "on", "is_active": "on"},
    )
    assert response.status_code == 403
    response = director_client.post(
        f"/admin/auth/group/{group.pk}/change/", {"name": REFEREE_GROUP, "user_set": [user.pk]}
    )
    assert response.status_code == 403
    assert (_state(user), _state(referee)) == before


def test_the_api_creates_no_assignment_or_link(
    director_client: Client, target: tuple[Any, str]
) -> None:
    user, _code = target
    round_ = Round.objects.get(tournament__slug="demo", number=1)
    before = _state(user)
    body = json.dumps({"round": round_.pk, "user": user.pk, "username": user.username})
    for url in ("/api/v1/assignments/", "/api/v1/me/"):
        for method in (director_client.post, director_client.put, director_client.patch):
            response = method(url, body, content_type="application/json")
            assert response.status_code in (403, 405), (url, response.status_code)
    assert _state(user) == before


def test_archive_import_refuses_to_assign_a_privileged_account(
    demo: None, target: tuple[Any, str], tmp_path: Any
) -> None:
    """``manage.py tournament_import`` (the operator's command) takes the referees of an
    archive by name: a staff or superuser account is refused, nothing is written."""
    from django.core.management.base import CommandError

    user, _code = target
    out = io.StringIO()
    call_command("tournament_export", "demo", stdout=out)
    data = json.loads(out.getvalue())
    data["tournament"]["slug"] = "demo-copy"
    for entry in data["entries"]:
        entry["player"]["external_id"] = "copy-" + entry["player"]["external_id"]
    data["rounds"][0]["referees"] = [user.username]
    before = _state(user)
    archive = tmp_path / "demo.json"
    archive.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as excinfo:
        call_command("tournament_import", str(archive), stdout=io.StringIO())
    assert "plain referee account" in str(excinfo.value)
    assert _state(user) == before


# --- the link itself ------------------------------------------------------------------


def test_a_link_expires_after_referee_link_hours(demo: None, settings: Any) -> None:
    settings.REFEREE_LINK_HOURS = 2
    referee = get_user_model().objects.get(username="referee")
    code = link_path(user=referee).partition("#")[2]
    real_now = _tokens._now
    try:
        _tokens._now = lambda: real_now() + timedelta(hours=2, minutes=1)  # type: ignore[method-assign]
        phone = Client()
        assert phone.post(LINK_PAGE, {"code": code}).status_code == 400
        _tokens._now = lambda: real_now() + timedelta(hours=1, minutes=59)  # type: ignore[method-assign]
        assert phone.post(LINK_PAGE, {"code": code}).status_code == 302
    finally:
        _tokens._now = real_now  # type: ignore[method-assign]


def test_the_link_code_is_in_no_request_line(director_client: Client) -> None:
    """gunicorn logs the request line (path and query): the code travels in the link's
    fragment, which browsers never send, and in the POST body."""
    html = director_client.get(ROUND_PAGE).content.decode()
    link = _links(html)["referee"]
    url, _hash, code = link.partition("#")
    token = code.split(".")[1]
    assert token not in url
    page = Client().get(url)
    assert token not in page.content.decode()
    assert 'method="post"' in page.content.decode()


def test_a_referee_removed_from_the_group_sees_no_cards(db: Any) -> None:
    """Still assigned, but taken out of the referee group: no cards of a live hand."""
    from tests.api.helpers import assign, playing_table, referee_user, start_hand

    table = playing_table()
    referee = referee_user("ref-leaving")
    assign(referee, table)
    phone = Client()
    phone.force_login(referee)
    started = start_hand(_api(phone), table)
    assert started.status_code == 201, started.content
    hand_id = started.json()["id"]
    seen = phone.get(f"/api/v1/hands/{hand_id}/").json()
    assert seen["status"] in ("bidding", "playing") and seen["hands"]
    referee.groups.remove(_referee_group())
    assert RefereeAssignment.objects.filter(user=referee, round=table.round).exists()
    hidden = phone.get(f"/api/v1/hands/{hand_id}/")
    assert hidden.status_code == 200
    assert hidden.json()["hands"] is None and hidden.json()["kitty"] is None
    assert phone.get(f"/api/v1/hands/{hand_id}/audit/").status_code == 403
    assert phone.get("/api/v1/assignments/").status_code == 403
    table.round.tournament.is_public = False
    table.round.tournament.save()
    assert phone.get(f"/api/v1/hands/{hand_id}/").status_code == 404  # a private tournament


def _api(client: Client) -> Any:
    """An API client with ``client``'s session."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.cookies = client.cookies
    return api


# --- sessions --------------------------------------------------------------------------


def test_a_referee_session_ends_after_referee_session_hours(demo: None, settings: Any) -> None:
    settings.REFEREE_SESSION_HOURS = 3
    referee = get_user_model().objects.get(username="referee")
    phone = Client()
    assert (
        phone.post(LINK_PAGE, {"code": link_path(user=referee).partition("#")[2]}).status_code
        == 302
    )
    age = phone.session.get_expiry_age()
    assert 3 * 3600 - 60 <= age <= 3 * 3600
    expires = phone.session.get_expiry_date()
    assert expires <= timezone.now() + timedelta(hours=3)


def test_a_referee_password_session_is_short_too(demo: None, settings: Any) -> None:
    settings.REFEREE_SESSION_HOURS = 5
    referee = get_user_model().objects.get(username="referee")
    referee.set_password(PASSWORD)
    referee.save()
    phone = Client()
    response = phone.post("/referee/login/", {"username": "referee", "password": PASSWORD})
    assert response.status_code == 302
    assert 5 * 3600 - 60 <= phone.session.get_expiry_age() <= 5 * 3600


def test_a_director_session_keeps_the_session_cookie_age(
    director_client: Client, settings: Any
) -> None:
    assert director_client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE


def _admin_form_data(response: Any) -> dict[str, str]:
    """The initial POST data of an admin change page (main form and inline formsets)."""
    data: dict[str, str] = {}
    context = response.context
    forms = [context["adminform"].form] + [
        f for inline in context["inline_admin_formsets"] for f in inline.formset.forms
    ]
    for inline in context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[f"{inline.formset.prefix}-{name}"] = str(management.initial.get(name, ""))
    for form in forms:
        for name, field in form.fields.items():
            value = form.initial.get(name, field.initial)
            if value is None or value is False:
                continue
            data[form.add_prefix(name)] = (
                "on" if value is True else str(getattr(value, "pk", value))
            )
    return data


def test_the_round_page_says_how_long_a_link_works_in_both_languages(
    director_client: Client, settings: Any
) -> None:
    settings.REFEREE_LINK_HOURS = 6
    english = director_client.get(ROUND_PAGE).content.decode()
    assert "A link stops working 6 hours after it is shown." in english
    chinese = director_client.get(ROUND_PAGE, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "链接在显示 6 小时后失效。" in chinese


def test_a_refusal_reads_in_chinese(director_client: Client) -> None:
    _superuser()
    response = director_client.post(
        ASSIGN, {"username": "root", "table": ""}, HTTP_ACCEPT_LANGUAGE="zh-hans", follow=True
    )
    assert "root 是管理人员、超级用户或持有权限的账号" in response.content.decode()
    phone = Client()
    refused = phone.post(LINK_PAGE, {"code": "x.y"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "此登录链接已被使用或已过期" in refused.content.decode()
