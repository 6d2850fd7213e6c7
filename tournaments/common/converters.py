"""The ``<id:…>`` path converter: a positive whole number that fits a bigint column.

Every primary key is a BigAutoField, and every other number in a path (a round's number) is
narrower. Django's ``<int:…>`` accepts any number of digits: an id beyond 2**63-1 reached the
database driver and raised OverflowError (a 500, found by schemathesis). A number this
converter refuses does not match the path, so the answer is the 404 of an unknown address
(JSON with the error shape under /api/).
"""

from django.urls.converters import IntConverter

from tournaments.common.validation import BIGINT_MAX


class IdConverter(IntConverter):
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= BIGINT_MAX:
            raise ValueError(value)  # no match: the path answers 404
        return number
