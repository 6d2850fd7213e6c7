"""Every page sends the Content-Security-Policy, and none carries what the policy refuses:
no inline script (a JSON data block is not a script), no inline event handler, no inline
style, no ``javascript:`` URL. The pages are rendered for their real audience (anonymous
spectator, director, referee, admin), so what a view adds with ``mark_safe`` (the QR codes)
is checked too. tests/browser/test_content_security_policy.py shows they work in a browser."""

import re
from typing import Any

import pytest
from django.test import Client

from tests import factories
from tests.api.helpers import assign, referee_user
from tests.public_data import hand_played, tournament_with_tables
from tournaments.models import RefereeAssignment

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
EVENT_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
INLINE_STYLE = re.compile(r"<style\b|<[^>]*\sstyle\s*=", re.IGNORECASE)
SCRIPT_URL = re.compile(r"javascript:", re.IGNORECASE)


def policy(response: Any) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"{response.request['PATH_INFO']}: no Content-Security-Policy"
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def refused_inline(html: str) -> list[str]:
    found = []
    for pattern in (INLINE_SCRIPT, EVENT_HANDLER, INLINE_STYLE, SCRIPT_URL):
        found += [match.group() for match in pattern.finditer(html)]
    return found


@pytest.fixture
def site(settings: Any) -> dict[str, Any]:
    """A running public tournament with a played hand, a referee assigned, and one client
    per audience."""
    settings.ALLOWED_HOSTS = ["testserver"]
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=3)
    referee = referee_user("csp-referee")
    assign(referee, tables[0])
    director = factories.UserFactory(username="csp-director", is_staff=True)
    admin = factories.UserFactory(username="csp-admin", is_staff=True, is_superuser=True)
    clients = {"anonymous": Client()}
    for name, user in (("referee", referee), ("director", director), ("admin", admin)):
        clients[name] = Client()
        clients[name].force_login(user)
    entry = tables[0].seats.first().entry  # type: ignore[union-attr]
    assert RefereeAssignment.objects.filter(user=referee).exists()
    return {"tournament": tournament, "hand": hand, "entry": entry, "clients": clients}


def pages(site: dict[str, Any]) -> list[tuple[str, str]]:
    slug, hand, entry = site["tournament"].slug, site["hand"], site["entry"]
    return [
        ("anonymous", "/"),
        ("anonymous", f"/t/{slug}/"),
        ("anonymous", f"/t/{slug}/rounds/1/"),
        ("anonymous", f"/t/{slug}/standings/"),
        ("anonymous", f"/t/{slug}/standings/?big=1"),
        ("anonymous", f"/t/{slug}/live/"),
        ("anonymous", f"/t/{slug}/live/?fragment=1"),
        ("anonymous", f"/t/{slug}/hands/{hand.pk}/"),
        ("anonymous", f"/t/{slug}/players/{entry.pk}/"),
        ("anonymous", "/referee/login/"),
        ("anonymous", "/referee/link/"),
        ("anonymous", "/admin/login/"),
        ("anonymous", "/api/docs/"),
        ("referee", "/referee/"),
        ("director", "/director/"),
        ("director", "/director/new/"),
        ("director", f"/director/t/{slug}/"),
        ("director", f"/director/t/{slug}/entries/"),
        ("director", f"/director/t/{slug}/rounds/1/"),
        ("director", f"/director/t/{slug}/rounds/1/print/"),
        ("director", f"/director/t/{slug}/results/1/"),
        ("director", f"/director/t/{slug}/hands/{hand.pk}/"),
        ("director", f"/director/t/{slug}/standings/"),
        ("admin", "/admin/"),
        ("admin", "/admin/tournaments/tournament/"),
        ("admin", f"/admin/tournaments/tournament/{site['tournament'].pk}/change/"),
        ("admin", "/admin/tournaments/round/"),
        ("admin", "/admin/tournaments/hand/"),
    ]


def test_every_page_sends_the_policy_and_carries_nothing_it_refuses(site: dict[str, Any]) -> None:
    for audience, path in pages(site):
        response = site["clients"][audience].get(path)
        assert response.status_code == 200, (audience, path, response.status_code)
        assert policy(response) == POLICY, path
        assert refused_inline(response.content.decode()) == [], path


def test_the_round_page_draws_its_qr_codes_inline(site: dict[str, Any]) -> None:
    """The QR codes are inline SVG (no image URL, no style): allowed by the policy."""
    slug = site["tournament"].slug
    page = site["clients"]["director"].get(f"/director/t/{slug}/rounds/1/").content.decode()
    assert '<svg width="' in page and 'class="segno"' in page


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/assignments/",
        "/api/schema/",
        "/api/docs/?script=",
        "/no-such-page/",
        "/api/v1/no-such-endpoint/",
        "/director/",  # a redirect to the sign-in
    ],
)
def test_other_answers_send_the_policy_too(site: dict[str, Any], path: str) -> None:
    response = site["clients"]["anonymous"].get(path)
    assert policy(response) == POLICY, path


def test_the_scan_sees_what_the_policy_refuses() -> None:
    """The checks above would see an inline script, handler, style or script URL."""
    assert refused_inline('<script src="/static/a.js"></script>') == []
    assert refused_inline('<script id="s" type="application/json">{}</script>') == []
    assert refused_inline("<script>alert(1)</script>") == ["<script>"]
    assert refused_inline('<select onchange="go()">') == ["<select onchange="]
    assert refused_inline('<p style="color: red">') == ["<p style="]
    assert refused_inline("<style>p {}</style>") == ["<style"]
    assert refused_inline('<a href="javascript:go()">') == ["javascript:"]
