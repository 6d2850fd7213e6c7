/* The hand as the queued writes would continue it (what the screen shows while they wait):
 * the seat on turn after them, the play to beat, and the cards each seat would still hold.
 * Only an estimate: the rules check each write when it is sent. */

export const RANKS = "3456789TJQKA2XD";
/** Big Three's ranks low to high (SPEC R12.2: 4 < … < A < 2 < 3), no joker (R12.1). */
export const BIG3_RANKS = "456789TJQKA23";

/** Does the rule profile ``profile`` (a hand's or a table's ``rule_profile``) play Big Three
 * (大三 / 挖坑: ``big3``, ``big3_one_round``)? */
/** Whether ``profile`` is a six-player game's (六人斗地主, SPEC §13: a partner, no bid). */
export function isSix(profile) {
  return typeof profile === "string" && profile.startsWith("six_p");
}

export function isBig3(profile) {
  return typeof profile === "string" && (profile === "big3" || profile.startsWith("big3_"));
}

/** The ranks of the game a hand (or table) plays, low to high: the pad's buttons and the
 * order cards and plays are shown in. */
export function ranksFor(h) {
  return h && isBig3(h.rule_profile) ? BIG3_RANKS : RANKS;
}

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
  const seats = hand.seats || (hand.doubled || hand.hands).length; // 4 at a four_p table
  const held = hand.hands ? hand.hands.map((cards) => (cards === null ? null : ranksOf(cards))) : null;
  actions.forEach((q) => {
    const { seat, play } = q.body;
    turn = (seat + 1) % seats;
    if (typeof play !== "string") return;
    if (play === "pass") {
      // Every other seat (seats - 1 of them) passed: the turn is back with the top play's
      // seat, a free lead.
      if (top && turn === top.seat) top = null;
      return;
    }
    top = { cards: q.body.as ? play + " → " + q.body.as : play, seat };
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
