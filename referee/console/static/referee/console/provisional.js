/* The hand as the queued writes would continue it (what the screen shows while they wait):
 * the seat on turn after them, the play to beat, and the cards each seat would still hold.
 * Only an estimate: the rules check each write when it is sent. */

export const RANKS = "3456789TJQKA2XD";

/** Rank notation of cards written with suits or ranks ("♠3 ♥10" → "3T"). */
export function ranksOf(cards) {
  return (cards || "")
    .replace(/10/g, "T")
    .toUpperCase()
    .split("")
    .filter((c) => RANKS.includes(c))
    .join("");
}

export function provisional(hand, items) {
  const actions = items.filter((q) => q.body && typeof q.body.seat === "number" && q.kind === "action");
  let turn = hand.turn;
  let top = hand.top_play ? { cards: hand.top_play.cards, seat: hand.top_play.seat } : null;
  const held = hand.hands ? hand.hands.map((cards) => (cards === null ? null : ranksOf(cards))) : null;
  actions.forEach((q) => {
    const { seat, play } = q.body;
    turn = (seat + 1) % hand.doubled.length; // one "doubled" flag a seat
    if (typeof play !== "string") return;
    if (play === "pass") {
      if (top && turn === top.seat) top = null; // every other seat passed: a free lead
      return;
    }
    top = { cards: play, seat };
    if (held && held[seat] !== null) {
      let rest = held[seat];
      ranksOf(play).split("").forEach((r) => {
        rest = rest.replace(r, "");
      });
      held[seat] = rest;
    }
  });
  return { turn, top, held, count: actions.length };
}
