/* Referee console entry point: the state, the controller (what each tap does) and the
 * wiring of the API client (api.js), the queue (queue.js) and the views (views.js).
 * Every write goes through the queue, a hand's start too: one tap, one Idempotency-Key.
 *
 * The page is shown to one account (data-user-id) until its session ends
 * (data-session-ends). When the session is over (the API says 401/403, that moment passes,
 * online or not, or the referee signs out) nothing of the hand stays: the hand kept for an
 * offline reload and the service worker's copy of the page are forgotten and the screen
 * shows none. The queue keeps its writes (a play's cards were said aloud at the table; no
 * hidden hand is in it) for their typist, and only them. */

import { createApi, csrfFromCookie, errorText, newKey } from "./api.js";
import { historyActions } from "./history.js";
import { isBig3 } from "./provisional.js";
import { Queue, Sender } from "./queue.js";
import { resultActions } from "./result.js";
import { actionText, eventText, render, renderQueue, showVerdict } from "./views.js";

const DEVICE_KEY = "referee-console-device-v1";
const CLOSED = ["finished", "passed_out", "voided"];
const SNAPSHOT_KEY = "referee-console-snapshot-v1";

const T = JSON.parse(document.getElementById("console-strings").textContent);
const app = document.getElementById("app");
const API = app.getAttribute("data-api");
const USER = app.getAttribute("data-user") || "";
const USER_ID = app.getAttribute("data-user-id") || "";
const SESSION_ENDS = Number(app.getAttribute("data-session-ends")) || 0;
const PAGE = app.getAttribute("data-scope") || "/referee/";

function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = "console-" + newKey().slice(0, 12);
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

const state = {
  tables: [],
  table: null, // the assignment row of the open table
  hand: null, // the hand as the API answers it
  seat: null, // the composer's seat (defaults to the seat on turn)
  composer: "",
  leadAfter: "", // the next leader's cards tapped while the trick's passes are offered (entry.js)
  rejected: null, // the last refused write {label, message, handId}
  conflict: null, // the last version conflict {label, recorded: [text]}
  signedOut: false,
  tableHands: null, // the open table's hands this round (GET tables/{id}/)
  earlier: null, // an earlier hand opened read only (history.js)
  pinError: null, // the last refusal of the players' PINs {handId, text}
  resultEntry: null, // a result-only entry under way {handId, step, body, preview…} (result.js)
  readings: null, // the readings offered for cards with wild cards {handId, seat, text, readings} (entry.js)
  undoAsk: null, // Undo tapped: the reason being typed beside it {handId, reason}
  tablesAt: null, // when the list of tables was last read (ms), kept for offline use
  tablesOffline: false, // the last read of the list got no answer: the kept list is shown
};
const api = createApi({
  fetch: (...args) => window.fetch(...args),
  deviceId,
  csrfToken: () => csrfFromCookie(document.cookie),
});
const queue = new Queue(localStorage, { typist: USER_ID, typistName: USER });
/** The console's words for the game of ``profile``: Big Three's own words (the digger
 * 挖坑者, the hole 坑, its opponents: the strings' "big3:" keys) over the Dou Dizhu ones. */
const GAME_WORDS = {};
function wordsFor(profile) {
  if (!isBig3(profile)) return T;
  if (!GAME_WORDS.big3) {
    const words = Object.assign({}, T);
    Object.keys(T).filter((k) => k.startsWith("big3:")).forEach((k) => { words[k.slice(5)] = T[k]; });
    GAME_WORDS.big3 = words;
  }
  return GAME_WORDS.big3;
}
/** The rule profile of what the screen shows: the earlier hand opened, the hand, the table. */
function profileShown() {
  const shown = state.earlier || state.hand || state.table;
  return shown ? shown.rule_profile : null;
}
const ctx = {
  state, queue, app, api, API,
  queueBox: document.getElementById("queue"),
  messageBox: document.getElementById("message"),
  loginUrl: app.getAttribute("data-login") || "/referee/login/",
};
// ctx.T: the words of the game on the screen (read each time: a Big Three table's words).
Object.defineProperty(ctx, "T", { get: () => wordsFor(profileShown()), enumerable: true });

function sessionEnded() {
  return SESSION_ENDS > 0 && Date.now() >= SESSION_ENDS;
}

