"""A spectator's or referee's phone in the browser tests: its viewport, and what of a page
sticks out sideways."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}


def sideways(page: Any, *, inside: str = "table, .table-scroll") -> list[str]:
    """The elements of ``main`` whose right edge is past the phone's, but those whose parent
    is within ``inside`` (a box that scrolls on its own): empty when the page fits."""
    return list(
        page.evaluate(
            """([width, inside]) => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > width
                && !e.parentElement.closest(inside))
            .map(e => e.tagName + '.' + e.className)""",
            [PHONE["width"], inside],
        )
    )


def fits(page: Any) -> bool:
    """The page scrolls down only (no sideways scroll)."""
    return bool(page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"])
