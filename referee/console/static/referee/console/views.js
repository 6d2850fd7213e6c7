/* The console's views: pure functions of the state that build DOM and call the
 * controller's ``do`` callbacks (main.js). No request is made here. */

import { el, fmt, fmtn } from "./dom.js";
import { SUITS, orderPlays, rankLabel, renderLeadAfter, renderPlayEntry, suitRow } from "./entry.js";
import {
  handRow, renderAwaiting, renderConfirmation, renderEarlier, renderHandList, renderHandNotes, renderLogWords,
  stateWords,
} from "./history.js";
import { RANKS, isBig3, isSix, provisional, ranksFor, ranksOf } from "./provisional.js";
import { renderResultEntry } from "./result.js";
import { handsLeft } from "./round.js";

const LIVE = ["bidding", "doubling", "playing"];

/** "East (东) · seat 0 · Zhang Wei 张伟": the seat as every page names it (the words of
 * seat_names, from the server) and the player as the API names them in the
 * referee's language. */
export function seatName(ctx, seat) {
  const t = ctx.state.table;
  const row = t && t.seats.find((s) => s.position === seat);
  const name = ctx.T["seat_" + seat] || ctx.T.seat + " " + seat;
  return name + (row ? " · " + row.player : "");
}

/** The table's seat positions: 0, 1, 2 (and 3 at a four-seat table). */
export function seatPositions(ctx) {
  return [...Array(ctx.state.table.seat_count).keys()];
}

/** What a write does, in words: "South (南) 1 · Ann · Bid 2". */
export function actionText(ctx, body) {
  const T = ctx.T;
  let what = "";
  if ("bid" in body) what = body.bid === 0 ? T.no_bid : fmt(T.bid_n, { n: body.bid });
  else if ("double" in body) what = body.double ? T.double : T.no_double;
  else if ("redouble" in body) what = body.redouble ? T.redouble : T.no_redouble;
  else if ("call" in body) what = body.call === "none" ? T["six:call_none"] : fmt(T["six:call"], { card: body.call });
  else if ("partner" in body) what = T["six:shown"];
  else if ("play" in body) {
    what = body.play === "pass" ? T.pass : T.play + " " + body.play + (body.as ? " → " + body.as : "");
  }
  return seatName(ctx, body.seat) + " · " + what;
}

/** A hand event (from the log) in words. */
export function eventText(ctx, event) {
  const action = event.payload && event.payload.action;
  if (action && typeof action.seat === "number") return actionText(ctx, action);
  const seat = event.actor_seat === null || event.actor_seat === undefined ? "" : seatName(ctx, event.actor_seat) + " · ";
  return seat + event.kind;
}

export function render(ctx) {
  const app = ctx.app;
  app.innerHTML = "";
  if (!ctx.state.table) renderTables(ctx);
  else renderTable(ctx);
  renderQueue(ctx);
}

/** "14:05": a time of day on the phone's clock. */
export function clockTime(when) {
  const d = new Date(when);
  return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
}

/** Offline (the list of tables could not be read): said plainly, with the time of the
 * list kept on this phone, or that there is none. */
function offlineBanner(ctx) {
  const { T, state } = ctx;
  if (!state.tablesOffline) return null;
  const text = state.tablesAt ? fmt(T.tables_offline, { time: clockTime(state.tablesAt) }) : T.tables_offline_none;
  return el("p", { class: "message waiting offline-banner", id: "offline-banner", role: "status", text });
}

