"""The largest value of every integer a director sets on a tournament, round, table or
board. Each is a model validator, a database CHECK (migration 0015) and a service refusal
with the code ``too_large``: a number far beyond any real event (``hands_per_round =
2147483647`` made seating loop for minutes holding a transaction) is refused at the door.
"""

#: Hands every table plays in a round; loops (boards dealt, the round page) run this often.
HANDS_PER_ROUND_MAX = 100
#: Round numbers (a long league has a few dozen rounds; generous, as no loop runs on it).
ROUND_NUMBER_MAX = 100_000
#: Rounds planned for a tournament (its schedule shown as "round 2 of 5"; 0: not planned).
ROUNDS_PLANNED_MAX = 1000
#: Table numbers within a round (30,000 entries sit at 10,000 tables).
TABLE_NUMBER_MAX = 100_000
#: Board numbers: ``(round - 1) * hands_per_round + hand`` at most.
BOARD_NUMBER_MAX = ROUND_NUMBER_MAX * HANDS_PER_ROUND_MAX
#: Registration order of an entry.
REGISTRATION_ORDER_MAX = 1_000_000
#: An event's cap on the multiplier *M* of six and five players (R13.9, R14.7: "e.g. 16 or
#: 64"): 2^20, past any real cap, keeps every stake a small integer.
STAKE_CAP_MAX = 1 << 20