// The list of tables, the open table and hand, kept for a reload while offline: this
// account's, until its session ends.
function snapshot() {
  if (state.signedOut || sessionEnded()) return;
  const data = {
    user: USER_ID, until: SESSION_ENDS, table: state.table, hand: state.hand, tableHands: state.tableHands,
    tables: state.tables, tablesAt: state.tablesAt,
  };
  try {
    localStorage.setItem(SNAPSHOT_KEY, JSON.stringify(data));
  } catch (e) { /* full storage: the queue matters more */ }
}
/** The snapshot if it is this account's and its session has not ended; any other is
 * forgotten (another referee's left on this phone, or one past its session's end). */
function savedSnapshot() {
  let data = null;
  try {
    data = JSON.parse(localStorage.getItem(SNAPSHOT_KEY) || "null");
  } catch (e) { /* unreadable: forgotten below */ }
  const until = Math.min(Number(data && data.until) || 0, SESSION_ENDS || Infinity);
  if (!data || data.user !== USER_ID || !(Date.now() < until)) {
    localStorage.removeItem(SNAPSHOT_KEY);
    return null;
  }
  return data;
}
function restore() {
  const data = savedSnapshot();
  if (!data) return;
  state.table = data.table;
  state.hand = data.hand;
  state.tableHands = data.tableHands || null;
  if (Array.isArray(data.tables) && data.tablesAt) {
    state.tables = data.tables;
    state.tablesAt = data.tablesAt;
  }
  if (state.hand) state.seat = null;
}

/** Forget what this phone keeps of the hand: the snapshot and the service worker's copy of
 * the page (the queue keeps its writes, for their typist). */
function forgetPrivate() {
  localStorage.removeItem(SNAPSHOT_KEY);
  if (!("caches" in window)) return Promise.resolve();
  return caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("referee-console-"))
      .map((n) => caches.open(n).then((cache) => cache.delete(PAGE)))))
    .catch(() => {});
}

/** The session is over: nothing of the hand is shown or kept; sign in again. */
function sessionOver() {
  Object.assign(state, {
    tables: [], table: null, hand: null, seat: null, composer: "", rejected: null, conflict: null,
    tableHands: null, earlier: null, pinError: null, resultEntry: null, readings: null, signedOut: true,
  });
  forgetPrivate();
  render(ctx);
  renderQueue(ctx);
}

function show() {
  snapshot();
  render(ctx);
}

function setHand(hand) {
  state.hand = hand;
  state.seat = null;
  state.leadAfter = "";
  state.readings = null;
}

/** A write's answer: the new state and the one event it appended (not the log). */
function applyWrite(data) {
  if (!data) return;
  if (data.events) {
    setHand(data);
    return;
  }
  if (!("event" in data)) return;
  const known = state.hand && state.hand.id === data.id ? state.hand.events || [] : [];
  const appended = data.event ? [data.event] : [];
  const fresh = known.filter((e) => !data.event || e.seq !== data.event.seq);
  setHand(Object.assign({}, data, { events: fresh.concat(appended) }));
}

async function reloadHand() {
  if (!state.hand) return false;
  const answer = await api.get(API + "hands/" + state.hand.id + "/");
  if (answer.ok) state.hand = answer.data;
  return answer.ok;
}

async function loadTables() {
  const answer = await api.get(API + "assignments/");
  state.tablesOffline = !answer.ok && !answer.status;
  if (answer.ok) {
    state.tables = answer.data;
    state.tablesAt = Date.now();
    if (state.table) {
      state.table = state.tables.find((t) => t.table_id === state.table.table_id) || state.table;
    }
  } else if (answer.status === 401 || answer.status === 403) {
    sessionOver();
  }
  return answer.ok;
}

async function openTable(table) {
  state.table = table;
  state.hand = null;
  state.rejected = null;
  state.conflict = null;
  state.composer = "";
  state.tableHands = null;
  state.earlier = null;
  state.resultEntry = null;
  if (table.current_hand) {
    const answer = await api.get(API + "hands/" + table.current_hand.id + "/");
    if (answer.ok) setHand(answer.data);
  }
  show();
  await ctx.do.loadTableHands(); // fills its own slots: the screen is not drawn again
}

/** Keep ``items`` (one write each, its own Idempotency-Key), in order, then send. */
function enqueue(...items) {
  items.forEach((item) => queue.push(Object.assign({ key: newKey() }, item)));
  state.composer = "";
  state.leadAfter = "";
  state.seat = null;
  state.readings = null;
  show();
  return sender.flush();
}

