"""The security tests that need a real phone (issue 28: a shared phone, a session that ends
offline) use the session's Chromium (``browser``, tests/conftest.py) and, as every browser
test does, let Django's ORM run beside Playwright's event loop."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
