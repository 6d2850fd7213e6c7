"""API sign-in: DRF's token endpoint, throttled by django-axes like the admin sign-in."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response

from referee.api.serializers import ErrorSerializer


class TokenObtainApi(ObtainAuthToken):
    """POST username and password, get the user's API token (not a hand write, so no
    idempotency key). Five failures for one username from one address lock it (429)."""

    @extend_schema(
        auth=[],
        request=inline_serializer(
            "TokenInput",
            {
                "username": serializers.CharField(min_length=1),
                "password": serializers.CharField(min_length=1),
            },
        ),
        responses={
            200: inline_serializer("TokenOutput", {"token": serializers.CharField()}),
            400: OpenApiResponse(ErrorSerializer, description="validation"),
            429: OpenApiResponse(ErrorSerializer, description="locked_out"),
        },
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)

    def handle_exception(self, exc: Exception) -> Response:
        # django-axes flags a locked-out attempt on the request it was given, here DRF's
        # wrapper; copied to Django's request so that AxesMiddleware answers 429.
        if getattr(self.request, "axes_locked_out", False):
            self.request._request.axes_locked_out = True  # type: ignore[attr-defined]
        return super().handle_exception(exc)


token_obtain = TokenObtainApi.as_view()
