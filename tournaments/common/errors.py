"""The one application error type raised by services and selectors.

Views and the API map it to a 4xx response with ``{"code", "message"}``.
"""


class ApplicationError(Exception):
    """A request the domain refuses, with a stable machine-readable ``code``."""

    def __init__(self, code: str, message: str, *, extra: dict[str, object] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra or {}

    def __repr__(self) -> str:
        return f"ApplicationError(code={self.code!r}, message={self.message!r})"
