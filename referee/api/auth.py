"""API sign-in: DRF's token endpoint, throttled by django-axes like the admin sign-in."""

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response


class TokenObtainApi(ObtainAuthToken):
    """POST username and password, get the user's API token.

    django-axes flags a locked-out attempt on the request it was given, here DRF's wrapper;
    the flag is copied to Django's request so that AxesMiddleware answers 429.
    """

    def handle_exception(self, exc: Exception) -> Response:
        if getattr(self.request, "axes_locked_out", False):
            self.request._request.axes_locked_out = True  # type: ignore[attr-defined]
        return super().handle_exception(exc)


token_obtain = TokenObtainApi.as_view()