function renderTables(ctx) {
  const { T, state, app } = ctx;
  app.appendChild(el("h1", { text: T.my_tables }));
  const banner = offlineBanner(ctx);
  if (banner) app.appendChild(banner);
  if (!state.tables.length) {
    if (!(state.tablesOffline && !state.tablesAt)) app.appendChild(el("p", { text: T.no_tables }));
    return;
  }
  app.appendChild(el("ul", { class: "tables" }, state.tables.map((t) => {
    const ch = t.current_hand;
    // The table screen's words for where the hand stands ("Awaiting confirmation", not
    // "Finished").
    const words = ch ? stateWords(T, handRow(ch)) + (ch.status === "passed_out" ? " · " + T.status_passed_out : "") : "";
    const hand = ch ? " · " + T.hand + " " + ch.number + " (" + words + ")" : "";
    return el("li", {}, [
      el("button", {
        type: "button", class: "big table-open", "data-table": t.table,
        onclick: () => ctx.do.openTable(t),
        text: T.open + " " + T.table + " " + t.table + " · " + (t.tournament_name || t.tournament) + " · " + T.round + " " + t.round + hand,
      }),
      el("div", { class: "muted", text: t.seats.map((s) => (T["seat_" + s.position] || T.seat + " " + s.position) + ": " + s.player).join(" · ") }),
    ]);
  })));
}

function renderTable(ctx) {
  const { T, state, app } = ctx;
  const t = state.table;
  if (state.earlier) {
    renderEarlier(ctx);
    return;
  }
  app.appendChild(el("p", {}, [el("button", {
    type: "button", class: "link", text: "← " + T.back, onclick: () => ctx.do.back(),
  })]));
  app.appendChild(el("h1", { class: "table-title" }, [
    el("span", { class: "tournament-name", text: t.tournament_name || t.tournament }),
    el("span", { class: "table-where", text: T.round + " " + t.round + " · " + T.table + " " + t.table }),
  ]));
  const h = state.hand;
  if (state.conflict) {
    app.appendChild(el("div", { class: "conflict error", id: "conflict", role: "alert" }, [
      el("strong", { text: T.other_phone_first }), el("br"),
      state.conflict.recorded.length ? T.other_phone_recorded + " " + state.conflict.recorded.join("; ") : "",
      el("br"), T.yours_not_recorded + " " + state.conflict.label,
    ]));
  }
  renderAwaiting(ctx);
  const closed = !h || ["finished", "passed_out", "voided"].includes(h.status);
  if (h) renderHand(ctx, h);
  const startQueued = ctx.queue.items().some((q) => q.kind === "start" && q.tableId === t.table_id);
  if (startQueued) app.appendChild(el("p", { class: "message waiting", id: "start-waiting", text: "⏳ " + T.start_waiting }));
  // A hand awaiting confirmation does not hold the table up (issue 17): the next one starts.
  else if (closed) renderStart(ctx);
  renderHandList(ctx);
}

function renderStart(ctx) {
  const { T, state, app } = ctx;
  const left = handsLeft(state.table);
  if (left === 0) {
    // The table has played the round's hands: no start (the API would refuse it,
    // round_hands_done) until a director adds one.
    app.appendChild(el("section", { class: "start round-complete", id: "round-complete" }, [
      el("h2", { text: T.round_complete }),
      el("p", { text: fmtn(T, "round_complete_detail", { n: state.table.hands_allowed }) }),
    ]));
    return;
  }
  const board = el("input", { type: "number", min: "1", name: "board", "aria-label": T.board_number, placeholder: T.board_number });
  const first = el("select", { name: "first_bidder", "aria-label": T.first_bidder },
    seatPositions(ctx).map((s) => el("option", { value: String(s), text: seatName(ctx, s) })));
  function start(deal) {
    const body = { deal };
    if (deal === "board") body.board = parseInt(board.value, 10);
    if (deal === "physical") body.first_bidder = parseInt(first.value, 10);
    ctx.do.start(body);
  }
  app.appendChild(el("section", { class: "start" }, [
    el("h2", { text: (state.hand ? T.next_hand : T.start_hand) + (left === null ? "" : " · " + fmt(T.hands_left_n, { n: left })) }),
    el("div", { class: "buttons" }, [
      el("button", { type: "button", class: "big", "data-deal": "random", text: T.deal_random, onclick: () => start("random") }),
      // a variant table (four_p, laizi) is refereed play by play: no result-only entry
      state.table.result_only === false ? null
        : el("button", { type: "button", class: "big", "data-deal": "none", text: T.deal_none, onclick: () => start("none") }),
    ]),
    el("div", { class: "row" }, [board, el("button", { type: "button", "data-deal": "board", text: T.deal_board, onclick: () => start("board") })]),
    // Big Three: the first bidder holds ♥4, or the lowest heart (R12.4): said beside the seat.
    isBig3(state.table.rule_profile) ? el("p", { class: "hint first-bidder-hint", id: "first-bidder-hint", text: T.first_bidder }) : null,
    // Six players: physical cards start from the seat of the face-up card, the landlord (R13.3).
    isSix(state.table.rule_profile) ? el("p", { class: "hint first-bidder-hint", id: "first-bidder-hint", text: T["six:landlord_seat"] }) : null,
    el("div", { class: "row" }, [first, el("button", { type: "button", "data-deal": "physical", text: T.deal_physical, onclick: () => start("physical") })]),
  ]));
}

