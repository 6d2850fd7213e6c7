/* The play composer (the playing phase of renderControls): how the referee enters a play.
 *
 * - Server-dealt hand (the API gives the seat's cards): the seat's cards grouped by rank,
 *   one large button per rank ("7 ×3"; the jokers apart); each tap adds one card of that
 *   rank to the composer, never more than the seat holds. When following, the legal plays
 *   of the seat on turn (the API's legal_actions) as one-tap buttons, Pass first, the
 *   smallest that beats next, bombs and the rocket last; past SHOWN_PLAYS, a "more" toggle.
 * - Writes waiting (offline): no legal play is offered (they would be stale); the rank
 *   buttons come from the cards the seat would still hold (provisional.js).
 * - Physical cards (the cards are unknown): the fifteen rank buttons (Big Three: its
 *   thirteen, 4 … A 2 3, no joker).
 * Cards, plays and rank buttons follow the order of the game the hand plays (``order``:
 * provisional.js ``ranksFor``): 3 … 2 and the jokers, or Big Three's 4 … A 2 3, where a
 * quad is no bomb and sorts with the other plays.
 * Typed notation is accepted in every case. A tap on a legal play is one write through
 * the queue, like any other (ctx.do.act: one Idempotency-Key).
 *
 * Wild cards (癞子, the ``laizi`` profile, ``h.wild`` once the landlord is known): the cards
 * tapped or typed are matched with the API's legal readings of exactly those cards (its
 * legal_actions with the same cards, each with its ``as``); one reading is sent as it is,
 * several are offered to choose from, and the play goes as {seat, play, as}. */

import { el, fmt, fmtn } from "./dom.js";
import { RANKS, ranksFor, ranksOf } from "./provisional.js";

/** The game's ranks given as ``order`` (a string, low to high), else Dou Dizhu's: a
 * helper passed to ``map`` gets an index there, which means no order. */
const ranksIn = (order) => (typeof order === "string" ? order : RANKS);

/** The suits, as six players' cards are written (♠ ♥ ♣ ♦, R13.10). */
export const SUITS = ["♠", "♥", "♣", "♦"];

/** Six players: the four suit buttons, ``chosen`` pressed; a tap calls ``pick(suit)``. */
export function suitRow(T, chosen, pick) {
  return el("div", { class: "suits", role: "group", "aria-label": T["six:suit"] }, SUITS.map((s) => el("button", {
    type: "button", class: "suit" + (s === chosen ? " chosen" : "") + (s === "♥" || s === "♦" ? " red" : ""),
    "data-suit": s, "aria-pressed": String(s === chosen), text: s, onclick: () => pick(s),
  })));
}

/** How many legal plays show before the "more" toggle. */
export const SHOWN_PLAYS = 12;

/** How many cards of each rank ``cards`` holds (suits or ranks: "♠3 ♥3 X" → {3: 2, X: 1}). */
export function rankCounts(cards) {
  const counts = {};
  ranksOf(cards).split("").forEach((r) => { counts[r] = (counts[r] || 0) + 1; });
  return counts;
}

/** ``cards`` grouped by rank, low to high in ``order``: [{rank: "3", count: 2}, {rank: "X", count: 1}]. */
export function groupCards(cards, order = RANKS) {
  order = ranksIn(order);
  const counts = rankCounts(cards);
  return order.split("").filter((r) => counts[r]).map((rank) => ({ rank, count: counts[rank] }));
}

/** A rank as the table says it: 10 for T, the jokers by name (``T``: the console's words). */
export function rankLabel(rank, T) {
  if (rank === "X") return T.small_joker;
  if (rank === "D") return T.big_joker;
  return rank === "T" ? "10" : rank;
}

/** A play's cards for its button, grouped by rank, the body first: "♠3 ♥7 ♣7 ♦7" →
 * "777 3", "TT" → "10 10". */
export function playLabel(play, T, order = RANKS) {
  order = ranksIn(order);
  const counts = rankCounts(play);
  const ranks = order.split("").filter((r) => counts[r]);
  ranks.sort((a, b) => counts[b] - counts[a] || order.indexOf(a) - order.indexOf(b));
  return ranks.map((r) => {
    const one = rankLabel(r, T);
    return Array(counts[r]).fill(one).join(one.length > 1 ? " " : "");
  }).join(" ");
}

