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
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from django.views.decorators.debug import sensitive_post_parameters

from tournaments.errors import ApplicationError
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


@never_cache
@sensitive_post_parameters("code")
@csrf_protect
def link_login(request: HttpRequest) -> HttpResponse:
    """A one-time sign-in link's page. GET shows a form (its static JS copies the sign-in
    code from the link's ``#`` part, never sent to the server); only the POST signs in, so
    a link preview that fetches the page uses nothing up."""
    if request.method != "POST":
        return render(request, "referee/link_login.html", {})
    try:
        user = link_user(code=request.POST.get("code", ""))
    except ApplicationError as exc:
        context = {"message": exc.message, "code": exc.code}
        return render(request, "referee/link_invalid.html", context, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("referee:console")
