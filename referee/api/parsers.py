"""JSON bodies with a bounded nesting depth, of Unicode text only.

Python's JSON decoder recurses once per nested array or object: a body nested 100,000 deep
raised RecursionError, a 500. No request of this API nests deeper than a few levels, so a
body deeper than ``MAX_DEPTH`` is refused with 400 ``too_deep`` (and one so deep that the
decoder itself gives up is refused the same way).

A ``\\ud800`` escape decodes to a lone surrogate, which is no Unicode character: no database
column stores it and no UTF-8 answer can echo it (an unknown field's name, a choice's value:
a 500). Such a body is not I-JSON (RFC 7493 §2.1) and is refused whole, in any key or string,
with 400 ``invalid_unicode``. Characters beyond the Basic Multilingual Plane (a surrogate
*pair* escaped, or written as UTF-8) are ordinary text.
"""

import re
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext as _
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


#: A lone surrogate: the decoder pairs a high and a low escape into one character.
_SURROGATE = re.compile("[\ud800-\udfff]")


def json_has_lone_surrogate(value: Any) -> bool:
    """Whether any key or string in ``value`` holds a lone surrogate (without recursion)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if not node.isascii() and _SURROGATE.search(node):
                return True
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
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


def not_unicode() -> ParseError:
    return ParseError(
        _("The JSON body holds a lone surrogate (an unpaired \\ud800-\\udfff escape): not text."),
        code="invalid_unicode",
    )


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing bodies nested deeper than ``MAX_DEPTH`` and bodies
    holding a lone surrogate."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise too_deep() from exc
        if json_depth_exceeds(data, MAX_DEPTH):
            raise too_deep()
        if json_has_lone_surrogate(data):
            raise not_unicode()
        return data