/** The order of a play among the legal ones: [0, body's top rank, kickers low to high] for
 * a play of the kind to beat, [1, size and rank] for a bomb, [2] for the rocket (the four
 * jokers of two packs after it). A declared play (癞子) is ordered by what it stands for. The body is the
 * ranks held most often (the trio of 三带一, the four of 四带二, a chain's ranks). In Big
 * Three (``order`` without jokers) nothing is a bomb: a quad sorts by its rank, 3333 last. */
export function playOrder(play, order = RANKS) {
  order = ranksIn(order);
  const counts = rankCounts(play);
  const ranks = Object.keys(counts);
  const index = (r) => order.indexOf(r);
  const bombs = order.includes("X"); // Dou Dizhu: bombs and the rocket; Big Three has none (R12.9)
  if (bombs && ranks.length === 2 && counts.X === 1 && counts.D === 1) return [2];
  if (bombs && ranks.length === 2 && counts.X === 2 && counts.D === 2) return [2, 1]; // four jokers (four_p)
  // A bomb: four cards of a rank, or up to eight with two packs (four_p), by size then rank.
  if (bombs && ranks.length === 1 && counts[ranks[0]] >= 4) return [1, 13 * (counts[ranks[0]] - 4) + index(ranks[0])];
  const most = Math.max(...ranks.map((r) => counts[r]));
  const body = ranks.filter((r) => counts[r] === most).map(index);
  const kickers = ranks.filter((r) => counts[r] !== most).flatMap((r) => Array(counts[r]).fill(index(r)));
  return [0, Math.max(...body), ...kickers.sort((a, b) => a - b)];
}

function compareOrders(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = i < a.length ? a[i] : -1;
    const y = i < b.length ? b[i] : -1;
    if (x !== y) return x - y;
  }
  return 0;
}

/** The legal plays (actions with cards, not the pass) in the order the buttons show them:
 * the smallest that beats first, bombs then the rocket last (``order``: the game's ranks). */
export function orderPlays(actions, order = RANKS) {
  order = ranksIn(order);
  return (actions || [])
    .filter((a) => typeof a.play === "string" && a.play !== "pass")
    .map((a) => ({ action: a, order: playOrder(a.as || a.play, order) }))
    .sort((a, b) => compareOrders(a.order, b.order))
    .map((x) => x.action);
}

/** Are ``a`` and ``b`` the same cards (ranks in any order, suits or not)? */
export function sameCards(a, b) {
  const sorted = (cards) => ranksOf(cards).split("").sort().join("");
  return sorted(a) === sorted(b);
}

/** The legal readings of exactly the cards ``text`` (the ``legal`` actions of the seat
 * whose play is those cards: with ``as`` when a wild card stands for another rank, without
 * when every card is its own rank), the natural reading first. */
export function readingsOf(legal, text) {
  const plays = (legal || []).filter((a) => typeof a.play === "string" && a.play !== "pass" && sameCards(a.play, text));
  return plays.filter((a) => !a.as).concat(plays.filter((a) => a.as));
}

/** The write of a play of ``text`` by ``seat`` read as ``reading`` (a legal action, or
 * none): the cards as the referee entered them, with the declaration when it has one. */
export function playBody(seat, text, reading, explicit = false) {
  const body = { seat, play: text };
  if (reading && reading.as) body.as = reading.as;
  else if (reading && explicit) body.as = ranksOf(text); // "each card its own rank", said
  return body;
}

/** A play's cards for its button, with what its wild cards stand for: "7 A A → A A A A". */
export function readingLabel(action, T, order = RANKS) {
  return action.as ? playLabel(action.play, T, order) + " → " + playLabel(action.as, T, order) : playLabel(action.play, T, order);
}

/** Does the play ``play`` hold every card of ``text`` (ranks, as many of each)? */
export function holdsCards(play, text) {
  const have = rankCounts(play);
  return Object.entries(rankCounts(text)).every(([r, n]) => (have[r] || 0) >= n);
}

