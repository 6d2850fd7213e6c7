/* A table's hands this round (GET tables/{id}/: each hand's state, who confirmed it, its
 * scores; what still awaits confirmation), an earlier hand opened read only with its log in
 * words, and a hand's confirmation on this phone: Confirm / Dispute by an official (through
 * the queue), or the players' PINs (sent at once, never queued: no PIN is kept on the
 * phone). The word functions are pure: ``W`` is the console strings, ``name(seat)`` names
 * a seat. */

import { DONE, classify, errorText, newKey } from "./api.js";
import { el, fmt, fmtn } from "./dom.js";
import { rankLabel } from "./entry.js";
import { seatName, seatPositions, showVerdict } from "./views.js";

const LIVE = ["bidding", "doubling", "playing"];

/** A score with its sign: "+4", "-2", "0". */
export function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

/** Scores per seat: "0: +4 · 1: -2 · 2: -2". */
export function scoresWords(scores) {
  return scores.map((n, s) => s + ": " + signed(n)).join(" · ");
}

/** A result (the API's result fields: landlord, bid, doubled…, winner) in words, with the
 * scores when given. */
export function resultWords(W, result, name, scores) {
  const parts = [fmt(W.res_landlord, { seat: name(result.landlord) })];
  // six players: the partner (or nobody) and no bid (the base, R13.3)
  if ("partner" in result) parts.push(result.partner === null ? W["six:partner_none"] : fmt(W["six:res_partner"], { seat: name(result.partner) }));
  if (result.bid != null) parts.push(fmt(W.res_bid, { n: result.bid }));
  const doubled = (result.doubled || []).map((d, s) => (d ? s : null)).filter((s) => s !== null);
  if (doubled.length) parts.push(fmt(W.res_doubled, { seats: doubled.map(name).join(W.comma) }));
  if (result.redoubled) parts.push(W.res_redoubled);
  if (result.bombs) parts.push(fmt(W.res_bombs, { n: result.bombs }));
  if (result.rockets) parts.push(W.res_rocket);
  if (result.spring) parts.push(W.res_spring);
  if (result.anti_spring) parts.push(W.res_anti_spring);
  parts.push(result.winner === "landlord" ? W.res_landlord_wins : W.res_defenders_win);
  if (scores) parts.push(fmt(W.res_scores, { scores: scoresWords(scores) }));
  return parts.join(W.comma);
}

/** A bid, double, redouble, play or pass in words (a hidden play's cards are null; a
 * declared play's ``as``, what its wild cards stood for, follows its cards). */
export function actionWords(W, action, name) {
  const seat = name(action.seat);
  if ("bid" in action) return action.bid === 0 ? fmt(W.ev_no_bid, { seat }) : fmt(W.ev_bid, { seat, n: action.bid });
  if ("double" in action) return fmt(action.double ? W.ev_double : W.ev_no_double, { seat });
  if ("redouble" in action) return fmt(action.redouble ? W.ev_redouble : W.ev_no_redouble, { seat });
  // six players: the landlord's call of the partner card (R13.4), or none (R13.5)
  if ("call" in action) return seat + " · " + (action.call === "none" ? W["six:call_none"] : fmt(W["six:call"], { card: action.call }));
  // six players, physical cards: the seat that shows the partner card at the end (R13.8)
  if ("partner" in action) return seat + " · " + W["six:shown"];
  if (action.play === "pass") return fmt(W.ev_pass, { seat });
  if (action.play === null || action.play === undefined) return fmt(W.ev_play_hidden, { seat });
  // A play with wild cards (癞子) says what they stood for: "77K → KKK".
  if (action.as) return fmt(W.ev_play_as, { seat, cards: action.play, declared: action.as });
  return fmt(W.ev_play, { seat, cards: action.play });
}

/** A result field (as an override names it) and its value, in words. */
export function fieldWords(W, field, value, name) {
  const labels = {
    landlord: W.landlord, bid: W.bid, winner: W.winner, doubled: W.doubles, redoubled: W.redoubled,
    bombs: W.bombs, rockets: W.rocket, spring: W.spring, anti_spring: W.anti_spring, passed_out: W.passed_out,
  };
  let text;
  if (value === null || value === undefined) text = "—";
  else if (field === "landlord") text = name(value);
  else if (field === "winner") text = value === "landlord" ? W.winner_landlord : W.winner_defenders;
  else if (field === "doubled") {
    const seats = value.map((d, s) => (d ? s : null)).filter((s) => s !== null);
    text = seats.length ? seats.map(name).join(W.comma) : W.none;
  } else if (typeof value === "boolean") text = value ? W.yes : W.no;
  else text = String(value);
  return { label: labels[field] || field, text };
}

