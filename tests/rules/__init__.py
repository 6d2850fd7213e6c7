"""Tests of the pure-Python rules library ``referee.rules`` (docs/rules/SPEC.md, PROTOCOL.md)."""