/** The plays among ``plays`` (ordered, orderPlays) that complete the cards tapped so far,
 * ``text``: those holding them all, the ones made of the tapped ranks only first (tap 9:
 * 9, 99, 999, then 999 with a kicker, the straights through 9 …), then the smaller before
 * the longer; at most ``limit``. Tapping the first and last rank of a straight, or a
 * trio's rank and its kicker's, leaves that play among the first. */
export function completions(plays, text, limit = SHOWN_PLAYS) {
  if (!ranksOf(text)) return [];
  const tapped = Object.keys(rankCounts(text));
  const own = (a) => Object.keys(rankCounts(a.play)).every((r) => tapped.includes(r));
  const first = ranksOf(text)[0];
  const body = (a) => -(rankCounts(a.play)[first] || 0);
  return plays
    .filter((a) => holdsCards(a.play, text))
    .map((a, i) => ({ a, key: [own(a) ? 0 : 1, ranksOf(a.play).length, body(a), i] }))
    .sort((x, y) => compareOrders(x.key, y.key))
    .slice(0, limit)
    .map((x) => x.a);
}

/** How many passes end the trick: the seats from ``turn`` up to the top play's seat
 * ``topSeat`` (``seats`` at the table); 0 without a play to beat. */
export function passesToTrickEnd(turn, topSeat, seats) {
  if (typeof topSeat !== "number" || typeof turn !== "number") return 0;
  return (topSeat - turn + seats) % seats;
}

/** How many plays of a seat ahead show ("<seat> passes, then <next> plays"). */
export const SHOWN_AHEAD = 6;

/** The seats ahead as the referee sees them (the API's ``ahead``, issue 29), in the
 * playing phase: ``follows`` (seats that may beat the top play after the ones before them
 * passed: [{declines, turn, plays}], the plays ordered as the buttons show them, at most
 * ``limit`` each) and ``lead`` (the passes that end the trick and the next leader's legal
 * leads: {declines, turn, plays}, or null). ``topSeat``: the top play's seat; ``order``:
 * the game's ranks. */
export function playsAhead(ahead, topSeat, limit = SHOWN_AHEAD, order = RANKS) {
  const out = { follows: [], lead: null };
  (ahead || []).forEach((entry) => {
    if (entry.phase !== "playing" || !entry.declines.every((d) => d.play === "pass")) return;
    const plays = orderPlays(entry.legal_actions.filter((a) => !a.as), order);
    if (entry.turn === topSeat) out.lead = { declines: entry.declines, turn: entry.turn, plays };
    else if (plays.length) out.follows.push({ declines: entry.declines, turn: entry.turn, plays: plays.slice(0, limit) });
  });
  return out;
}

/** How many of a lead's longest plays show with nothing tapped. */
export const SHOWN_LONGEST = 4;

/** A lead's one-tap plays with nothing tapped, among ``plays`` (ordered, orderPlays) of the
 * seat holding ``held``: its whole hand when that is one play; else its longest plays
 * (the ones that take the most taps rank by rank: a chain, a trio with its kicker, a
 * pair), lowest first, when they are longer than one card; else none. */
export function wholeOrLongest(plays, held, limit = SHOWN_LONGEST) {
  const natural = plays.filter((a) => !a.as);
  const whole = natural.filter((a) => sameCards(a.play, held));
  if (whole.length) return whole.slice(0, 1);
  const longest = Math.max(0, ...natural.map((a) => ranksOf(a.play).length));
  if (longest < 2) return [];
  return natural.filter((a) => ranksOf(a.play).length === longest).slice(0, limit);
}

/** Can one more card of ``rank`` go into the composer's ``text``, the seat holding ``held``? */
export function canAdd(held, text, rank) {
  return (rankCounts(text)[rank] || 0) < (rankCounts(held)[rank] || 0);
}

/** The playing phase's entry for ``seat``: appended to ``box`` (the controls section).
 * ``p``: the provisional continuation when writes wait, else null. ``seatName``: the
 * views' seat name. */
