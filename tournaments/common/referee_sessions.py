"""Referee sessions are short (issue 16): a session signed in by anybody who is not a
director ends ``REFEREE_SESSION_HOURS`` after sign-in, however it was started (a one-time
link, the referee sign-in form). Directors (staff) keep ``SESSION_COOKIE_AGE``."""

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone

from tournaments.common.roles import user_is_director


@receiver(user_logged_in, dispatch_uid="tournaments.referee_session_expiry")
def referee_session_expiry(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """A fixed end (not an idle timeout): the session stops at sign-in + the setting."""
    session = getattr(request, "session", None)
    if session is None or user_is_director(user):
        return
    session.set_expiry(timezone.now() + timedelta(hours=settings.REFEREE_SESSION_HOURS))
