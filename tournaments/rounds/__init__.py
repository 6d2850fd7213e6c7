"""A round's life and its people: rounds, tables, seats, referee accounts and assignments.

- ``services``: rounds (draft → seated → playing → closed, and reopened), tables, seats,
  referee assignments and the round log.
- ``referees``: plain referee accounts made by a director (no password: a one-time link),
  the password a director sets, and the API tokens a director revokes.
- ``login_links``: the one-time sign-in links for referees' phones.

Who sits where is ``tournaments.seating``.

May import: ``tournaments.models``, ``tournaments.common``, ``tournaments.tournament.selectors``,
``tournaments.tournament.log`` (starting the first round sets the tournament running, logged),
``tournaments.hands.results`` (a round with final results stays closed), and
``tournaments.hands.gate`` and ``exclusions`` (a round closes once every hand counts or is
excluded).
"""