/** A rules code (SPEC R9.1) in words, else the library's explanation. */
function codeWords(W, check) {
  return W["code_" + check.code] || check.rule || check.code;
}

/** One event of a hand's log in words, whatever its kind. */
export function eventWords(W, event, name) {
  const p = event.payload || {};
  const reason = p.reason || "";
  let text;
  switch (event.kind) {
    case "bid":
    case "double":
    case "redouble":
    case "play":
    case "call":
    case "partner":
      text = actionWords(W, p.action, name);
      if (p.reveals_partner) text += W["six:revealed"]; // six players: public from here (R13.11)
      break;
    case "announce":
      text = fmtn(W, "ev_announce", { seat: name(p.seat), n: p.cards_left });
      break;
    case "announce_missing":
      text = fmtn(W, "ev_announce_missing", { seat: name(p.seat), n: p.cards_left });
      break;
    case "undo":
      text = fmt(W.ev_undo, { action: p.action ? actionWords(W, p.action, name) : "—", reason });
      break;
    case "result":
      text = fmt(W.ev_result, { result: resultWords(W, p.result, name, p.scores) });
      break;
    case "pass_out":
      text = W.ev_pass_out;
      break;
    case "correction":
      if (p.passed_out) text = fmt(W.ev_correction_passed_out, { reason });
      else text = fmt(p.override ? W.ev_override : W.ev_correction, { result: resultWords(W, p.result, name, p.scores), reason });
      break;
    case "void":
      text = fmt(W.ev_void, { reason });
      break;
    case "wild":
      text = fmt(W.ev_wild, { rank: rankLabel(p.wild, W) });
      break;
    case "deal": {
      const check = p.check;
      if (!check) text = W.ev_deal;
      else if (check.ok) text = W.ev_deal_ok;
      else text = fmt(W.ev_deal_failed, { n: (check.index ?? 0) + 1, rule: codeWords(W, check) });
      break;
    }
    case "confirm":
      if (p.keep) text = fmt(W.ev_keep, { reason });
      else if (p.by === "players") text = fmt(W.ev_confirm_players, { seats: (p.seats || []).map(name).join(W.comma) });
      else text = W.ev_confirm_official;
      break;
    case "dispute":
      text = p.irregular ? W.ev_irregular : fmt(W.ev_dispute, { reason });
      break;
    case "seat_correction":
      text = fmt(W.ev_seat_correction, { position: p.position, reason });
      break;
    case "note":
      text = fmt(W.ev_note, { text: p.text || p.note || reason });
      break;
    default:
      text = event.kind;
  }
  if (p.needs_confirmation) text += " · " + W.ev_awaits;
  return text;
}

/** A hand read from the API (``hands/{id}/``) as a row of the table's list: its state
 * (the results desk's) and, once confirmed, by whom (its last ``confirm`` event). */
export function handRow(h) {
  let state = "finished";
  if (h.status === "voided") state = "voided";
  else if (h.irregular) state = "irregular";
  else if (LIVE.includes(h.status)) state = "playing";
  else if (h.confirmation === "pending") state = "awaiting";
  else if (h.confirmation === "disputed") state = "disputed";
  else if (h.confirmation === "confirmed") state = "confirmed";
  const confirms = (h.events || []).filter((e) => e.kind === "confirm");
  const last = confirms[confirms.length - 1];
  const by = state === "confirmed" && last ? (last.payload.by === "players" ? "players" : "official") : null;
  return { state, confirmed_by: by, seats: by === "players" ? last.payload.seats || [] : [] };
}

/** A list row's state in words: "Confirmed by the players (Ann, Bob)". */
export function stateWords(W, row) {
  if (row.state === "confirmed" && row.confirmed_by) {
    return W["state_confirmed_" + row.confirmed_by] + (row.confirmer ? " (" + row.confirmer + ")" : "");
  }
  return W["state_" + row.state] || row.state;
}

// ----------------------------------------------------------------------------- views
const nameOf = (ctx) => (seat) => seatName(ctx, seat);

/** Who confirms at this table: "official" or "players". */
function confirmedBy(ctx) {
  const t = ctx.state.tableHands || ctx.state.table || {};
  return t.confirmed_by || "official";
}

/** The open table's hands (GET tables/{id}/), once read. */
function tableHandsOf(ctx) {
  const { tableHands, table } = ctx.state;
  return tableHands && table && tableHands.table_id === table.table_id ? tableHands : null;
}

/** What still awaits confirmation at the table, each hand a button that opens it (in a
 * slot that ``refreshHandList`` fills again once the list is read). */
