"""Referee console (phone first): sign-in, one-time sign-in links, the console page.

The console itself is static JS that talks to the referee API v1 (session + CSRF)."""

from django.urls import path

from config.throttling import sign_in_throttled
from referee.console import confirm as referee_confirm
from referee.console import views as referee

app_name = "referee"

urlpatterns = [
    path("", referee.console, name="console"),
    path("login/", sign_in_throttled(referee.RefereeLoginView.as_view()), name="login"),
    path("logout/", referee.RefereeLogoutView.as_view(), name="logout"),
    # The sign-in code is in the link's fragment (after "#"): never in a request line.
    path("link/", referee.link_login, name="link-login"),
    path("hands/<id:hand_id>/confirm/", referee_confirm.hand_confirm_pins, name="hand-confirm"),
    # The console's service worker: under /referee/ so that it may control the console.
    path("sw.js", referee.service_worker, name="service-worker"),
    # The web app manifest: the console installs to a phone's home screen.
    path("manifest.webmanifest", referee.web_manifest, name="manifest"),
]