const handUrl = (h, what) => API + "hands/" + h.id + "/" + what + "/";
const handLabel = (h) => T.table + " " + (state.table ? state.table.table : "") + " · " + T.hand + " " + h.number;

function handItem(h, what, body, label, kind, offset = 0) {
  return {
    kind, url: handUrl(h, what), body, label: handLabel(h) + " · " + label,
    handId: h.id, tableId: state.table.table_id, version: queue.versionFor(h) + offset,
  };
}

function handWrite(h, what, body, label, kind = "write") {
  return enqueue(handItem(h, what, body, label, kind));
}

ctx.do = {
  openTable,
  back: async () => {
    state.table = null;
    state.hand = null;
    state.conflict = null;
    state.earlier = null;
    state.tableHands = null;
    await loadTables();
    show();
  },
  setSeat: (seat) => { state.seat = seat; show(); },
  redraw: () => { render(ctx); },
  offerReadings: (offered) => { state.readings = offered; show(); },
  start: (body) => {
    const t = state.table;
    // One start per table in the queue: a second tap is the same intended action.
    if (queue.items().some((q) => q.kind === "start" && q.tableId === t.table_id)) return;
    state.rejected = null;
    state.conflict = null;
    return enqueue({
      kind: "start", url: API + "tables/" + t.table_id + "/hands/", body,
      label: T.table + " " + t.table + " · " + T.start_hand, handId: null, tableId: t.table_id,
    });
  },
  act: (body) => {
    state.conflict = null;
    return handWrite(state.hand, "actions", body, actionText(ctx, body), "action");
  },
  /** Several actions seen at the table, one tap (issue 29: the seats that passed, then the
   * play): each its own write and key, in order, each typed against the version the one
   * before it makes. A refusal of one holds the rest back (queue.js); Undo takes back one
   * action at a time. */
  actAll: (bodies) => {
    state.conflict = null;
    const h = state.hand;
    return enqueue(...bodies.map((body, i) => handItem(h, "actions", body, actionText(ctx, body), "action", i)));
  },
  wild: (h, rank) => handWrite(h, "wild", { wild: rank }, T.wild_entered + " · " + rank),
  announce: (seat, made) => handWrite(state.hand, "announcements", { seat, made },
    T.announcements_due + " · " + actionText(ctx, { seat }) + (made ? T.announced : T.missing)),
  askUndo: (h) => { state.undoAsk = { handId: h.id, reason: "" }; show(); },
  cancelUndo: () => { state.undoAsk = null; show(); },
  undo: (h, reason) => {
    if (!reason) return showVerdict(ctx, false, T.undo, T.reason_needed);
    state.undoAsk = null;
    return handWrite(h, "undo", { reason }, T.undo + " · " + reason);
  },
  result: (h, body) => handWrite(h, "result", body, T.result_form),
  confirm: (h) => handWrite(h, "confirm", {}, T.confirm),
  dispute: (h, reason) => {
    if (!reason) return showVerdict(ctx, false, T.dispute, T.reason_needed);
    return handWrite(h, "dispute", { reason }, T.dispute);
  },
  sendNow: () => { queue.setHeld(false); renderQueue(ctx); return sender.wake(); },
  discard: () => { queue.clear(); show(); },
  discardOthers: () => { queue.clearOthers(); renderQueue(ctx); },
};
Object.assign(ctx.do, historyActions(ctx, { show, snapshot }), resultActions(ctx, { show, handWrite }));