function renderHand(ctx, h) {
  const { T, state, app } = ctx;
  h.events = h.events || [];
  const waiting = ctx.queue.forHand(h.id);
  const p = provisional(h, waiting);
  const live = LIVE.includes(h.status);
  const box = el("section", { class: "hand", "data-status": h.status, "data-version": String(h.version) });
  box.appendChild(el("h2", { text: T.hand + " " + h.number + (h.board ? " · " + T.deal_board + " " + h.board : "") }));
  const rows = [
    [T.status, T["status_" + h.status] || h.status],
    [T.turn, h.turn === null ? "—" : seatName(ctx, h.turn)],
    [T.to_beat, h.top_play ? h.top_play.cards + " (" + seatName(ctx, h.top_play.seat) + ")" : (h.status === "playing" ? T.nothing_to_beat : "—")],
    [T.landlord, h.landlord === null ? "—" : seatName(ctx, h.landlord)],
  ];
  if (h.six) {
    // Six players: no bid; the face-up card names the landlord, his call the partner card,
    // and the partner is named only once public (R13.11): what the table may know.
    const six = h.six;
    rows.push([T["six:face_up"], six.face_up || "—"]); // physical cards: not entered
    rows.push([T["six:partner_card"], six.alone ? T["six:alone"] : (six.partner_card || "—")]);
    if (!six.alone) rows.push([T["six:partner"], six.partner === null ? T["six:partner_unknown"] : seatName(ctx, six.partner)]);
  } else if (!isSix(h.rule_profile)) {
    // (a six-player hand entered by its result has no bid and no stake per farmer: R13.9)
    rows.push([T.bid, h.bid === null ? "—" : String(h.bid)]);
    rows.push([T.multiplier, h.stakes ? h.stakes.filter((s) => s !== null).join(" / ") : "—"]);
  }
  rows.push([T.cards_left, h.cards_left ? h.cards_left.map((n, s) => s + ": " + n).join(" · ") : "—"]);
  if (h.wild) rows.push([T.wild, rankLabel(ranksOf(h.wild), T)]);
  if (h.kitty) rows.push([T.kitty, h.kitty]);
  if (h.scores) rows.push([T.scores, h.scores.map((n, s) => s + ": " + n).join(" · ")]);
  if (h.confirmation !== "not_required") rows.push([T.confirmation, T["confirmation_" + h.confirmation] || h.confirmation]);
  box.appendChild(el("dl", { class: "state", id: "hand-state" }, rows.flatMap((r) => [el("dt", { text: r[0] }), el("dd", { text: r[1] })])));
  if (h.hands) {
    box.appendChild(el("ul", { class: "held" }, h.hands.map((cards, s) => el("li", { text: seatName(ctx, s) + ": " + (cards || "—") }))));
  }
  if (waiting.length) {
    // The queued writes, shown as the hand's provisional continuation.
    const rowsP = [];
    if (live && p.count) {
      rowsP.push([T.turn, seatName(ctx, p.turn)]);
      if (h.status === "playing") rowsP.push([T.to_beat, p.top ? p.top.cards + " (" + seatName(ctx, p.top.seat) + ")" : T.nothing_to_beat]);
    }
    box.appendChild(el("section", { class: "provisional", id: "provisional" }, [
      el("h3", { text: T.provisional }),
      el("p", { class: "muted", text: T.rules_will_check }),
      el("ol", {}, waiting.map((q) => el("li", { class: "provisional-item" }, [q.label + " ", el("em", { text: "— " + T.waiting_to_send })]))),
      rowsP.length ? el("dl", { class: "state provisional-state" }, rowsP.flatMap((r) => [el("dt", { text: r[0] + " (" + T.provisional_short + ")" }), el("dd", { text: r[1] })])) : null,
    ]));
  }
  (live ? h.announcements_due || [] : []).forEach((a) => {
    box.appendChild(el("div", { class: "announce row" }, [
      el("span", { text: T.announcements_due + ": " + seatName(ctx, a.seat) + " — " + fmtn(T, "cards_left_n", { n: a.cards_left }) }),
      el("button", { type: "button", text: T.announced, onclick: () => ctx.do.announce(a.seat, true) }),
      el("button", { type: "button", class: "secondary", text: T.missing, onclick: () => ctx.do.announce(a.seat, false) }),
    ]));
  });
  if (state.rejected) {
    box.appendChild(el("div", { class: "rejected", id: "rejected", role: "alert" }, [
      el("strong", { text: T.rejected + ": " }), state.rejected.label, el("br"), state.rejected.message,
    ]));
  }
  renderHandNotes(ctx, h, box);
  app.appendChild(box);
  const wildWaiting = waiting.some((q) => q.url.endsWith("/wild/"));
  if (live && h.wild_entry && !wildWaiting) renderWildEntry(ctx, h);
  if (live && h.mode === "result_only") renderResultEntry(ctx, h);
  else if (live && !(h.wild_due && h.status === "playing" && !wildWaiting)) {
    renderControls(ctx, h, waiting.length ? p : null);
  }
  if (h.events.length && live) renderUndo(ctx, h);
  renderConfirmation(ctx, h);
  renderLogWords(ctx, h);
}