export function renderAwaiting(ctx) {
  ctx.app.appendChild(el("div", { id: "awaiting-slot" }, [awaitingNode(ctx)]));
}

function awaitingNode(ctx) {
  const T = ctx.T;
  const t = tableHandsOf(ctx);
  const awaiting = (t && t.awaiting_confirmation) || [];
  if (!awaiting.length) return null;
  return el("p", { class: "awaiting", id: "awaiting-confirmation" }, [T.awaiting_list + " "].concat(
    awaiting.map((a) => el("button", {
      type: "button", class: "secondary awaiting-hand", "data-hand-id": String(a.id),
      text: T.hand + " " + a.number, onclick: () => ctx.do.openEarlier(a.id),
    })),
  ));
}

/** The table's hands this round, each with its state and scores (in a slot, as above). */
export function renderHandList(ctx) {
  ctx.app.appendChild(el("div", { id: "hands-slot" }, [handListNode(ctx)]));
}

function handListNode(ctx) {
  const T = ctx.T;
  const t = tableHandsOf(ctx);
  if (!t) return null;
  const box = el("section", { class: "table-hands", id: "table-hands" }, [el("h2", { text: T.hands_this_round })]);
  if (!t.hands.length) box.appendChild(el("p", { class: "muted", text: T.no_hands_yet }));
  box.appendChild(el("ol", { class: "hand-list" }, t.hands.map((row) => el("li", {}, [el("button", {
    type: "button", class: "hand-row", "data-hand-id": String(row.id), "data-state": row.state,
    onclick: () => ctx.do.openEarlier(row.id),
  }, [
    el("strong", { text: T.hand + " " + row.number + (row.board ? " · " + T.deal_board + " " + row.board : "") }),
    " · " + stateWords(T, row)
      + (row.status === "passed_out" ? " · " + T.status_passed_out : "")
      + (row.overridden ? " · " + T.overridden : ""),
    el("br"),
    el("span", { class: "scores", text: row.scores ? scoresWords(row.scores) : "—" }),
  ])]))));
  return box;
}

/** Fill the two slots again (the rest of the screen, a form being typed in, stays). */
export function refreshHandList(ctx) {
  [["awaiting-slot", awaitingNode], ["hands-slot", handListNode]].forEach(([id, node]) => {
    const slot = document.getElementById(id);
    if (!slot) return;
    slot.innerHTML = "";
    const made = node(ctx);
    if (made) slot.appendChild(made);
  });
}

/** An earlier hand, read only: its state, result, scores per seat, irregularity or
 * override, its confirmation and its log in words. */
export function renderEarlier(ctx) {
  const { T, state, app } = ctx;
  const h = state.earlier;
  const name = nameOf(ctx);
  const row = handRow(h);
  app.appendChild(el("p", {}, [el("button", {
    type: "button", class: "link", id: "back-to-table", text: "← " + T.back_to_table, onclick: () => ctx.do.closeEarlier(),
  })]));
  app.appendChild(el("h1", {
    text: T.table + " " + h.table + " · " + T.hand + " " + h.number + (h.board ? " · " + T.deal_board + " " + h.board : ""),
  }));
  const box = el("section", { class: "earlier-hand", id: "earlier-hand", "data-state": row.state, "data-hand-id": String(h.id) });
  box.appendChild(el("p", { class: "muted", text: T.earlier_hand }));
  const rows = [
    [T.status, stateWords(T, Object.assign({ confirmer: row.seats.map(name).join(T.comma) }, row))
      + (h.status === "passed_out" ? " · " + T.status_passed_out : "")],
    [T.result, h.landlord === null || h.winner === null ? "—" : resultWords(T, h, name)],
  ];
  box.appendChild(el("dl", { class: "state", id: "earlier-state" }, rows.flatMap((r) => [el("dt", { text: r[0] }), el("dd", { text: r[1] })])));
  if (h.scores) {
    box.appendChild(el("ul", { class: "seat-scores" }, h.scores.map((n, s) => el("li", { "data-seat": String(s), text: name(s) + ": " + signed(n) }))));
  }
  renderHandNotes(ctx, h, box);
  if (state.rejected && state.rejected.handId === h.id) {
    box.appendChild(el("div", { class: "rejected", id: "rejected", role: "alert" }, [
      el("strong", { text: T.rejected + ": " }), state.rejected.label, el("br"), state.rejected.message,
    ]));
  }
  app.appendChild(box);
  renderConfirmation(ctx, h);
  renderLogWords(ctx, h, true);
}

/** An irregular hand (its written-in deal does not fit its log) and a director's override
 * of its log, said in the hand's box. */
