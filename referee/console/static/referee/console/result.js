/* Result-only entry: the form, then a summary to check before saving (each seat's score
 * from the server's preview, POST hands/{id}/result/preview/, which checks and scores the
 * result as saving it does and writes nothing), then Save through the queue. Offline the
 * summary says the scores are computed on sending. "Passed out (all passed)" has its own
 * confirm step. A refusal is shown with the rule it names.
 *
 * Big Three (大三 / 挖坑, ``big3`` and ``big3_one_round``) scores the digger, his bid and who
 * went out first (SPEC R12.11), nothing else: its form asks those three, in the game's words
 * (ctx.T), and has no "passed out" (every deal has a digger, R12.5.2).
 *
 * Six players (``six_p``, SPEC §13) ask the landlord, his partner (暗地主: the holder of the
 * partner card's third copy, or nobody), the winner, the bombs (three packs: up to 41) and a
 * spring; no bid, no doubling, no rocket, no "passed out" (R13.3, R13.9). */

import { DONE, RETRY, classify, refusalParts } from "./api.js";
import { el } from "./dom.js";
import { resultWords, signed } from "./history.js";
import { isBig3, isSix } from "./provisional.js";
import { seatName, seatPositions } from "./views.js";

/** The summary's rows [label, value] of a result-only entry's body (``big3``: a Big Three
 * result, the digger, the bid and the winner only). */
export function resultSummary(W, body, name, big3 = false) {
  const winner = [W.winner, body.winner === "landlord" ? W.winner_landlord : W.winner_defenders];
  if (big3) return [[W.landlord, name(body.landlord)], [W.bid, String(body.bid)], winner];
  const doubled = (body.doubled || []).map((d, s) => (d ? s : null)).filter((s) => s !== null);
  const ending = body.spring ? W.spring : body.anti_spring ? W.anti_spring : W.none;
  if ("partner" in body) {
    return [
      [W.landlord, name(body.landlord)],
      [W["six:partner"], body.partner === null ? W["six:partner_none"] : name(body.partner)],
      [W.bombs, String(body.bombs || 0)],
      [W.spring_kind, ending],
      winner,
    ];
  }
  return [
    [W.landlord, name(body.landlord)],
    [W.bid, String(body.bid)],
    [W.doubles, doubled.length ? doubled.map(name).join(W.comma) : W.none],
    [W.redoubled, body.redoubled ? W.yes : W.no],
    [W.bombs, String(body.bombs || 0)],
    [W.rocket, body.rockets ? W.yes : W.no],
    [W.spring_kind, ending],
    winner,
  ];
}

/** The entry under way on hand ``h`` (its step, body, preview), or null. */
function entryOf(ctx, h) {
  const entry = ctx.state.resultEntry;
  return entry && entry.handId === h.id ? entry : null;
}

export function renderResultEntry(ctx, h) {
  const entry = entryOf(ctx, h);
  if (entry && entry.step === "passed_out") renderPassedOutStep(ctx, h);
  else if (entry && entry.step === "summary") renderSummary(ctx, h, entry);
  else renderForm(ctx, h, entry);
}

