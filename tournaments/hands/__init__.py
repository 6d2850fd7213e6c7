"""A hand from its first action to its counted result.

- ``writing``: the one skeleton of every hand write, ``hand_write`` (lock the row → answer a
  retry or a stale version → build the state from the row's snapshot → the service decides
  → append the event → write the summary, snapshot and version → queue the standings on
  commit), which returns what it wrote (``HandWrite``: the hand, the event under the key,
  the replay). The only place a hand event is appended: the seating's seat corrections go
  through it too.
- ``write``: the hand services on it: start a hand, record an action, an undo, an
  announcement (报牌), a written-in deal, a result, a passed-out hand.
- ``replay``: a hand's event log replayed or folded: the rules state, the summary and the
  snapshot (``Hand.state``) its row must hold (the row is a projection of the log).
- ``audit``: every hand row compared with its log (``manage.py hand_audit``).
- ``corrections``: void a hand, correct its result: new events with a reason (SPEC R9.5).
- ``confirmation``: confirm or dispute a hand (SPEC R10.8.1), by a second official or by the
  players' PINs.
- ``results``: the per-seat result rows and the tournament's log version, what standings are
  built from.
- ``selectors``: a hand's state for the referee's phone and the public.
- ``card_secrecy``: who may see what of a hand (its cards, its course and result) or of a
  duplicate board.
- ``boards``: duplicate deals generated from a recorded seed.

May import: ``referee.rules`` (the rules and the one scoring), ``tournaments.models``,
``tournaments.common``, the general reads of ``tournaments.tournament.selectors``, and of the
standings only ``tournaments.standings.snapshots.standings_request`` (queued on commit by
``results``). Never a screen (``director``, ``public``, ``admin``, ``referee.api``,
``referee.console``).
"""