/** The ranks a wild rank is drawn from: 3 … 2, never a joker (R11.2.1). */
const WILD_RANKS = RANKS.replace(/[XD]/g, "");

/** A physical-cards laizi hand (癞子): the wild rank drawn once the landlord is known, one
 * tap on the rank turned up (R11.2.1); typed again while no card has been played. */
function renderWildEntry(ctx, h) {
  const T = ctx.T;
  const current = h.wild ? ranksOf(h.wild) : null;
  ctx.app.appendChild(el("section", { class: "wild-entry", id: "wild-entry" }, [
    el("h3", { text: h.wild_due ? T.wild_due : T.wild_change }),
    el("div", { class: "ranks" }, WILD_RANKS.split("").map((rank) => el("button", {
      type: "button", class: "rank" + (rank === current ? " chosen" : ""), "data-wild": rank,
      "aria-pressed": String(rank === current), text: rankLabel(rank, T),
      onclick: () => ctx.do.wild(h, rank),
    }))),
  ]));
}

function seatSelect(ctx, seat) {
  return el("select", {
    name: "seat", "aria-label": ctx.T.seat,
    onchange: (e) => ctx.do.setSeat(parseInt(e.target.value, 10)),
  }, seatPositions(ctx).map((s) => el("option", { value: String(s), selected: s === seat, text: seatName(ctx, s) })));
}

/** The auction's buttons while writes wait (the server's legal actions are then stale):
 * the bids, or the doubling phase's choices (a profile without doubling, such as
 * ``four_p``, never reaches that phase). */
