/* Referee console: a small, dependency-free client of the referee API v1.
 *
 * Session auth + CSRF. Every write goes through an offline queue kept in localStorage:
 * each action gets its own Idempotency-Key when it is typed, and the queue is sent in
 * order (oldest first) whenever the connection is there, so a resend after a lost
 * answer is recorded once by the server and nothing typed is lost on a reload.
 * The verdict and error messages come from the API in the referee's language.
 */
(function () {
  "use strict";

  var T = JSON.parse(document.getElementById("console-strings").textContent);
  var app = document.getElementById("app");
  var API = app.getAttribute("data-api");
  var QUEUE_KEY = "referee-console-queue-v1";
  var HELD_KEY = "referee-console-held-v1";
  var DEVICE_KEY = "referee-console-device-v1";
  var RANKS = "3456789TJQKA2XD";

  var state = {
    tables: [],
    table: null, // the assignment row of the open table
    hand: null, // the hand as the API answers it
    seat: null, // the composer's seat (defaults to the seat on turn)
    composer: "", // cards being composed or typed
    rejected: null, // the last rejected action {label, message}
    verdict: null, // the last verdict {ok, text}
  };
  var flushing = false;

  // ------------------------------------------------------------------ helpers
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return String(values[k]); });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "onclick" || k === "onchange" || k === "oninput" || k === "onsubmit") {
        node[k] = attrs[k];
      } else if (k === "text") {
        node.textContent = attrs[k];
      } else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) {
        node.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
      }
    });
    (children || []).forEach(function (c) {
      if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }
  function deviceId() {
    var id = localStorage.getItem(DEVICE_KEY);
    if (!id) { id = "console-" + newKey().slice(0, 12); localStorage.setItem(DEVICE_KEY, id); }
    return id;
  }
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function seatName(seat) {
    var row = state.table && state.table.seats.filter(function (s) { return s.position === seat; })[0];
    return T.seat + " " + seat + (row ? " · " + row.player : "");
  }

  // ------------------------------------------------------------------ the API
  function request(method, url, body, key) {
    var headers = { "Accept": "application/json", "X-Device-Id": deviceId() };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      headers["X-CSRFToken"] = csrfToken();
      headers["Idempotency-Key"] = key;
    }
    return fetch(url, {
      method: method,
      headers: headers,
      credentials: "same-origin",
      body: method === "GET" ? undefined : JSON.stringify(body),
    }).then(function (resp) {
      return resp.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        return { ok: resp.ok, status: resp.status, data: data };
      });
    });
  }
  function errorText(resp) {
    var d = resp.data || {};
    var text = d.message || ("HTTP " + resp.status);
    if (d.details && d.details.fields) {
      text += " " + Object.keys(d.details.fields).map(function (f) {
        return f + ": " + [].concat(d.details.fields[f]).join(" ");
      }).join("; ");
    }
    return text;
  }

  // ------------------------------------------------------------------ the queue
  function queue() {
    try { return JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]"); } catch (e) { return []; }
  }
  function saveQueue(items) { localStorage.setItem(QUEUE_KEY, JSON.stringify(items)); }
  function held() { return localStorage.getItem(HELD_KEY) === "1"; }
  function setHeld(value) {
    if (value) localStorage.setItem(HELD_KEY, "1"); else localStorage.removeItem(HELD_KEY);
  }

  /** Queue a write; its key is made now, once, and kept with it until it is answered. */
  function enqueue(url, body, label) {
    var items = queue();
    items.push({ key: newKey(), url: url, body: body, label: label, handId: state.hand && state.hand.id });
    saveQueue(items);
    if (body && typeof body.seat === "number" && state.hand) state.seat = (body.seat + 1) % 3;
    state.composer = "";
    if (state.table) render(); else renderQueue();
    return flush();
  }

  function flush() {
    if (flushing) return Promise.resolve();
    flushing = true;
    function step() {
      var items = queue();
      if (!items.length || held()) return Promise.resolve();
      var item = items[0];
      return request("POST", item.url, item.body, item.key).then(function (resp) {
        if (resp.status >= 500 || resp.status === 0) {
          showVerdict(false, item.label, errorText(resp));
          return; // the server is unwell: keep it, try again later
        }
        var rest = queue().filter(function (q) { return q.key !== item.key; });
        saveQueue(rest);
        if (resp.ok) {
          state.rejected = null;
          showVerdict(true, item.label, T.accepted);
          if (resp.data && resp.data.events) {
            state.hand = resp.data;
            state.seat = resp.data.turn;
          } else if (resp.data && "event" in resp.data) {
            // A write answers the new state and the one event it appended, not the log.
            var known = state.hand && state.hand.id === resp.data.id ? state.hand.events || [] : [];
            var appended = resp.data.event ? [resp.data.event] : [];
            var fresh = known.filter(function (e) { return !resp.data.event || e.seq !== resp.data.event.seq; });
            state.hand = Object.assign({}, resp.data, { events: fresh.concat(appended) });
            state.seat = resp.data.turn;
          }
          render();
          return step();
        }
        // A rejection: the action stays on screen to be corrected; later ones wait.
        if (rest.length) setHeld(true);
        state.rejected = { label: item.label, message: errorText(resp), body: item.body };
        if (item.body && typeof item.body.play === "string" && item.body.play !== "pass") {
          state.composer = item.body.play;
        }
        if (item.body && typeof item.body.seat === "number") state.seat = item.body.seat;
        showVerdict(false, item.label, errorText(resp));
        return reloadHand().then(function () {
          if (item.body && typeof item.body.seat === "number") state.seat = item.body.seat;
          render();
        });
      }, function () {
        showVerdict("waiting", item.label, T.network_error);
        renderQueue();
      });
    }
    return step().then(function () { flushing = false; renderQueue(); },
                       function () { flushing = false; renderQueue(); });
  }

  function renderQueue() {
    var box = document.getElementById("queue");
    var items = queue();
    box.innerHTML = "";
    if (!items.length) { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("p", { "class": "queue-title", text: T.waiting + " (" + items.length + ")" }));
    if (!navigator.onLine) box.appendChild(el("p", { text: T.offline }));
    if (held()) box.appendChild(el("p", { text: T.held_back }));
    box.appendChild(el("ol", {}, items.map(function (q) {
      return el("li", { "class": "queued", text: q.label });
    })));
    box.appendChild(el("button", {
      type: "button", text: T.send_waiting,
      onclick: function () { setHeld(false); flush(); },
    }));
    if (held()) {
      box.appendChild(el("button", {
        type: "button", "class": "secondary", text: T.discard_waiting,
        onclick: function () { saveQueue([]); setHeld(false); renderQueue(); },
      }));
    }
  }

  /** ok: recorded; false: refused; "waiting": kept on the phone (no connection). */
  function showVerdict(ok, label, text) {
    var waiting = ok === "waiting";
    var prefix = waiting ? "⏳ " : ok ? "✓ " : "✗ " + T.rejected + ": ";
    state.verdict = { ok: ok, text: prefix + label + " — " + text };
    var box = document.getElementById("message");
    box.hidden = false;
    box.className = "message " + (waiting ? "waiting" : ok ? "ok" : "error");
    box.textContent = state.verdict.text;
  }

  // ------------------------------------------------------------------ loading
  function loadTables() {
    return request("GET", API + "assignments/").then(function (resp) {
      if (resp.ok) state.tables = resp.data;
      if (state.table) {
        state.table = state.tables.filter(function (t) { return t.table_id === state.table.table_id; })[0] || state.table;
      }
    }, function () {});
  }
  function reloadHand() {
    if (!state.hand) return Promise.resolve();
    return request("GET", API + "hands/" + state.hand.id + "/").then(function (resp) {
      if (resp.ok) state.hand = resp.data;
    }, function () {});
  }
  function openTable(table) {
    state.table = table;
    state.hand = null;
    state.rejected = null;
    state.composer = "";
    if (!table.current_hand) { render(); return Promise.resolve(); }
    return request("GET", API + "hands/" + table.current_hand.id + "/").then(function (resp) {
      if (resp.ok) { state.hand = resp.data; state.seat = resp.data.turn; }
      render();
    }, function () { render(); });
  }

  // ------------------------------------------------------------------ views
  function render() {
    app.innerHTML = "";
    if (!state.table) return renderTables();
    app.appendChild(el("p", {}, [el("button", {
      type: "button", "class": "link", text: "← " + T.back,
      onclick: function () { state.table = null; state.hand = null; loadTables().then(render); },
    })]));
    app.appendChild(el("h1", {
      text: state.table.tournament + " · " + T.round + " " + state.table.round + " · " +
        T.table + " " + state.table.table,
    }));
    var h = state.hand;
    var closed = !h || ["finished", "passed_out", "voided"].indexOf(h.status) >= 0;
    if (h) renderHand(h);
    if (closed && !(h && h.confirmation === "pending")) renderStart();
    renderQueue();
  }

  function renderTables() {
    app.appendChild(el("h1", { text: T.my_tables }));
    if (!state.tables.length) { app.appendChild(el("p", { text: T.no_tables })); return; }
    app.appendChild(el("ul", { "class": "tables" }, state.tables.map(function (t) {
      var hand = t.current_hand ? " · " + T.hand + " " + t.current_hand.number + " (" + (T["status_" + t.current_hand.status] || t.current_hand.status) + ")" : "";
      return el("li", {}, [
        el("button", {
          type: "button", "class": "big table-open", "data-table": t.table,
          onclick: function () { openTable(t); },
          text: T.open + " " + T.table + " " + t.table + " · " + t.tournament + " · " + T.round + " " + t.round + hand,
        }),
        el("div", { "class": "muted", text: t.seats.map(function (s) { return s.position + ": " + s.player; }).join(" · ") }),
      ]);
    })));
  }

  function renderStart() {
    var t = state.table;
    var url = API + "tables/" + t.table_id + "/hands/";
    var board = el("input", { type: "number", min: "1", name: "board", "aria-label": T.board_number, placeholder: T.board_number });
    var first = el("select", { name: "first_bidder", "aria-label": T.first_bidder }, [0, 1, 2].map(function (s) {
      return el("option", { value: String(s), text: seatName(s) });
    }));
    function start(deal) {
      var body = { deal: deal };
      if (deal === "board") body.board = parseInt(board.value, 10);
      if (deal === "physical") body.first_bidder = parseInt(first.value, 10);
      var key = newKey();
      return request("POST", url, body, key).then(function (resp) {
        if (resp.ok) {
          // A start answers the new hand and its first event, not the log.
          state.hand = Object.assign({}, resp.data, { events: resp.data.events || (resp.data.event ? [resp.data.event] : []) });
          state.seat = resp.data.turn; state.rejected = null;
          showVerdict(true, T.start_hand, T.accepted);
        } else {
          showVerdict(false, T.start_hand, errorText(resp));
        }
        render();
      }, function () { showVerdict(false, T.start_hand, T.network_error); });
    }
    app.appendChild(el("section", { "class": "start" }, [
      el("h2", { text: state.hand ? T.next_hand : T.start_hand }),
      el("div", { "class": "buttons" }, [
        el("button", { type: "button", "class": "big", "data-deal": "random", text: T.deal_random, onclick: function () { start("random"); } }),
        el("button", { type: "button", "class": "big", "data-deal": "none", text: T.deal_none, onclick: function () { start("none"); } }),
      ]),
      el("div", { "class": "row" }, [board, el("button", { type: "button", "data-deal": "board", text: T.deal_board, onclick: function () { start("board"); } })]),
      el("div", { "class": "row" }, [first, el("button", { type: "button", "data-deal": "physical", text: T.deal_physical, onclick: function () { start("physical"); } })]),
    ]));
  }

  function label(body) {
    var h = state.hand;
    var who = seatName(body.seat);
    var what;
    if ("bid" in body) what = body.bid === 0 ? T.no_bid : fmt(T.bid_n, { n: body.bid });
    else if ("double" in body) what = body.double ? T.double : T.no_double;
    else if ("redouble" in body) what = body.redouble ? T.redouble : T.no_redouble;
    else if ("play" in body) what = body.play === "pass" ? T.pass : T.play + " " + body.play;
    else what = "";
    return T.table + " " + (state.table ? state.table.table : "") + " · " + T.hand + " " + (h ? h.number : "") + " · " + who + " · " + what;
  }
  function act(body) { return enqueue(API + "hands/" + state.hand.id + "/actions/", body, label(body)); }

  function renderHand(h) {
    h.events = h.events || [];
    var box = el("section", { "class": "hand", "data-status": h.status, "data-version": String(h.version) });
    box.appendChild(el("h2", { text: T.hand + " " + h.number + (h.board ? " · " + T.deal_board + " " + h.board : "") }));
    var rows = [
      [T.status, T["status_" + h.status] || h.status],
      [T.turn, h.turn === null ? "—" : seatName(h.turn)],
      [T.to_beat, h.top_play ? h.top_play.cards + " (" + seatName(h.top_play.seat) + ")" : (h.status === "playing" ? T.nothing_to_beat : "—")],
      [T.landlord, h.landlord === null ? "—" : seatName(h.landlord)],
      [T.bid, h.bid === null ? "—" : String(h.bid)],
      [T.multiplier, h.stakes ? h.stakes.filter(function (s) { return s !== null; }).join(" / ") : "—"],
      [T.cards_left, h.cards_left ? h.cards_left.map(function (n, s) { return s + ": " + n; }).join(" · ") : "—"],
    ];
    if (h.kitty) rows.push([T.kitty, h.kitty]);
    if (h.scores) rows.push([T.scores, h.scores.map(function (n, s) { return s + ": " + n; }).join(" · ")]);
    if (h.confirmation !== "not_required") rows.push([T.confirmation, T["confirmation_" + h.confirmation] || h.confirmation]);
    box.appendChild(el("dl", { "class": "state", id: "hand-state" }, [].concat.apply([], rows.map(function (r) {
      return [el("dt", { text: r[0] }), el("dd", { text: r[1] })];
    }))));
    if (h.hands) {
      box.appendChild(el("ul", { "class": "held" }, h.hands.map(function (cards, s) {
        return el("li", { text: seatName(s) + ": " + (cards || "—") });
      })));
    }
    var live = ["bidding", "doubling", "playing"].indexOf(h.status) >= 0;
    (live ? h.announcements_due || [] : []).forEach(function (a) {
      function announce(made) {
        enqueue(API + "hands/" + h.id + "/announcements/", { seat: a.seat, made: made },
                T.announcements_due + " · " + seatName(a.seat) + " · " + (made ? T.announced : T.missing));
      }
      box.appendChild(el("div", { "class": "announce row" }, [
        el("span", { text: T.announcements_due + ": " + seatName(a.seat) + " — " + fmt(T.cards_left_n, { n: a.cards_left }) }),
        el("button", { type: "button", text: T.announced, onclick: function () { announce(true); } }),
        el("button", { type: "button", "class": "secondary", text: T.missing, onclick: function () { announce(false); } }),
      ]));
    });
    if (state.rejected) {
      box.appendChild(el("div", { "class": "rejected", id: "rejected", role: "alert" }, [
        el("strong", { text: T.rejected + ": " }), state.rejected.label, el("br"), state.rejected.message,
      ]));
    }
    app.appendChild(box);
    if (live && h.mode === "result_only") renderResultForm(h);
    else if (live) renderControls(h);
    if (h.events && h.events.length && live) renderUndo(h);
    if (h.confirmation === "pending" || h.confirmation === "disputed") renderConfirm(h);
    renderLog(h);
  }

  function seatSelect() {
    if (state.seat === null || state.seat === undefined) state.seat = state.hand.turn === null ? 0 : state.hand.turn;
    return el("select", {
      name: "seat", "aria-label": T.seat,
      onchange: function (e) { state.seat = parseInt(e.target.value, 10); render(); },
    }, [0, 1, 2].map(function (s) {
      return el("option", { value: String(s), selected: s === state.seat, text: seatName(s) });
    }));
  }

  function renderControls(h) {
    var seat = state.seat === null || state.seat === undefined ? h.turn : state.seat;
    var legal = (h.legal_actions || []).filter(function (a) { return a.seat === seat; });
    var box = el("section", { "class": "controls" });
    box.appendChild(el("div", { "class": "row" }, [seatSelect()]));
    var buttons = el("div", { "class": "buttons" });
    if (h.status === "bidding" || h.status === "doubling") {
      var choices = legal.length ? legal : defaultChoices(h, seat);
      choices.forEach(function (a) {
        var body = { seat: seat };
        var text;
        if ("bid" in a) { body.bid = a.bid; text = a.bid === 0 ? T.no_bid : fmt(T.bid_n, { n: a.bid }); }
        else if ("double" in a) { body.double = a.double; text = a.double ? T.double : T.no_double; }
        else if ("redouble" in a) { body.redouble = a.redouble; text = a.redouble ? T.redouble : T.no_redouble; }
        else return;
        buttons.appendChild(el("button", { type: "button", "class": "big action", text: text, onclick: function () { act(body); } }));
      });
      box.appendChild(buttons);
    } else {
      // Rank buttons: the ranks of the cards that seat may play now (from the legal
      // plays), or every rank when the cards are unknown (physical cards).
      var ranks = {};
      var plays = legal.filter(function (a) { return typeof a.play === "string" && a.play !== "pass"; });
      plays.forEach(function (a) { a.play.replace(/10/g, "T").toUpperCase().split("").forEach(function (c) { if (RANKS.indexOf(c) >= 0) ranks[c] = true; }); });
      var known = plays.length > 0;
      var rankRow = el("div", { "class": "ranks" });
      RANKS.split("").forEach(function (r) {
        if (known && !ranks[r]) return;
        rankRow.appendChild(el("button", {
          type: "button", "class": "rank", "data-rank": r, text: r,
          onclick: function () { state.composer += r; input.value = state.composer; },
        }));
      });
      box.appendChild(rankRow);
      var input = el("input", {
        name: "notation", "class": "notation", autocomplete: "off", autocapitalize: "characters",
        "aria-label": T.notation, placeholder: T.notation, value: state.composer,
        oninput: function (e) { state.composer = e.target.value; },
      });
      var form = el("form", {
        "class": "row composer",
        onsubmit: function (e) {
          e.preventDefault();
          var text = (input.value || "").trim();
          if (!text) return;
          if (/^(pass|p|过|不要)$/i.test(text)) text = "pass";
          act({ seat: seat, play: text });
        },
      }, [input, el("button", { type: "submit", "class": "play", text: T.play })]);
      box.appendChild(form);
      var canPass = !known ? h.top_play !== null : legal.some(function (a) { return a.play === "pass"; });
      box.appendChild(el("div", { "class": "buttons" }, [
        el("button", { type: "button", "class": "secondary", text: T.clear, onclick: function () { state.composer = ""; input.value = ""; } }),
        canPass ? el("button", { type: "button", "class": "big pass", text: T.pass, onclick: function () { act({ seat: seat, play: "pass" }); } }) : null,
      ]));
    }
    app.appendChild(box);
  }

  function defaultChoices(h, seat) {
    if (h.status === "bidding") return [0, 1, 2, 3].map(function (n) { return { seat: seat, bid: n }; });
    if (seat === h.landlord) return [{ seat: seat, redouble: true }, { seat: seat, redouble: false }];
    return [{ seat: seat, double: true }, { seat: seat, double: false }];
  }

  function renderUndo(h) {
    var reason = el("input", { name: "undo_reason", "aria-label": T.reason, placeholder: T.reason });
    app.appendChild(el("form", {
      "class": "row undo",
      onsubmit: function (e) {
        e.preventDefault();
        if (!reason.value.trim()) { showVerdict(false, T.undo, T.reason_needed); return; }
        enqueue(API + "hands/" + h.id + "/undo/", { reason: reason.value.trim() }, T.undo + " · " + reason.value.trim());
      },
    }, [reason, el("button", { type: "submit", "class": "secondary", text: T.undo })]));
  }

  function renderResultForm(h) {
    function seatOptions(name) {
      return el("select", { name: name }, [0, 1, 2].map(function (s) { return el("option", { value: String(s), text: seatName(s) }); }));
    }
    function number(name, min, max, value) { return el("input", { type: "number", name: name, min: String(min), max: String(max), value: String(value) }); }
    function check(name) { return el("input", { type: "checkbox", name: name }); }
    function field(text, input) { return el("label", {}, [text + " ", input]); }
    var landlord = seatOptions("landlord");
    var bid = number("bid", 1, 3, 1);
    var winner = el("select", { name: "winner" }, [
      el("option", { value: "landlord", text: T.winner_landlord }),
      el("option", { value: "defenders", text: T.winner_defenders }),
    ]);
    var doubled = [0, 1, 2].map(function (s) { return check("doubled_" + s); });
    var redoubled = check("redoubled");
    var bombs = number("bombs", 0, 13, 0);
    var rockets = number("rockets", 0, 1, 0);
    var spring = check("spring");
    var anti = check("anti_spring");
    app.appendChild(el("form", {
      "class": "stack result-form",
      onsubmit: function (e) {
        e.preventDefault();
        var body = {
          landlord: parseInt(landlord.value, 10), bid: parseInt(bid.value, 10), winner: winner.value,
          doubled: doubled.map(function (c) { return c.checked; }), redoubled: redoubled.checked,
          bombs: parseInt(bombs.value, 10) || 0, rockets: parseInt(rockets.value, 10) || 0,
          spring: spring.checked, anti_spring: anti.checked,
        };
        enqueue(API + "hands/" + h.id + "/result/", body, T.result_form + " · " + T.hand + " " + h.number);
      },
    }, [
      el("h2", { text: T.result_form }),
      field(T.landlord, landlord), field(T.bid, bid), field(T.winner, winner),
      el("div", { "class": "row" }, [T.doubled + ": "].concat(doubled.map(function (c, s) { return el("label", {}, [c, " " + s]); }))),
      field(T.redoubled, redoubled), field(T.bombs, bombs), field(T.rockets, rockets),
      field(T.spring, spring), field(T.anti_spring, anti),
      el("button", { type: "submit", "class": "big", text: T.save_result }),
    ]));
  }

  function renderConfirm(h) {
    var reason = el("input", { name: "dispute_reason", "aria-label": T.reason, placeholder: T.reason });
    app.appendChild(el("section", { "class": "confirm" }, [
      el("button", { type: "button", "class": "big", text: T.confirm, onclick: function () {
        enqueue(API + "hands/" + h.id + "/confirm/", {}, T.confirm + " · " + T.hand + " " + h.number);
      } }),
      el("form", { "class": "row", onsubmit: function (e) {
        e.preventDefault();
        if (!reason.value.trim()) { showVerdict(false, T.dispute, T.reason_needed); return; }
        enqueue(API + "hands/" + h.id + "/dispute/", { reason: reason.value.trim() }, T.dispute + " · " + T.hand + " " + h.number);
      } }, [reason, el("button", { type: "submit", "class": "secondary", text: T.dispute })]),
    ]));
  }

  function renderLog(h) {
    app.appendChild(el("details", { "class": "log" }, [
      el("summary", { text: T.log + " (" + h.events.length + ")" }),
      el("ol", {}, h.events.map(function (e) {
        return el("li", { text: e.kind + (e.actor_seat === null ? "" : " · " + e.actor_seat) + " · " + JSON.stringify(e.payload) });
      })),
    ]));
  }

  // ------------------------------------------------------------------ start
  window.addEventListener("online", function () { renderQueue(); flush(); });
  window.addEventListener("offline", renderQueue);
  setInterval(function () { if (queue().length && navigator.onLine && !held()) flush(); }, 3000);
  window.refereeConsole = { queue: queue, flush: flush, state: state };
  loadTables().then(function () {
    render();
    renderQueue();
    flush();
  });
})();
