"""JSON bodies with a bounded nesting depth.

Python's JSON decoder recurses once per nested array or object: a body nested 100,000 deep
raised RecursionError, a 500. No request of this API nests deeper than a few levels, so a
body deeper than ``MAX_DEPTH`` is refused with 400 ``too_deep`` (and one so deep that the
decoder itself gives up is refused the same way).
"""

from collections.abc import Iterator
from typing import Any

from django.utils.translation import ngettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: Deeper than any body of the API (a deal is an object holding a list of strings: depth 2).
MAX_DEPTH = 64


def _children(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        return iter(value.values())
    if isinstance(value, list):
        return iter(value)
    return iter(())


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests arrays/objects more than ``limit`` deep (without recursion)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend(
            (child, depth + 1) for child in _children(node) if isinstance(child, (dict, list))
        )
    return False


def too_deep() -> ParseError:
    return ParseError(
        ngettext(
            "The JSON body is nested more than %(limit)s level deep.",
            "The JSON body is nested more than %(limit)s levels deep.",
            MAX_DEPTH,
        )
        % {"limit": MAX_DEPTH},
        code="too_deep",
    )


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing bodies nested deeper than ``MAX_DEPTH``."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise too_deep() from exc
        if json_depth_exceeds(data, MAX_DEPTH):
            raise too_deep()
        return data