export function renderPlayEntry(ctx, h, seat, p, box, seatName) {
  const { T, state } = ctx;
  const legal = p ? [] : (h.legal_actions || []).filter((a) => a.seat === seat);
  const order = ranksFor(h); // the game's ranks: Big Three's 4 … A 2 3 without jokers
  const plays = orderPlays(legal, order);
  const canPassLegal = legal.some((a) => a.play === "pass");
  const top = p ? p.top : h.top_play;
  const turn = p ? p.turn : h.turn;
  const seats = h.seats || (h.doubled || h.hands || []).length || 3;
  const held = !p && h.hands && typeof h.hands[seat] === "string" ? h.hands[seat] : null;
  const physical = h.mode === "physical";
  const wildRank = h.wild ? ranksOf(h.wild) : null;
  // The plays known to be legal for the seat on turn (the cards known, nothing waiting).
  const known = held !== null && seat === h.turn && legal.length > 0;
  const input = el("input", {
    name: "notation", class: "notation", autocomplete: "off", autocapitalize: "characters",
    "aria-label": T.notation, placeholder: T.notation, value: state.composer,
  });
  const rankButtons = [];
  const act = (a) => ctx.do.act(playBody(seat, a.play, a));
  const playButton = (a, cls) => el("button", {
    type: "button", class: cls, "data-play": a.play, "data-as": a.as || null,
    title: a.as ? a.play + " → " + a.as : a.play, text: readingLabel(a, T, order),
    onclick: () => act(a),
  });
  // The plays that complete the cards tapped so far (a lead's pair, trio and kicker,
  // straight), or with nothing tapped on a lead, the seat's whole hand when it is one play,
  // else its longest plays (wholeOrLongest).
  const completing = known ? el("div", { class: "buttons completions", id: "completions" }) : null;
  let list = null;
  function update() {
    input.value = state.composer;
    rankButtons.forEach(({ button, rank, count }) => {
      const chosen = rankCounts(state.composer)[rank] || 0;
      button.disabled = chosen >= count;
      button.classList.toggle("chosen", chosen > 0);
      button.setAttribute("data-chosen", String(chosen));
      const badge = button.querySelector(".rank-count");
      badge.textContent = chosen ? chosen + "/" + count : count > 1 ? "×" + count : "";
    });
    if (!completing) return;
    const tapped = ranksOf(state.composer);
    const untapped = !tapped && !top ? wholeOrLongest(plays, held) : [];
    const whole = untapped.filter((a) => sameCards(a.play, held));
    const shown = tapped ? completions(plays, tapped) : untapped;
    completing.replaceChildren(...shown.map((a) => playButton(a, "big legal-play completion")));
    completing.hidden = shown.length === 0;
    const heading = completing.previousElementSibling;
    if (heading) {
      heading.hidden = shown.length === 0;
      heading.textContent = whole.length ? T.whole_hand : tapped ? T.completions : T.longest_plays;
    }
    if (list) list.closest("section").hidden = Boolean(tapped); // the tapped cards narrow it
  }
  input.oninput = (e) => { state.composer = e.target.value; update(); };
  // Six players (h.six): each card with its suit, as the table sees it (R13.10): "♠7 ♥7 X ".
  const six = Boolean(h.six);
  state.suit = state.suit || SUITS[0];
  const add = (rank) => {
    state.composer += six ? (rank === "X" || rank === "D" ? rank : state.suit + rank) + " " : rank;
    update();
  };

  // Following with the legal plays known: one tap records the play.
  const following = Boolean(h.top_play) && !p && seat === h.turn && canPassLegal && held !== null;
  if (following) {
    list = el("div", { class: "legal-plays buttons", id: "legal-plays" });
    list.appendChild(el("button", {
      type: "button", class: "big pass legal-play", "data-play": "pass", text: T.pass,
      onclick: () => ctx.do.act({ seat, play: "pass" }),
    }));
    const extra = [];
    plays.forEach((a, i) => {
      const button = playButton(a, "legal-play");
      button.hidden = i >= SHOWN_PLAYS;
      if (i >= SHOWN_PLAYS) extra.push(button);
      list.appendChild(button);
    });
    if (extra.length) {
      const more = el("button", {
        type: "button", class: "secondary more-plays", "aria-expanded": "false",
        text: fmtn(T, "more_plays", { n: extra.length }),
      });
      more.onclick = () => {
        const open = more.getAttribute("aria-expanded") !== "true";
        extra.forEach((b) => { b.hidden = !open; });
        more.setAttribute("aria-expanded", String(open));
        more.textContent = open ? T.fewer_plays : fmtn(T, "more_plays", { n: extra.length });
      };
      list.appendChild(more);
    }
    box.appendChild(el("section", { class: "legal" }, [
      el("h3", { text: plays.length ? T.legal_plays : T.no_legal_play }), list,
    ]));
  } else if (top && seat === turn && held === null && !(p && p.held && p.held[seat] !== null)) {
    // Physical cards: which plays beat is unknown without the seat's cards.
    box.appendChild(el("h3", { class: "cards-unknown", id: "cards-unknown", text: T.cards_unknown }));
  }

  // Every seat up to the top play's passes: one tap, the trick ends (each pass its own write).
  const passes = top && seat === turn ? passesToTrickEnd(turn, top.seat, seats) : 0;
  if (passes > 1 && (canPassLegal || p || !legal.length)) {
    box.appendChild(el("div", { class: "buttons" }, [el("button", {
      type: "button", class: "big all-pass", id: "all-pass", "data-passes": String(passes),
      text: fmt(T.all_pass, { n: passes, seat: seatName(ctx, top.seat) }),
      onclick: () => {
        for (let i = 0; i < passes; i += 1) ctx.do.act({ seat: (turn + i) % seats, play: "pass" });
      },
    })]));
  }

  if (known && top) renderAhead(ctx, h, box, seatName);

  if (held !== null) {
    // The seat's own cards, grouped by rank: the way to enter a lead (or any play).
    const groups = el("div", { class: "ranks grouped", id: "held-cards" });
    groupCards(held, order).forEach(({ rank, count }) => {
      const joker = rank === "X" || rank === "D";
      const wild = rank === wildRank;
      const button = el("button", {
        type: "button",
        class: "rank group" + (joker ? " joker joker-" + (rank === "X" ? "small" : "big") : "") + (wild ? " wild" : ""),
        "data-rank": rank, "data-count": String(count),
        "aria-label": rankLabel(rank, T) + " ×" + count + (wild ? " · " + T.wild : ""),
        onclick: () => add(rank),
      }, [el("span", { class: "rank-face", text: rankLabel(rank, T) }), el("span", { class: "rank-count" })]);
      rankButtons.push({ button, rank, count });
      groups.appendChild(button);
    });
    box.appendChild(el("h3", { class: "held-title", text: fmt(T.cards_of, { seat: seatName(ctx, seat) }) }));
    box.appendChild(groups);
    if (completing) {
      box.appendChild(el("h3", { class: "completions-title", text: T.completions }));
      box.appendChild(completing);
    }
  } else {
    // Rank buttons: with writes waiting, the ranks the seat would still hold; every rank of
    // the game when the cards are unknown (physical cards; Big Three: no joker).
    let allowed = null;
    if (p && p.held && p.held[seat] !== null) allowed = p.held[seat];
    if (six) {
      box.appendChild(el("p", { class: "hint cards-hidden", id: "cards-hidden", text: T["six:cards_hidden"] }));
      const suits = suitRow(T, state.suit, (s) => {
        state.suit = s;
        suits.querySelectorAll("button").forEach((b) => {
          const on = b.getAttribute("data-suit") === s;
          b.classList.toggle("chosen", on);
          b.setAttribute("aria-pressed", String(on));
        });
      });
      box.appendChild(suits);
    }
    const rankRow = el("div", { class: "ranks", "data-pad": order });
    order.split("").forEach((r) => {
      if (allowed !== null && !allowed.includes(r)) return;
      rankRow.appendChild(el("button", {
        type: "button", class: "rank", "data-rank": r, text: rankLabel(r, T), onclick: () => add(r),
      }));
    });
    box.appendChild(rankRow);
  }

  // Wild cards (癞子) whose readings the API does not list: physical cards it has never seen,
  // or a play entered while earlier writes wait (no legal plays known yet). The referee may
  // say what the wild cards stand for; left empty, the server lists the readings of cards
  // holding a wild card (physical cards: wild_reading_required) and the console offers them.
  const declared = wildRank && (physical || p)
    ? el("input", {
      name: "declared", class: "notation declared", autocomplete: "off", autocapitalize: "characters",
      "aria-label": T.stands_for, placeholder: T.stands_for_hint,
    })
    : null;
  box.appendChild(el("form", {
    class: "row composer",
    onsubmit: (e) => {
      e.preventDefault();
      let text = (input.value || "").trim();
      if (!text) return;
      if (/^(pass|p|过|不要)$/i.test(text)) text = "pass";
      const as = declared ? declared.value.trim() : "";
      if (as && text !== "pass") return ctx.do.act({ seat, play: text, as });
      const readings = text === "pass" ? [] : readingsOf(legal, text);
      if (readings.length > 1) ctx.do.offerReadings({ handId: h.id, seat, text, readings });
      else ctx.do.act(playBody(seat, text, readings[0]));
    },
  }, [input, declared, el("button", { type: "submit", class: "play", text: T.play })]));
  const offered = state.readings;
  if (offered && offered.handId === h.id && offered.seat === seat && offered.text === state.composer) {
    // The cards hold wild cards that can stand for several plays: the referee says which.
    box.appendChild(el("section", { class: "readings", id: "readings" }, [
      el("h3", { text: fmt(T.choose_reading, { cards: playLabel(offered.text, T, order) }) }),
      el("div", { class: "buttons" }, offered.readings.map((a) => el("button", {
        type: "button", class: "big reading", "data-as": a.as || "",
        text: a.as ? readingLabel(a, T, order) : readingLabel(a, T, order) + " · " + T.as_themselves,
        onclick: () => ctx.do.act(playBody(seat, offered.text, a, Boolean(offered.explicit))),
      }))),
    ]));
  }
  const canPass = legal.length ? canPassLegal : top !== null;
  box.appendChild(el("div", { class: "buttons" }, [
    el("button", { type: "button", class: "secondary clear", text: T.clear, onclick: () => { state.composer = ""; update(); } }),
    canPass && !following ? el("button", { type: "button", class: "big pass", text: T.pass, onclick: () => ctx.do.act({ seat, play: "pass" }) }) : null,
  ]));
  update();
}

