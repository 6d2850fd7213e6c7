"""The directors' own sign-in page (``/director/login/``), in the site's look and both
languages, instead of the stock "Django administration" page.

Django's LoginView with the admin's staff-only form (a referee's account is refused here as
on /admin/login/); django-axes counts its failures (it calls ``authenticate`` with the
request) and the URL goes through ``sign_in_throttled``, as /referee/login/ does, so one
address has one sign-in allowance across the three forms."""

from collections.abc import Callable
from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse_lazy

#: Where a signed-out visitor of a director screen is sent.
DIRECTOR_LOGIN_URL = "director:login"


def director_required(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Staff only; anyone else is sent to the directors' sign-in page (with ``next``)."""
    return staff_member_required(view, login_url=DIRECTOR_LOGIN_URL)


class DirectorLoginView(LoginView):
    template_name = "director/login.html"
    authentication_form = AdminAuthenticationForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # A signed-in director goes on; a signed-in referee sees the form (and its refusal):
        # sending them to /director/ would send them back here, round and round.
        if request.method == "GET" and request.user.is_active and request.user.is_staff:
            return redirect(self.get_success_url())
        return super().dispatch(request, *args, **kwargs)

    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("director:dashboard"))


class DirectorLogoutView(LogoutView):
    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("director:login"))