function renderForm(ctx, h, entry) {
  const T = ctx.T;
  const was = (entry && entry.body) || {};
  const seatOptions = (name, chosen) => el("select", { name }, seatPositions(ctx).map((s) => el("option", { value: String(s), selected: s === chosen, text: seatName(ctx, s) })));
  const number = (name, min, max, value) => el("input", { type: "number", name, min: String(min), max: String(max), value: String(value) });
  const check = (name, checked) => el("input", { type: "checkbox", name, checked: !!checked });
  const field = (text, input) => el("label", {}, [text + " ", input]);
  const landlord = seatOptions("landlord", was.landlord ?? 0);
  const bid = number("bid", 1, 3, was.bid ?? 1);
  const winner = el("select", { name: "winner" }, [
    el("option", { value: "landlord", selected: was.winner === "landlord", text: T.winner_landlord }),
    el("option", { value: "defenders", selected: was.winner === "defenders", text: T.winner_defenders }),
  ]);
  const doubled = seatPositions(ctx).map((s) => check("doubled_" + s, (was.doubled || [])[s]));
  const redoubled = check("redoubled", was.redoubled);
  const bombs = number("bombs", 0, 13, was.bombs ?? 0);
  const rockets = number("rockets", 0, 1, was.rockets ?? 0);
  const spring = check("spring", was.spring);
  const anti = check("anti_spring", was.anti_spring);
  const body = () => ({
    landlord: parseInt(landlord.value, 10), bid: parseInt(bid.value, 10), winner: winner.value,
    doubled: doubled.map((c) => c.checked), redoubled: redoubled.checked,
    bombs: parseInt(bombs.value, 10) || 0, rockets: parseInt(rockets.value, 10) || 0,
    spring: spring.checked, anti_spring: anti.checked,
  });
  const checking = entry && entry.step === "checking";
  const refusal = entry && entry.refusal;
  const refusalBox = refusal ? el("div", { class: "rejected", id: "result-refusal", role: "alert", "data-code": refusal.code }, [
    el("strong", { text: T.rejected + ": " }), refusal.message,
    refusal.rule ? el("br") : null,
    refusal.rule ? el("span", { class: "rule", text: refusal.rule }) : null,
  ]) : null;
  const review = el("button", { type: "submit", class: "big", id: "review-result", disabled: checking, text: checking ? T.checking : T.review_result });
  if (isBig3(h.rule_profile)) {
    // Big Three: the digger, the bid and who went out first; nothing else is scored.
    const big3Body = () => ({ landlord: parseInt(landlord.value, 10), bid: parseInt(bid.value, 10), winner: winner.value });
    ctx.app.appendChild(el("form", {
      class: "stack result-form", id: "result-form", "data-game": "big3",
      onsubmit: (e) => { e.preventDefault(); ctx.do.reviewResult(h, big3Body()); },
    }, [el("h2", { text: T.result_form }), field(T.landlord, landlord), field(T.bid, bid), field(T.winner, winner), refusalBox, review]));
    return;
  }
  if (isSix(h.rule_profile)) {
    // Six players: the partner (or nobody), no bid, no doubling, no rocket, no passing out.
    const partner = el("select", { name: "partner" }, [el("option", { value: "", selected: was.partner === null, text: T["six:partner_none"] })]
      .concat(seatPositions(ctx).map((s) => el("option", { value: String(s), selected: s === was.partner, text: seatName(ctx, s) }))));
    const sixBombs = number("bombs", 0, 41, was.bombs ?? 0);
    const sixBody = () => ({
      landlord: parseInt(landlord.value, 10), partner: partner.value === "" ? null : parseInt(partner.value, 10),
      winner: winner.value, bombs: parseInt(sixBombs.value, 10) || 0, spring: spring.checked, anti_spring: anti.checked,
    });
    ctx.app.appendChild(el("form", {
      class: "stack result-form", id: "result-form", "data-game": "six_p",
      onsubmit: (e) => { e.preventDefault(); ctx.do.reviewResult(h, sixBody()); },
    }, [
      el("h2", { text: T.result_form }),
      field(T.landlord, landlord), field(T["six:partner"], partner), field(T.winner, winner),
      field(T.bombs, sixBombs), field(T.spring, spring), field(T.anti_spring, anti),
      refusalBox, review,
    ]));
    return;
  }
  ctx.app.appendChild(el("form", {
    class: "stack result-form", id: "result-form",
    onsubmit: (e) => { e.preventDefault(); ctx.do.reviewResult(h, body()); },
  }, [
    el("h2", { text: T.result_form }),
    field(T.landlord, landlord), field(T.bid, bid), field(T.winner, winner),
    // Each box named as the seat is everywhere: "East (东) · Zhang Wei 张伟".
    el("div", { class: "row doubled" }, [T.doubled + ": "].concat(doubled.map((c, s) => el("label", { "data-seat": String(s) }, [c, " " + seatName(ctx, s)])))),
    field(T.redoubled, redoubled), field(T.bombs, bombs), field(T.rockets, rockets),
    field(T.spring, spring), field(T.anti_spring, anti),
    refusalBox,
    review,
    el("button", { type: "button", class: "secondary", id: "passed-out", text: T.passed_out, onclick: () => ctx.do.askPassedOut(h, body()) }),
  ]));
}

