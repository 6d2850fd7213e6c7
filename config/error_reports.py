"""Error reports (the DEBUG page, error e-mails) that never show a broker or database URL."""

import re
from typing import Any

from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

#: ``scheme://user:password@`` or ``scheme://:password@`` inside any text.
CREDENTIALS_IN_URL = re.compile(r"(?P<scheme>[a-z][a-z0-9+.\-]*://)[^/@\s]*@", re.IGNORECASE)


def hide_url_credentials(text: str) -> str:
    """``redis://:pw@host/0`` -> ``redis://********@host/0``."""
    return CREDENTIALS_IN_URL.sub(r"\g<scheme>********@", text)


class SecretHidingExceptionReporterFilter(SafeExceptionReporterFilter):
    """Django's filter, plus: settings, request META entries and local variables whose name
    says URL, DSN, BROKER, BACKEND or DATABASE are hidden, and credentials inside any URL
    in a shown value are masked."""

    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|URL|DSN|BROKER|BACKEND|DATABASE",
        flags=re.IGNORECASE,
    )

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        cleansed = super().cleanse_setting(key, value)
        if type(cleansed) is str:  # not lazy strings (their text is computed on demand)
            return hide_url_credentials(cleansed)
        return cleansed

    def get_traceback_frame_variables(self, request: Any, tb_frame: Any) -> Any:
        return [
            (name, self.cleanse_setting(name, value))
            for name, value in super().get_traceback_frame_variables(request, tb_frame)
        ]


class SecretHidingExceptionReporter(ExceptionReporter):
    """Also masks credentials in the exception's message and in each chained exception's."""

    def get_traceback_data(self) -> dict[str, Any]:
        data: dict[str, Any] = super().get_traceback_data()
        if isinstance(data.get("exception_value"), str):
            data["exception_value"] = hide_url_credentials(data["exception_value"])
        for frame in data.get("frames", ()):
            cause = frame.get("exc_cause")
            if cause is not None:
                frame["exc_cause"] = hide_url_credentials(str(cause))
        return data