/** The seat's cards grouped by rank, each tap calling ``add(rank)``; ``chosen``: the
 * cards tapped so far (a rank is disabled once all its cards are). */
function heldButtons(T, held, chosenText, add, wildRank, order = RANKS) {
  const chosen = rankCounts(chosenText);
  return groupCards(held, order).map(({ rank, count }) => {
    const joker = rank === "X" || rank === "D";
    const wild = rank === wildRank;
    const n = chosen[rank] || 0;
    return el("button", {
      type: "button",
      class: "rank group" + (joker ? " joker joker-" + (rank === "X" ? "small" : "big") : "") + (wild ? " wild" : "") + (n ? " chosen" : ""),
      "data-rank": rank, "data-count": String(count), "data-chosen": String(n), disabled: n >= count,
      "aria-label": rankLabel(rank, T) + " ×" + count + (wild ? " · " + T.wild : ""),
      onclick: () => add(rank),
    }, [el("span", { class: "rank-face", text: rankLabel(rank, T) }),
      el("span", { class: "rank-count", text: n ? n + "/" + count : count > 1 ? "×" + count : "" })]);
  });
}

/** The seats ahead of the one on turn, the cards known (issue 29): what the referee saw
 * happen recorded in one tap. "<seat> passes, then <next seat> plays X" (each seat that may
 * beat the top play after the ones before it passed: its beating plays); and with the
 * passes that end the trick (#all-pass), the next leader's cards: its ranks tapped, "all
 * pass, then <leader> leads X" is one tap. Every play offered is one of the API's legal
 * actions for that seat after those passes (``ahead``); each action is its own write. */
