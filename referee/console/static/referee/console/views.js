/* The console's views: pure functions of the state that build DOM and call the
 * controller's ``do`` callbacks (main.js). No request is made here. */

import { el, fmt } from "./dom.js";
import { RANKS, provisional, ranksOf } from "./provisional.js";

const LIVE = ["bidding", "doubling", "playing"];

export function seatName(ctx, seat) {
  const t = ctx.state.table;
  const row = t && t.seats.find((s) => s.position === seat);
  return ctx.T.seat + " " + seat + (row ? " · " + row.player : "");
}

/** What a write does, in words: "Seat 1 · Ann · Bid 2". */
export function actionText(ctx, body) {
  const T = ctx.T;
  let what = "";
  if ("bid" in body) what = body.bid === 0 ? T.no_bid : fmt(T.bid_n, { n: body.bid });
  else if ("double" in body) what = body.double ? T.double : T.no_double;
  else if ("redouble" in body) what = body.redouble ? T.redouble : T.no_redouble;
  else if ("play" in body) what = body.play === "pass" ? T.pass : T.play + " " + body.play;
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

function renderTables(ctx) {
  const { T, state, app } = ctx;
  app.appendChild(el("h1", { text: T.my_tables }));
  if (!state.tables.length) {
    app.appendChild(el("p", { text: T.no_tables }));
    return;
  }
  app.appendChild(el("ul", { class: "tables" }, state.tables.map((t) => {
    const ch = t.current_hand;
    const hand = ch ? " · " + T.hand + " " + ch.number + " (" + (T["status_" + ch.status] || ch.status) + ")" : "";
    return el("li", {}, [
      el("button", {
        type: "button", class: "big table-open", "data-table": t.table,
        onclick: () => ctx.do.openTable(t),
        text: T.open + " " + T.table + " " + t.table + " · " + t.tournament + " · " + T.round + " " + t.round + hand,
      }),
      el("div", { class: "muted", text: t.seats.map((s) => s.position + ": " + s.player).join(" · ") }),
    ]);
  })));
}

function renderTable(ctx) {
  const { T, state, app } = ctx;
  const t = state.table;
  app.appendChild(el("p", {}, [el("button", {
    type: "button", class: "link", text: "← " + T.back, onclick: () => ctx.do.back(),
  })]));
  app.appendChild(el("h1", { text: t.tournament + " · " + T.round + " " + t.round + " · " + T.table + " " + t.table }));
  const h = state.hand;
  if (state.conflict) {
    app.appendChild(el("div", { class: "conflict error", id: "conflict", role: "alert" }, [
      el("strong", { text: T.other_phone_first }), el("br"),
      state.conflict.recorded.length ? T.other_phone_recorded + " " + state.conflict.recorded.join("; ") : "",
      el("br"), T.yours_not_recorded + " " + state.conflict.label,
    ]));
  }
  const closed = !h || ["finished", "passed_out", "voided"].includes(h.status);
  if (h) renderHand(ctx, h);
  const startQueued = ctx.queue.items().some((q) => q.kind === "start" && q.tableId === t.table_id);
  if (startQueued) app.appendChild(el("p", { class: "message waiting", id: "start-waiting", text: "⏳ " + T.start_waiting }));
  else if (closed && !(h && h.confirmation === "pending")) renderStart(ctx);
}

function renderStart(ctx) {
  const { T, state, app } = ctx;
  const board = el("input", { type: "number", min: "1", name: "board", "aria-label": T.board_number, placeholder: T.board_number });
  const first = el("select", { name: "first_bidder", "aria-label": T.first_bidder },
    [0, 1, 2].map((s) => el("option", { value: String(s), text: seatName(ctx, s) })));
  function start(deal) {
    const body = { deal };
    if (deal === "board") body.board = parseInt(board.value, 10);
    if (deal === "physical") body.first_bidder = parseInt(first.value, 10);
    ctx.do.start(body);
  }
  app.appendChild(el("section", { class: "start" }, [
    el("h2", { text: state.hand ? T.next_hand : T.start_hand }),
    el("div", { class: "buttons" }, [
      el("button", { type: "button", class: "big", "data-deal": "random", text: T.deal_random, onclick: () => start("random") }),
      el("button", { type: "button", class: "big", "data-deal": "none", text: T.deal_none, onclick: () => start("none") }),
    ]),
    el("div", { class: "row" }, [board, el("button", { type: "button", "data-deal": "board", text: T.deal_board, onclick: () => start("board") })]),
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
    [T.bid, h.bid === null ? "—" : String(h.bid)],
    [T.multiplier, h.stakes ? h.stakes.filter((s) => s !== null).join(" / ") : "—"],
    [T.cards_left, h.cards_left ? h.cards_left.map((n, s) => s + ": " + n).join(" · ") : "—"],
  ];
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
      el("span", { text: T.announcements_due + ": " + seatName(ctx, a.seat) + " — " + fmt(T.cards_left_n, { n: a.cards_left }) }),
      el("button", { type: "button", text: T.announced, onclick: () => ctx.do.announce(a.seat, true) }),
      el("button", { type: "button", class: "secondary", text: T.missing, onclick: () => ctx.do.announce(a.seat, false) }),
    ]));
  });
  if (state.rejected) {
    box.appendChild(el("div", { class: "rejected", id: "rejected", role: "alert" }, [
      el("strong", { text: T.rejected + ": " }), state.rejected.label, el("br"), state.rejected.message,
    ]));
  }
  app.appendChild(box);
  if (live && h.mode === "result_only") renderResultForm(ctx, h);
  else if (live) renderControls(ctx, h, waiting.length ? p : null);
  if (h.events.length && live) renderUndo(ctx, h);
  if (h.confirmation === "pending" || h.confirmation === "disputed") renderConfirm(ctx, h);
  renderLog(ctx, h);
}

