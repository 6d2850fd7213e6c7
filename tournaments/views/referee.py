"""Referee console pages: sign-in (Django's LoginView, throttled by django-axes), the
one-time sign-in link a director hands out, and the console shell. Every write the
console makes goes through the referee API v1."""

from typing import Any

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from tournaments.login_links import link_user
from tournaments.views.referee_strings import console_strings


class RefereeLoginView(LoginView):
    template_name = "referee/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("referee:console"))


class RefereeLogoutView(LogoutView):
    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("referee:login"))


@login_required(login_url=reverse_lazy("referee:login"))
@ensure_csrf_cookie
def console(request: HttpRequest) -> HttpResponse:
    """The console shell: the JS reads its tables and hands from the API."""
    context: dict[str, Any] = {"strings": console_strings()}
    return render(request, "referee/console.html", context)


def link_login(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """Sign a referee in from a one-time link (it stops working once used)."""
    user = link_user(uidb64=uidb64, token=token)
    if user is None:
        return render(
            request,
            "referee/link_invalid.html",
            {"message": _("This sign-in link has been used or has expired.")},
            status=400,
        )
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("referee:console")