export function renderHandNotes(ctx, h, box) {
  const T = ctx.T;
  if (h.irregular) {
    const check = h.deal_check || {};
    box.appendChild(el("div", { class: "error irregular", id: "irregular", "data-irregular": h.irregular }, [
      T.irregular_note,
      check.ok === false ? el("br") : null,
      check.ok === false ? fmt(T.irregular_at, { n: (check.index ?? 0) + 1, rule: codeWords(T, check) }) : null,
    ]));
  }
  if (h.override) {
    box.appendChild(el("div", { class: "override", id: "override" }, [
      el("strong", { text: fmt(T.override_note, { reason: h.override.reason }) }),
      el("ul", {}, (h.override.changes || []).map((c) => {
        const log = fieldWords(T, c.field, c.log, nameOf(ctx));
        const override = fieldWords(T, c.field, c.override, nameOf(ctx));
        return el("li", { "data-field": c.field, text: fmt(T.override_change, { field: log.label, log: log.text, override: override.text }) });
      })),
    ]));
  }
}

/** A closed hand's confirmation: who confirmed it, or the buttons that confirm or dispute
 * it (the players' PIN form when the players confirm). */
export function renderConfirmation(ctx, h) {
  const { T, app } = ctx;
  const name = nameOf(ctx);
  if (h.confirmation === "confirmed") {
    const row = handRow(h);
    const by = row.confirmed_by || "official";
    const who = row.seats.length ? " (" + row.seats.map(name).join(T.comma) + ")" : "";
    app.appendChild(el("p", {
      class: "message ok confirmed-by", id: "confirmed-by", "data-by": by,
      text: "✓ " + (by === "players" ? T.confirmed_by_players : T.confirmed_by_official) + who,
    }));
    return;
  }
  if (!["pending", "disputed"].includes(h.confirmation) || h.irregular || LIVE.includes(h.status)) return;
  const players = confirmedBy(ctx) === "players";
  const section = el("section", { class: "confirm", id: "confirm-hand" });
  if (players && h.confirmation === "pending") section.appendChild(pinForm(ctx, h));
  else if (!players) {
    section.appendChild(el("button", { type: "button", class: "big confirm-official", text: T.confirm, onclick: () => ctx.do.confirm(h) }));
  }
  if (h.confirmation === "pending") {
    const reason = el("input", { name: "dispute_reason", "aria-label": T.reason, placeholder: T.reason });
    section.appendChild(el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); ctx.do.dispute(h, reason.value.trim()); } },
      [reason, el("button", { type: "submit", class: "secondary", text: T.dispute })]));
  }
  app.appendChild(section);
}

function pinInput(name, label) {
  return el("input", {
    type: "password", name, inputmode: "numeric", pattern: "[0-9]{4}", maxlength: "4",
    autocomplete: "off", "aria-label": label, placeholder: "••••",
  });
}

/** One PIN of each side (SPEC R10.8.1): the landlord's and a farmer's; a passed-out hand
 * has no sides: two players. */
function pinForm(ctx, h) {
  const { T, state } = ctx;
  const name = nameOf(ctx);
  const seatSelect = (fieldName, seats, chosen, label) => el("select", { name: fieldName, "aria-label": label },
    seats.map((s) => el("option", { value: String(s), selected: s === chosen, text: name(s) })));
  let fields;
  let collect;
  if (h.landlord !== null && h.status !== "passed_out") {
    const farmers = seatPositions(ctx).filter((s) => s !== h.landlord);
    const landlordPin = pinInput("pin_landlord", T.pin_landlord);
    const farmer = seatSelect("farmer_seat", farmers, farmers[0], T.pin_farmer);
    const farmerPin = pinInput("pin_farmer", T.pin_farmer);
    fields = [
      el("p", { class: "muted", text: T.pins_help_sides }),
      el("label", { class: "row pin-row" }, [T.pin_landlord + " · " + name(h.landlord) + " ", landlordPin]),
      el("div", { class: "row pin-row" }, [farmer, farmerPin]),
    ];
    collect = () => ({ [h.landlord]: landlordPin.value.trim(), [farmer.value]: farmerPin.value.trim() });
  } else {
    const first = seatSelect("first_seat", seatPositions(ctx), 0, T.seat);
    const second = seatSelect("second_seat", seatPositions(ctx), 1, T.seat);
    const firstPin = pinInput("pin_first", T.pin_player);
    const secondPin = pinInput("pin_second", T.pin_player);
    fields = [
      el("p", { class: "muted", text: T.pins_help_two }),
      el("div", { class: "row pin-row" }, [first, firstPin]),
      el("div", { class: "row pin-row" }, [second, secondPin]),
    ];
    collect = () => ({ [first.value]: firstPin.value.trim(), [second.value]: secondPin.value.trim() });
  }
  const error = state.pinError && state.pinError.handId === h.id
    ? el("p", { class: "error", id: "pin-error", role: "alert", text: state.pinError.text }) : null;
  return el("form", {
    class: "stack pins", id: "pin-form", autocomplete: "off",
    onsubmit: (e) => {
      e.preventDefault();
      const pins = collect();
      // Each PIN is the four digits on a table card: an empty or short one is said here,
      // not sent (nothing is counted against the hand).
      if (Object.values(pins).some((p) => !/^[0-9]{4}$/.test(p))) {
        state.pinError = { handId: h.id, text: T.pins_four_digits };
        const shown = document.getElementById("pin-error");
        if (shown) shown.textContent = T.pins_four_digits;
        else e.target.querySelector("button[type=submit]").before(
          el("p", { class: "error", id: "pin-error", role: "alert", text: T.pins_four_digits }));
        return;
      }
      ctx.do.confirmPins(h, pins);
    },
  }, [el("h3", { text: T.pins_title })].concat(fields, [error, el("button", { type: "submit", class: "big", text: T.pins_confirm })]));
}