const sender = new Sender({
  queue,
  api,
  hooks: {
    async done(item, answer, { reconnected }) {
      state.rejected = null;
      state.signedOut = false;
      if (item.kind === "start") setHand(Object.assign({}, answer.data, {
        events: answer.data.events || (answer.data.event ? [answer.data.event] : []),
      }));
      else if (state.hand && item.handId === state.hand.id) applyWrite(answer.data);
      // Back from a lost connection: read the hand again before saying it is done.
      if (reconnected && state.hand) await reloadHand();
      // A hand started or closed: the table's hands played change ("Next hand" or
      // "Round complete").
      if (item.kind === "start" || (state.hand && CLOSED.includes(state.hand.status))) await loadTables();
      showVerdict(ctx, true, item.label, T.accepted);
      show();
      await ctx.do.afterWrite(item, answer);
    },
    async refused(item, answer) {
      const message = errorText(answer, undefined, T);
      if (item.kind === "start") {
        // e.g. hand_in_progress: another phone started it; show that hand.
        showVerdict(ctx, false, item.label, message);
        if (await loadTables()) {
          const table = state.tables.find((t) => t.table_id === item.tableId);
          if (table && state.table && state.table.table_id === item.tableId) await openTable(table);
        }
        showVerdict(ctx, false, item.label, message);
        show();
        return;
      }
      state.rejected = { label: item.label, message, handId: item.handId };
      if (item.kind === "action" && typeof item.body.play === "string" && item.body.play !== "pass") {
        state.composer = item.body.play;
      }
      showVerdict(ctx, false, item.label, message);
      await reloadHand();
      if (item.body && typeof item.body.seat === "number") state.seat = item.body.seat;
      // Cards with a wild card whose reading the server will not choose: its readings, offered
      // with the refusal (one tapped while the sender still handles it is sent when it is done).
      const wild = answer.data && answer.data.code === "wild_reading_required" && answer.data.details;
      if (wild && Array.isArray(wild.readings)) {
        state.readings = { handId: item.handId, seat: item.body.seat, text: item.body.play, readings: wild.readings, explicit: true };
      }
      show();
      await ctx.do.afterWrite(item, answer);
    },
    async conflict(item) {
      const seen = new Set(((state.hand && state.hand.events) || []).map((e) => e.seq));
      await reloadHand();
      const recorded = ((state.hand && state.hand.events) || [])
        .filter((e) => !seen.has(e.seq)).map((e) => eventText(ctx, e));
      if (state.hand && CLOSED.includes(state.hand.status)) await loadTables();
      state.conflict = { label: item.label, recorded };
      state.rejected = null;
      state.seat = null;
      showVerdict(ctx, false, item.label, T.other_phone_first);
      show();
    },
    auth() {
      sessionOver();
    },
    retry(item, answer) {
      showVerdict(ctx, "waiting", item.label, answer.status ? errorText(answer, undefined, T) : T.network_error);
      renderQueue(ctx);
    },
    idle() { renderQueue(ctx); },
  },
});

// Signing out forgets the table and hand kept for an offline reload and the cached page
// (not the queue: its writes wait for their typist).
const logout = document.querySelector(".console-bar form");
if (logout) logout.addEventListener("submit", () => { forgetPrivate(); });

// The session's end, offline too: a timer for that moment, and a look whenever the phone
// wakes (timers sleep with it) and every half minute.
function sessionEndCheck() {
  if (sessionEnded() && !state.signedOut) sessionOver();
}
if (SESSION_ENDS) {
  setTimeout(sessionEndCheck, Math.min(Math.max(0, SESSION_ENDS - Date.now()) + 100, 2 ** 31 - 1));
  setInterval(sessionEndCheck, 30000);
  document.addEventListener("visibilitychange", sessionEndCheck);
}

// The list shown was the one kept on this phone: read it again when the phone is back
// online, and every few seconds until a read is answered (the 'online' event's one read can
// fail while the network settles, and the banner would then stay though the phone is online).
let readingTables = false;
async function readTablesAgain() {
  if (readingTables || !state.tablesOffline || state.table || !navigator.onLine) return;
  readingTables = true;
  try {
    if (await loadTables()) show();
  } finally {
    readingTables = false;
  }
}
setInterval(readTablesAgain, 5000);
window.addEventListener("online", () => {
  renderQueue(ctx);
  sender.wake();
  readTablesAgain();
});
window.addEventListener("offline", () => renderQueue(ctx));
window.refereeConsole = { queue, sender, state };

if ("serviceWorker" in navigator && app.getAttribute("data-worker")) {
  navigator.serviceWorker.register(app.getAttribute("data-worker"), { scope: app.getAttribute("data-scope") || "/referee/" })
    .catch(() => {});
}

(async function boot() {
  // Past the session's end (a cached page opened offline later): nothing of the hand.
  if (sessionEnded()) {
    sessionOver();
    return;
  }
  // Online: my tables, as always. Offline (the page came from the service worker's
  // cache): the table and hand last shown, with the queue still waiting.
  savedSnapshot(); // forgets another account's
  const online = await loadTables();
  if (!online && !state.signedOut) restore();
  show();
  sender.flush();
})();