function renderAhead(ctx, h, box, seatName) {
  const { T, state } = ctx;
  const short = (s) => T["seat_" + s] || T.seat + " " + s;
  const order = ranksFor(h);
  const { follows, lead } = playsAhead(h.ahead, h.top_play.seat, SHOWN_AHEAD, order);
  const send = (declines, a) => ctx.do.actAll(declines.concat([playBody(a.seat, a.play, a)]));
  const passedOf = (declines) => declines.map((d) => short(d.seat)).join(", ");
  const aheadButton = (declines, a, cls) => {
    const values = { n: declines.length, passed: passedOf(declines), seat: short(a.seat), cards: playLabel(a.play, T, order) };
    return el("button", {
      type: "button", class: cls, "data-play": a.play, "data-seat": String(a.seat),
      "data-declines": String(declines.length), title: a.play,
      "aria-label": fmtn(T, "ahead_label", values), text: readingLabel(a, T, order),
      onclick: () => send(declines, a),
    });
  };
  follows.forEach(({ declines, turn, plays }) => {
    box.appendChild(el("section", { class: "ahead", "data-seat": String(turn), "data-declines": String(declines.length) }, [
      el("h3", { text: fmtn(T, "ahead_follow", { n: declines.length, passed: passedOf(declines), seat: short(turn) }) }),
      el("div", { class: "buttons ahead-plays" }, plays.map((a) => aheadButton(declines, a, "ahead-play"))),
    ]));
  });
  if (lead) renderLeadAfter(ctx, h, box, lead, fmt(T.lead_after, { n: lead.declines.length, seat: short(lead.turn) }));
}

