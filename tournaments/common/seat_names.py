"""Seat names, one wording for every audience: the wind players know their seat by and the
seat number the referee's log, the API and the director's forms use, together
("East (东) · seat 0"), in the reader's language.

Public pages, director screens and forms, print sheets, the seating explanation and the
services' messages name a seat through ``seat_name``; the referee console takes the same
strings from ``seat_names`` (what the server gives its page).
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.common.seats import SEAT_POSITIONS

#: The wind of each seat position, as players call their seat (东 南 西 北).
_WINDS = (_("East (东)"), _("South (南)"), _("West (西)"), _("North (北)"))


def seat_wind(position: int) -> str:
    """The wind alone ("East (东)"), for a column already headed by seat numbers; "—" for
    a fifth or sixth seat, which has no wind."""
    if type(position) is not int or position not in SEAT_POSITIONS:
        return str(position)
    return str(_WINDS[position]) if position < len(_WINDS) else "—"


def seat_name(position: int | None) -> str:
    """ "East (东) · seat 0": the wind and the number of seat ``position``, translated
    ("Seat 4" alone at a five-seat table: four winds only); a value that is no seat comes
    back as it is ("—" for None)."""
    if position is None:
        return "—"
    if type(position) is not int or position not in SEAT_POSITIONS:  # 1.0, True: no seat
        return str(position)
    if position >= len(_WINDS):
        return gettext("Seat %(position)s") % {"position": position}
    return gettext("%(wind)s · seat %(position)s") % {
        "wind": _WINDS[position],
        "position": position,
    }


#: ``seat_name`` for texts built at import time (form labels and choices).
seat_name_lazy = lazy(seat_name, str)


def seat_names() -> list[str]:
    """Every seat's name in position order (a four-seat table's fourth too), for a page's
    script (the console)."""
    return [seat_name(position) for position in SEAT_POSITIONS]