function defaultChoices(h, seat) {
  if (h.status === "bidding") return [0, 1, 2, 3].map((n) => ({ seat, bid: n }));
  if (h.status !== "doubling") return [];
  if (seat === h.landlord) return [{ seat, redouble: true }, { seat, redouble: false }];
  return [{ seat, double: true }, { seat, double: false }];
}

/** The auction, the cards known (the API's ``ahead``, issue 29): "Nobody doubles" (every
 * seat's no, in turn: one tap, each its own write), and a bid after the seats before the
 * bidder said no bid ("<seat> no bid, then <seat>: Bid 2"). The per-seat buttons stay. */
function renderAuctionAhead(ctx, h, box) {
  const { T } = ctx;
  const short = (s) => T["seat_" + s] || T.seat + " " + s;
  const no = (d) => d.bid === 0 || d.double === false || d.redouble === false;
  (h.ahead || []).forEach((entry) => {
    const declines = entry.declines;
    if (!declines.every(no)) return;
    const passed = declines.map((d) => short(d.seat)).join(", ");
    if (h.status === "doubling" && entry.phase !== "doubling" && declines.length > 1) {
      box.appendChild(el("div", { class: "buttons" }, [el("button", {
        type: "button", class: "big all-pass nobody-doubles", id: "nobody-doubles",
        "data-declines": String(declines.length),
        text: fmt(T.nobody_doubles, { n: declines.length, seats: passed }),
        onclick: () => ctx.do.actAll(declines),
      })]));
      // …and the landlord's lead after it, one tap (its cards, then the play).
      const lead = { declines, turn: entry.turn, plays: orderPlays(entry.legal_actions.filter((a) => !a.as), ranksFor(h)) };
      renderLeadAfter(ctx, h, box, lead, fmt(T.lead_after_doubling, { seat: short(entry.turn) }));
    }
    if (h.status === "bidding" && entry.phase === "bidding") {
      const bids = entry.legal_actions.filter((a) => a.bid > 0);
      if (!bids.length) return;
      box.appendChild(el("section", { class: "ahead ahead-auction", "data-seat": String(entry.turn) }, [
        el("h3", { text: fmtn(T, "ahead_bid", { n: declines.length, passed, seat: short(entry.turn) }) }),
        el("div", { class: "buttons" }, bids.map((a) => el("button", {
          type: "button", class: "action ahead-bid", "data-action": "bid", "data-value": String(a.bid),
          "data-seat": String(a.seat), "data-declines": String(declines.length),
          "aria-label": fmtn(T, "ahead_bid", { n: declines.length, passed, seat: short(entry.turn) }) + " " + fmt(T.bid_n, { n: a.bid }),
          text: fmt(T.bid_n, { n: a.bid }),
          onclick: () => ctx.do.actAll(declines.concat([a])),
        }))),
      ]));
    }
  });
}

/** ``p``: the provisional continuation when writes wait (the server's legal actions are
 * then out of date: the rank buttons come from the cards the seat would still hold). */
