// Public pages: live board polling (conditional GET), the hand replay stepper and the
// big-screen cycle. Plain script, served by the app (no CDN); pages work without it.
(function () {
  "use strict";

  // Live board: poll the fragment URL with If-None-Match; a 304 means nothing changed. A
  // box with data-delta asks only for the tables changed since the board it holds
  // (&since=<its ETag>): an answer marked X-Live-Delta holds those tables' cards, which
  // replace theirs; any other answer is the whole board.
  function poll(box) {
    var url = box.getAttribute("data-poll");
    var interval = parseInt(box.getAttribute("data-interval") || "3000", 10);
    var delta = box.hasAttribute("data-delta");
    var etag = box.getAttribute("data-etag") || null;
    function replaceCards(html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var cards = holder.querySelectorAll("[data-table-id]");
      for (var i = 0; i < cards.length; i++) {
        var id = cards[i].getAttribute("data-table-id");
        var old = box.querySelector('[data-table-id="' + id + '"]');
        if (!old) return false;  // a table the box does not hold: ask for the whole board
        old.replaceWith(cards[i]);
      }
      return true;
    }
    function tick() {
      var headers = { "X-Requested-With": "poll" };
      var target = url;
      if (etag) {
        headers["If-None-Match"] = etag;
        if (delta) target += (url.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(etag);
      }
      fetch(target, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 200) {
            var next = response.headers.get("ETag");
            var isDelta = response.headers.get("X-Live-Delta") === "1";
            return response.text().then(function (html) {
              if (isDelta && !replaceCards(html)) { etag = null; return; }
              if (!isDelta) box.innerHTML = html;
              etag = next;
              box.setAttribute("data-updated", String(Date.now()));
            });
          }
        })
        .catch(function () {})
        .then(function () { window.setTimeout(tick, interval); });
    }
    window.setTimeout(tick, interval);
  }

  // Hand replay: show the steps one at a time (all are in the page, so it prints whole).
  function stepper(bar) {
    var list = document.querySelector(bar.getAttribute("data-stepper"));
    if (!list) return;
    var steps = list.querySelectorAll(".step");
    var label = bar.querySelector(".position");
    var at = steps.length;
    function show() {
      for (var i = 0; i < steps.length; i++) {
        steps[i].classList.toggle("hidden", i >= at);
        steps[i].classList.toggle("current", i === at - 1);
      }
      label.textContent = at + " / " + steps.length;
      bar.setAttribute("data-at", String(at));
    }
    bar.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var action = button.getAttribute("data-step");
      if (action === "first") at = 0;
      if (action === "prev") at = Math.max(0, at - 1);
      if (action === "next") at = Math.min(steps.length, at + 1);
      if (action === "last") at = steps.length;
      show();
    });
    at = 0;
    show();
  }

  // Big screen: show one screenful of rows at a time, then the next; reload at the end
  // so the standings stay current (the reload is a conditional GET).
  function cycle(table) {
    var rows = table.tBodies[0] ? table.tBodies[0].rows : [];
    var rowHeight = rows.length ? rows[0].getBoundingClientRect().height || 40 : 40;
    var perPage = Math.max(5, Math.floor((window.innerHeight - 200) / rowHeight));
    var page = 0;
    var pages = Math.max(1, Math.ceil(rows.length / perPage));
    function show() {
      for (var i = 0; i < rows.length; i++) {
        rows[i].classList.toggle("cycled-out", Math.floor(i / perPage) !== page);
      }
    }
    show();
    window.setInterval(function () {
      page += 1;
      if (page >= pages) { window.location.reload(); return; }
      show();
    }, 10000);
  }

  function scrollCycle() {
    window.setInterval(function () {
      var bottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 2;
      window.scrollTo({ top: bottom ? 0 : window.scrollY + window.innerHeight * 0.8, behavior: "smooth" });
    }, 8000);
  }

  // On the big screen the standings cycle reloads the page itself; the live board polls.
  document.querySelectorAll("[data-poll]").forEach(function (box) {
    if (!(document.body.classList.contains("big") && box.querySelector("[data-cycle]"))) poll(box);
  });
  document.querySelectorAll("[data-stepper]").forEach(stepper);
  if (document.body.classList.contains("big")) {
    var table = document.querySelector("table[data-cycle]");
    if (table) cycle(table); else scrollCycle();
  }
})();