function seatSelect(ctx, seat) {
  return el("select", {
    name: "seat", "aria-label": ctx.T.seat,
    onchange: (e) => ctx.do.setSeat(parseInt(e.target.value, 10)),
  }, [0, 1, 2].map((s) => el("option", { value: String(s), selected: s === seat, text: seatName(ctx, s) })));
}

function defaultChoices(h, seat) {
  if (h.status === "bidding") return [0, 1, 2, 3].map((n) => ({ seat, bid: n }));
  if (seat === h.landlord) return [{ seat, redouble: true }, { seat, redouble: false }];
  return [{ seat, double: true }, { seat, double: false }];
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
      if ("bid" in a) { body.bid = a.bid; text = a.bid === 0 ? T.no_bid : fmt(T.bid_n, { n: a.bid }); }
      else if ("double" in a) { body.double = a.double; text = a.double ? T.double : T.no_double; }
      else if ("redouble" in a) { body.redouble = a.redouble; text = a.redouble ? T.redouble : T.no_redouble; }
      else return;
      buttons.appendChild(el("button", { type: "button", class: "big action", text, onclick: () => ctx.do.act(body) }));
    });
    box.appendChild(buttons);
    app.appendChild(box);
    return;
  }
  // Rank buttons: the ranks of the legal plays; with writes waiting, the ranks the seat
  // would still hold; every rank when the cards are unknown (physical cards).
  const plays = legal.filter((a) => typeof a.play === "string" && a.play !== "pass");
  let allowed = null;
  if (plays.length) allowed = ranksOf(plays.map((a) => a.play).join(""));
  else if (p && p.held && p.held[seat] !== null) allowed = p.held[seat];
  const input = el("input", {
    name: "notation", class: "notation", autocomplete: "off", autocapitalize: "characters",
    "aria-label": T.notation, placeholder: T.notation, value: state.composer,
    oninput: (e) => { state.composer = e.target.value; },
  });
  const rankRow = el("div", { class: "ranks" });
  RANKS.split("").forEach((r) => {
    if (allowed !== null && !allowed.includes(r)) return;
    rankRow.appendChild(el("button", {
      type: "button", class: "rank", "data-rank": r, text: r,
      onclick: () => { state.composer += r; input.value = state.composer; },
    }));
  });
  box.appendChild(rankRow);
  box.appendChild(el("form", {
    class: "row composer",
    onsubmit: (e) => {
      e.preventDefault();
      let text = (input.value || "").trim();
      if (!text) return;
      if (/^(pass|p|过|不要)$/i.test(text)) text = "pass";
      ctx.do.act({ seat, play: text });
    },
  }, [input, el("button", { type: "submit", class: "play", text: T.play })]));
  const top = p ? p.top : h.top_play;
  const canPass = plays.length || legal.length ? legal.some((a) => a.play === "pass") : top !== null;
  box.appendChild(el("div", { class: "buttons" }, [
    el("button", { type: "button", class: "secondary", text: T.clear, onclick: () => { state.composer = ""; input.value = ""; } }),
    canPass ? el("button", { type: "button", class: "big pass", text: T.pass, onclick: () => ctx.do.act({ seat, play: "pass" }) }) : null,
  ]));
  app.appendChild(box);
}