function renderControls(ctx, h, p) {
  const { T, state, app } = ctx;
  if (state.seat === null || state.seat === undefined) state.seat = (p ? p.turn : h.turn) ?? 0;
  const seat = state.seat;
  const legal = p ? [] : (h.legal_actions || []).filter((a) => a.seat === seat);
  const box = el("section", { class: "controls" });
  box.appendChild(el("div", { class: "row" }, [seatSelect(ctx, seat)]));
  const buttons = el("div", { class: "buttons" });
  if (h.status === "bidding" || h.status === "doubling") {
    (legal.length ? legal : defaultChoices(h, seat)).forEach((a) => {
      const body = { seat };
      let text;
      let what;
      if ("bid" in a) { body.bid = a.bid; what = "bid"; text = a.bid === 0 ? T.no_bid : fmt(T.bid_n, { n: a.bid }); }
      else if ("double" in a) { body.double = a.double; what = "double"; text = a.double ? T.double : T.no_double; }
      else if ("redouble" in a) { body.redouble = a.redouble; what = "redouble"; text = a.redouble ? T.redouble : T.no_redouble; }
      else return;
      buttons.appendChild(el("button", {
        type: "button", class: "big action", "data-action": what, "data-value": String(body[what]),
        text, onclick: () => ctx.do.act(body),
      }));
    });
    box.appendChild(buttons);
    // Big Three's auction in words (R12.5.1, R12.5.3): the console offers what the API lists.
    const auction = h.status === "bidding" && isBig3(h.rule_profile) ? T["auction_" + h.rule_profile] : null;
    if (auction) box.appendChild(el("p", { class: "hint auction-rule", id: "auction-rule", text: auction }));
    if (!p && seat === h.turn) renderAuctionAhead(ctx, h, box);
    app.appendChild(box);
    return;
  }
  if (h.six && h.six.phase === "calling") {
    renderCall(ctx, h, box);
    app.appendChild(box);
    return;
  }
  if (h.six && h.six.phase === "naming") {
    renderNaming(ctx, h, box);
    app.appendChild(box);
    return;
  }
  renderPlayEntry(ctx, h, seat, p, box, seatName);
  app.appendChild(box);
}

/** Six players: the landlord's call of the partner card (R13.4), as he says it at the
 * table: its suit and rank, or none (he plays alone, R13.5). The server checks it. */
function renderCall(ctx, h, box) {
  const { T, state } = ctx;
  const seat = h.landlord;
  state.callSuit = state.callSuit || SUITS[0];
  const card = () => (state.callRank ? state.callSuit + state.callRank : null);
  const send = el("button", {
    type: "button", class: "big call", id: "call-card", disabled: !card(),
    text: card() ? fmt(T["six:call"], { card: state.callSuit + rankLabel(state.callRank, T) }) : fmt(T["six:call"], { card: "…" }),
    onclick: () => { if (card()) ctx.do.act({ seat, call: card() }); },
  });
  const redraw = () => ctx.do.redraw();
  box.appendChild(el("section", { class: "call-entry", id: "call-entry" }, [
    el("h3", { text: T["six:call_title"] }),
    suitRow(T, state.callSuit, (s) => { state.callSuit = s; redraw(); }),
    el("div", { class: "ranks" }, RANKS.replace(/[XD]/g, "").split("").map((rank) => el("button", {
      type: "button", class: "rank" + (rank === state.callRank ? " chosen" : ""), "data-call-rank": rank,
      "aria-pressed": String(rank === state.callRank), text: rankLabel(rank, T),
      onclick: () => { state.callRank = rank; redraw(); },
    }))),
    el("div", { class: "buttons" }, [
      send,
      el("button", {
        type: "button", class: "secondary call-none", id: "call-none", text: T["six:call_none"],
        onclick: () => ctx.do.act({ seat, call: "none" }),
      }),
    ]),
  ]));
}

/** Six players from physical cards: the hand ended before the partner played the partner
 * card, so the seat that shows its third copy is entered (R13.8): any seat but the
 * landlord's that still holds cards. */
function renderNaming(ctx, h, box) {
  const { T } = ctx;
  const seats = seatPositions(ctx).filter((s) => s !== h.landlord && (!h.cards_left || h.cards_left[s] > 0));
  box.replaceChildren(el("section", { class: "naming", id: "partner-naming" }, [
    el("h3", { text: fmt(T["six:naming"], { card: h.six.partner_card }) }),
    el("div", { class: "buttons" }, seats.map((s) => el("button", {
      type: "button", class: "big partner-shown", "data-seat": String(s), text: seatName(ctx, s),
      onclick: () => ctx.do.act({ seat: s, partner: true }),
    }))),
  ]));
}

/** Undo: the button alone; a tap asks, right there, why (the reason the log keeps), and
 * the undo is sent once one is typed and confirmed. */