function renderSummary(ctx, h, entry) {
  const T = ctx.T;
  const name = (s) => seatName(ctx, s);
  const rows = resultSummary(T, entry.body, name, isBig3(h.rule_profile));
  const preview = entry.preview;
  ctx.app.appendChild(el("section", { class: "result-summary", id: "result-summary", "data-offline": entry.preview ? null : "true" }, [
    el("h2", { text: T.summary_title }),
    el("dl", { class: "state" }, rows.flatMap((r) => [el("dt", { text: r[0] }), el("dd", { text: r[1] })])),
    el("h3", { text: T.summary_scores }),
    preview
      ? el("ul", { class: "seat-scores", id: "summary-scores" }, preview.scores.map((n, s) => el("li", {
        "data-seat": String(s), "data-score": String(n),
        text: name(s) + (s === entry.body.landlord ? " · " + T.landlord : "") + (s === entry.body.partner ? " · " + T["six:partner"] : "") + ": " + signed(n),
      })))
      : el("p", { class: "message waiting", id: "summary-offline", text: T.summary_offline }),
    preview && preview.needs_confirmation ? el("p", { class: "muted", text: T.summary_needs_confirmation }) : null,
    el("div", { class: "buttons" }, [
      el("button", { type: "button", class: "big", id: "save-result", text: T.save, onclick: () => ctx.do.saveResult(h) }),
      el("button", { type: "button", class: "secondary", id: "change-result", text: T.change, onclick: () => ctx.do.changeResult(h) }),
    ]),
  ]));
}

function renderPassedOutStep(ctx, h) {
  const T = ctx.T;
  ctx.app.appendChild(el("section", { class: "result-summary", id: "passed-out-confirm" }, [
    el("h2", { text: T.passed_out }),
    el("p", { text: T.passed_out_question }),
    el("div", { class: "buttons" }, [
      el("button", { type: "button", class: "big", id: "record-passed-out", text: T.passed_out_record, onclick: () => ctx.do.passedOut(h) }),
      el("button", { type: "button", class: "secondary", text: T.cancel, onclick: () => ctx.do.changeResult(h) }),
    ]),
  ]));
}

/** The controller's actions for result-only entry; ``show`` redraws, ``handWrite`` queues
 * a write on a hand (main.js). */
export function resultActions(ctx, { show, handWrite }) {
  const { state } = ctx; // ctx.T read when used: the words of the game on the screen
  const name = (s) => seatName(ctx, s);
  const step = (h, fields) => {
    state.resultEntry = Object.assign({ handId: h.id }, entryOf(ctx, h) || {}, fields);
    show();
  };
  return {
    /** The server's preview of the result: its scores, or its refusal with the rule. No
     * answer (offline, a busy server): the summary without scores. */
    async reviewResult(h, body) {
      step(h, { step: "checking", body, refusal: null, preview: null });
      const answer = await ctx.api.post(ctx.API + "hands/" + h.id + "/result/preview/", body);
      if (!entryOf(ctx, h) || state.resultEntry.body !== body) return; // left meanwhile
      const kind = classify(answer);
      if (kind === DONE) step(h, { step: "summary", preview: answer.data });
      else if (kind === RETRY) step(h, { step: "summary", preview: null });
      else step(h, { step: "form", refusal: Object.assign({ code: answer.data && answer.data.code }, refusalParts(answer, undefined, ctx.T)) });
    },
    changeResult(h) {
      step(h, { step: "form", refusal: null, preview: null });
    },
    saveResult(h) {
      const entry = entryOf(ctx, h);
      if (!entry || entry.step !== "summary") return undefined; // a second tap: saved once
      const body = entry.body;
      // Kept as the form's values, should the queue's send of it be refused.
      state.resultEntry = { handId: h.id, step: "form", body, refusal: null, preview: null };
      return handWrite(h, "result", body, ctx.T.result_form + " · " + resultWords(ctx.T, body, name));
    },
    askPassedOut(h, body) {
      step(h, { step: "passed_out", body, refusal: null });
    },
    passedOut(h) {
      const entry = entryOf(ctx, h);
      if (!entry || entry.step !== "passed_out") return undefined; // a second tap
      state.resultEntry = Object.assign({}, entry, { step: "form" });
      return handWrite(h, "passed-out", {}, ctx.T.passed_out);
    },
  };
}