/** The hand's log, each event in words. */
export function renderLogWords(ctx, h, open = false) {
  const name = nameOf(ctx);
  const events = h.events || [];
  ctx.app.appendChild(el("details", { class: "log", id: "log", open }, [
    el("summary", { text: ctx.T.log_in_words + " (" + events.length + ")" }),
    el("ol", {}, events.map((e) => el("li", { "data-kind": e.kind, value: String(e.seq), text: eventWords(ctx.T, e, name) }))),
  ]));
}

// --------------------------------------------------------------------------- actions
/** The controller's actions for the table's hands; ``show`` redraws. */
export function historyActions(ctx, { show, snapshot }) {
  const { T, state } = ctx;
  const url = (path) => ctx.API + path;

  async function loadTableHands() {
    if (!state.table) return false;
    const tableId = state.table.table_id;
    const answer = await ctx.api.get(url("tables/" + tableId + "/"));
    if (answer.ok && state.table && state.table.table_id === tableId) {
      state.tableHands = answer.data;
      refreshHandList(ctx);
      snapshot();
    }
    return answer.ok;
  }

  async function rereadEarlier() {
    if (!state.earlier) return;
    const answer = await ctx.api.get(url("hands/" + state.earlier.id + "/"));
    if (answer.ok) state.earlier = answer.data;
  }

  return {
    loadTableHands,
    async openEarlier(handId) {
      const answer = await ctx.api.get(url("hands/" + handId + "/"));
      if (!answer.ok) {
        showVerdict(ctx, false, T.hand, answer.status ? errorText(answer, undefined, T) : T.hand_unreadable);
        return;
      }
      state.earlier = answer.data;
      state.pinError = null;
      show();
      window.scrollTo(0, 0);
    },
    closeEarlier() {
      state.earlier = null;
      state.pinError = null;
      show();
    },
    /** After the queue has sent a write (``answer``: its answer, the screen already drawn):
     * the earlier hand it recorded on read again, and the list. A refusal changed nothing:
     * the screen is not drawn again (a reason being typed stays). */
    async afterWrite(item, answer) {
      if (state.earlier && item.handId === state.earlier.id && classify(answer) === DONE) {
        await rereadEarlier();
        show();
      }
      const live = answer && answer.data && LIVE.includes(answer.data.status);
      if (item.kind !== "action" || !live) await loadTableHands();
    },
    /** The players' PINs, sent now with a key of their own (a wrong PIN is counted on the
     * server; nothing is queued, so no PIN stays on the phone). */
    async confirmPins(h, pins) {
      const label = T.table + " " + h.table + " · " + T.hand + " " + h.number + " · " + T.pins_title;
      state.pinError = null;
      const answer = await ctx.api.post(url("hands/" + h.id + "/confirm/"), { pins }, { key: newKey(), version: h.version });
      if (classify(answer) === DONE) {
        await loadTableHands();
        if (state.earlier && state.earlier.id === h.id) await rereadEarlier();
        if (state.hand && state.hand.id === h.id) {
          const read = await ctx.api.get(url("hands/" + h.id + "/"));
          if (read.ok) state.hand = read.data;
        }
        showVerdict(ctx, true, label, T.confirmed_by_players);
      } else {
        const text = answer.status ? errorText(answer, undefined, T) : T.pins_offline;
        state.pinError = { handId: h.id, text };
        showVerdict(ctx, false, label, text);
      }
      show();
    },
  };
}