function renderUndo(ctx, h) {
  const T = ctx.T;
  const reason = el("input", { name: "undo_reason", "aria-label": T.reason, placeholder: T.reason });
  ctx.app.appendChild(el("form", {
    class: "row undo",
    onsubmit: (e) => { e.preventDefault(); ctx.do.undo(h, reason.value.trim()); },
  }, [reason, el("button", { type: "submit", class: "secondary", text: T.undo })]));
}

function renderResultForm(ctx, h) {
  const T = ctx.T;
  const seatOptions = (name) => el("select", { name }, [0, 1, 2].map((s) => el("option", { value: String(s), text: seatName(ctx, s) })));
  const number = (name, min, max, value) => el("input", { type: "number", name, min: String(min), max: String(max), value: String(value) });
  const check = (name) => el("input", { type: "checkbox", name });
  const field = (text, input) => el("label", {}, [text + " ", input]);
  const landlord = seatOptions("landlord");
  const bid = number("bid", 1, 3, 1);
  const winner = el("select", { name: "winner" }, [
    el("option", { value: "landlord", text: T.winner_landlord }),
    el("option", { value: "defenders", text: T.winner_defenders }),
  ]);
  const doubled = [0, 1, 2].map((s) => check("doubled_" + s));
  const redoubled = check("redoubled");
  const bombs = number("bombs", 0, 13, 0);
  const rockets = number("rockets", 0, 1, 0);
  const spring = check("spring");
  const anti = check("anti_spring");
  ctx.app.appendChild(el("form", {
    class: "stack result-form",
    onsubmit: (e) => {
      e.preventDefault();
      ctx.do.result(h, {
        landlord: parseInt(landlord.value, 10), bid: parseInt(bid.value, 10), winner: winner.value,
        doubled: doubled.map((c) => c.checked), redoubled: redoubled.checked,
        bombs: parseInt(bombs.value, 10) || 0, rockets: parseInt(rockets.value, 10) || 0,
        spring: spring.checked, anti_spring: anti.checked,
      });
    },
  }, [
    el("h2", { text: T.result_form }),
    field(T.landlord, landlord), field(T.bid, bid), field(T.winner, winner),
    el("div", { class: "row" }, [T.doubled + ": "].concat(doubled.map((c, s) => el("label", {}, [c, " " + s])))),
    field(T.redoubled, redoubled), field(T.bombs, bombs), field(T.rockets, rockets),
    field(T.spring, spring), field(T.anti_spring, anti),
    el("button", { type: "submit", class: "big", text: T.save_result }),
  ]));
}

function renderConfirm(ctx, h) {
  const T = ctx.T;
  const reason = el("input", { name: "dispute_reason", "aria-label": T.reason, placeholder: T.reason });
  ctx.app.appendChild(el("section", { class: "confirm" }, [
    el("button", { type: "button", class: "big", text: T.confirm, onclick: () => ctx.do.confirm(h) }),
    el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); ctx.do.dispute(h, reason.value.trim()); } },
      [reason, el("button", { type: "submit", class: "secondary", text: T.dispute })]),
  ]));
}

function renderLog(ctx, h) {
  ctx.app.appendChild(el("details", { class: "log" }, [
    el("summary", { text: ctx.T.log + " (" + h.events.length + ")" }),
    el("ol", {}, h.events.map((e) => el("li", {
      text: e.kind + (e.actor_seat === null ? "" : " · " + e.actor_seat) + " · " + JSON.stringify(e.payload),
    }))),
  ]));
}

/** The waiting list (every write still on this phone, each named) and its buttons. */
export function renderQueue(ctx) {
  const { T, queue } = ctx;
  const box = ctx.queueBox;
  const items = queue.items();
  box.innerHTML = "";
  if (!items.length && !ctx.state.signedOut) {
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
