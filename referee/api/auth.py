"""API sign-in: DRF's token endpoint, throttled by django-axes like the admin sign-in; the
token it answers lives ``REFEREE_SESSION_HOURS`` (``tournaments.common.api_tokens``)."""

from typing import Any, NoReturn

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.settings import api_settings

from config.throttling import THROTTLED_CODE, SignInRateThrottle, throttled_message
from referee.api.parsers import BoundedJSONParser
from referee.api.serializers import ErrorSerializer, TokenInput
from tournaments.common.api_tokens import api_token_expires_at, api_token_issue
from tournaments.common.errors import ApplicationError

NON_FIELD_ERRORS = api_settings.NON_FIELD_ERRORS_KEY


class TokenObtainApi(ObtainAuthToken):
    """POST username and password, get the user's API token and when it expires (not a
    hand write, so no idempotency key): the live token, or a new one when it has expired
    or was revoked. A wrong username or password is 401 ``invalid_credentials``; five
    failures for one username from one address lock it (429 ``locked_out``); and the
    attempts from one address beyond its allowance (SIGN_IN_BURST at once, then
    SIGN_IN_RATE), whatever the username, are 429 ``throttled``."""

    serializer_class = TokenInput
    parser_classes = (FormParser, MultiPartParser, BoundedJSONParser)
    # Per client address, before any password is hashed (config/throttling.py).
    throttle_classes = (SignInRateThrottle,)

    @extend_schema(
        auth=[],
        request=TokenInput,
        responses={
            200: inline_serializer(
                "TokenOutput",
                {"token": serializers.CharField(), "expires": serializers.DateTimeField()},
            ),
            400: OpenApiResponse(ErrorSerializer, description="validation"),
            401: OpenApiResponse(ErrorSerializer, description="invalid_credentials"),
            429: OpenApiResponse(ErrorSerializer, description="locked_out, throttled"),
        },
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except exceptions.ValidationError as exc:
            codes = exc.get_codes()
            # AuthTokenSerializer's refusal of the credentials themselves (after its field
            # checks passed): a non-field error with the code "authorization".
            non_field = codes.get(NON_FIELD_ERRORS) if isinstance(codes, dict) else None
            if isinstance(non_field, list) and "authorization" in non_field:
                raise exceptions.AuthenticationFailed(
                    _("Wrong username or password."), code="invalid_credentials"
                ) from exc
            raise
        try:
            token = api_token_issue(user=serializer.validated_data["user"])
        except ApplicationError as exc:  # the password changed meanwhile
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from exc
        expires = serializers.DateTimeField().to_representation(api_token_expires_at(token=token))
        return Response({"token": token.key, "expires": expires})

    def throttled(self, request: Any, wait: float | None) -> NoReturn:
        raise exceptions.Throttled(wait, detail=throttled_message(), code=THROTTLED_CODE)

    def handle_exception(self, exc: Exception) -> Response:
        # django-axes flags a locked-out attempt on the request it was given, here DRF's
        # wrapper; copied to Django's request so that AxesMiddleware answers 429.
        if getattr(self.request, "axes_locked_out", False):
            self.request._request.axes_locked_out = True  # type: ignore[attr-defined]
        return super().handle_exception(exc)


token_obtain = TokenObtainApi.as_view()