/** The seats' "no"s that end a trick (or the doubling), then ``lead.turn``'s lead: that
 * seat's cards grouped by rank; its ranks tapped, the leads they complete (with nothing
 * tapped, its whole hand when it is one play, else its longest plays), each one tap:
 * the declines then the lead, each its own write. ``lead``: {declines, turn, plays}. */
export function renderLeadAfter(ctx, h, box, lead, title) {
  const { T, state } = ctx;
  const held = h.hands ? h.hands[lead.turn] : null;
  if (typeof held !== "string" || !lead.plays.length) return;
  const short = (s) => T["seat_" + s] || T.seat + " " + s;
  const wildRank = h.wild ? ranksOf(h.wild) : null;
  const order = ranksFor(h);
  const tapped = ranksOf(state.leadAfter || "");
  const shown = tapped ? completions(lead.plays, tapped) : wholeOrLongest(lead.plays, held);
  const again = () => { ctx.do.redraw(); };
  const passed = lead.declines.map((d) => short(d.seat)).join(", ");
  box.appendChild(el("section", {
    class: "lead-after", id: "lead-after", "data-seat": String(lead.turn), "data-declines": String(lead.declines.length),
  }, [
    el("h3", { text: title }),
    el("div", { class: "ranks grouped", id: "lead-after-cards" }, heldButtons(T, held, state.leadAfter || "", (rank) => {
      state.leadAfter = (state.leadAfter || "") + rank;
      again();
    }, wildRank, order)),
    el("div", { class: "buttons completions", id: "lead-after-plays", hidden: !shown.length },
      shown.map((a) => el("button", {
        type: "button", class: "big completion lead-after-play", "data-play": a.play, "data-seat": String(a.seat),
        "data-declines": String(lead.declines.length), title: a.play,
        "aria-label": fmt(T.lead_after_label, { passed, seat: short(a.seat), cards: playLabel(a.play, T, order) }),
        text: readingLabel(a, T, order),
        onclick: () => ctx.do.actAll(lead.declines.concat([playBody(a.seat, a.play, a)])),
      }))),
    tapped ? el("button", { type: "button", class: "secondary clear lead-after-clear", text: T.clear, onclick: () => { state.leadAfter = ""; again(); } }) : null,
    el("p", { class: "hint", text: T.one_at_a_time }),
  ]));
}
