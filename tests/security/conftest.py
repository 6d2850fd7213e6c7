"""The browser fixtures for the security tests that need a real phone (issue 28: a shared
phone, a session that ends offline): the session's Chromium of tests/browser/conftest.py."""

from tests.browser.conftest import browser  # noqa: F401  (a fixture, used by name)
