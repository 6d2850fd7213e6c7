"""Integer parameters bound on the server are checked by PostgreSQL, never wrapped.

With ``server_side_binding`` (the default on PostgreSQL, see config/settings.py) Django types
each integer field's value as psycopg's ``Int2``/``Int4``/``Int8`` (so that a prepared
statement's parameter types follow the columns). psycopg sends those in binary when it can,
and the binary dumpers of the compiled implementation (psycopg-binary / psycopg-c) pack the
value into 2, 4 or 8 bytes without a range check: 2**31 was stored as -2**31, 2**32-1 as -1,
and 10**20 raised OverflowError in the driver. Client-side binding (and the pure-Python
dumpers) never had the problem: the value travels as text and PostgreSQL refuses it
("integer out of range", a DataError).

On every new connection the text dumpers are registered for these three types, so a value
out of the column's range reaches PostgreSQL as text and is refused there. Prepared
statements are unchanged (their parameter types are still int2/int4/int8). The services,
forms and serializers bound every integer first (tournaments/common/validation.py); this
is the guarantee underneath them.
"""

from typing import Any

from psycopg.types.numeric import Int2, Int2Dumper, Int4, Int4Dumper, Int8, Int8Dumper

TEXT_INTEGER_DUMPERS = ((Int2, Int2Dumper), (Int4, Int4Dumper), (Int8, Int8Dumper))


def integers_as_text(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: integer parameters bound as text on PostgreSQL."""
    if connection.vendor != "postgresql":
        return
    adapters = connection.connection.adapters
    for python_type, dumper in TEXT_INTEGER_DUMPERS:
        adapters.register_dumper(python_type, dumper)
