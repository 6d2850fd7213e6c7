"""Write operations (``<thing>_<action>``, keyword-only).  Each runs in a
transaction and raises ``tournaments.errors.ApplicationError`` on refusal."""
