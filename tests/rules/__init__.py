"""Tests of the pure-Python rules library ``referee.rules`` (SPEC.md, PROTOCOL.md)."""