function renderUndo(ctx, h) {
  const { T, state } = ctx;
  const asking = state.undoAsk && state.undoAsk.handId === h.id;
  if (!asking) {
    ctx.app.appendChild(el("div", { class: "row undo" }, [el("button", {
      type: "button", class: "secondary", id: "undo", text: T.undo,
      onclick: () => ctx.do.askUndo(h),
    })]));
    return;
  }
  const reason = el("input", {
    name: "undo_reason", id: "undo-reason", autocomplete: "off", required: true,
    "aria-label": T.undo_why, placeholder: T.reason, value: state.undoAsk.reason,
  });
  const confirm = el("button", { type: "submit", class: "secondary", id: "undo-confirm", text: T.undo_confirm });
  const ready = () => { confirm.disabled = !reason.value.trim(); };
  reason.oninput = () => { state.undoAsk.reason = reason.value; ready(); };
  const form = el("form", {
    class: "undo undo-ask", id: "undo-ask",
    onsubmit: (e) => { e.preventDefault(); ctx.do.undo(h, reason.value.trim()); },
  }, [
    el("label", { for: "undo-reason", text: T.undo_why }),
    el("div", { class: "row" }, [
      reason, confirm,
      el("button", { type: "button", class: "link", id: "undo-cancel", text: T.cancel, onclick: () => ctx.do.cancelUndo() }),
    ]),
  ]);
  ready();
  ctx.app.appendChild(form);
  reason.focus();
}

/** The waiting list (every write of this referee still on this phone, each named) and its
 * buttons; then the writes typed on this phone by others, counted per typist and never
 * named one by one (they wait for their typist to sign in). */
export function renderQueue(ctx) {
  const { T, queue } = ctx;
  const box = ctx.queueBox;
  const items = queue.items();
  const others = queue.othersByTypist();
  box.innerHTML = "";
  if (!items.length && !others.length && !ctx.state.signedOut) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (ctx.state.signedOut) {
    box.appendChild(el("p", { class: "signed-out error", id: "signed-out", role: "alert" }, [
      T.signed_out + " ",
      el("a", { href: ctx.loginUrl, class: "sign-in-again", text: T.sign_in_again }),
    ]));
  }
  if (others.length) {
    box.appendChild(el("div", { class: "queue-others", id: "queue-others" }, [
      ...others.map((o) => el("p", {
        class: "others-waiting", "data-typist": o.by,
        text: fmtn(T, "others_waiting", { n: o.count, name: o.name || T.another_referee }),
      })),
      el("button", { type: "button", class: "secondary discard-others", text: T.discard_others, onclick: () => ctx.do.discardOthers() }),
    ]));
  }
  if (!items.length) return;
  box.appendChild(el("p", { class: "queue-title", text: T.waiting + " (" + items.length + ")" }));
  if (!navigator.onLine) box.appendChild(el("p", { text: T.offline }));
  if (queue.held()) box.appendChild(el("p", { text: T.held_back }));
  box.appendChild(el("ol", {}, items.map((q) => el("li", { class: "queued", text: q.label }))));
  box.appendChild(el("button", { type: "button", text: T.send_waiting, onclick: () => ctx.do.sendNow() }));
  if (queue.held() || ctx.state.signedOut) {
    box.appendChild(el("button", { type: "button", class: "secondary", text: T.discard_waiting, onclick: () => ctx.do.discard() }));
  }
}

/** ok: true recorded; false refused; "waiting" kept on the phone. */
export function showVerdict(ctx, ok, label, text) {
  const T = ctx.T;
  const waiting = ok === "waiting";
  const prefix = waiting ? "⏳ " : ok ? "✓ " : "✗ " + T.rejected + ": ";
  const box = ctx.messageBox;
  box.hidden = false;
  box.className = "message " + (waiting ? "waiting" : ok ? "ok" : "error");
  box.textContent = prefix + label + " — " + text;
}
