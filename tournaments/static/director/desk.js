// Results desk: poll the desk fragment and swap it in, so the director sees each hand's
// state without reloading. Plain script (CSP: no inline script); the page works without it.
(function () {
  "use strict";
  var box = document.getElementById("desk");
  if (!box) return;
  var url = box.getAttribute("data-poll");
  var interval = parseInt(box.getAttribute("data-interval") || "5000", 10);
  function tick() {
    // Never replace a form the director is typing in (a dispute's reason).
    var active = document.activeElement;
    if (active && box.contains(active) && active.tagName === "INPUT") {
      window.setTimeout(tick, interval);
      return;
    }
    fetch(url, { headers: { "X-Requested-With": "poll" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200 && !response.redirected) {
          return response.text().then(function (html) {
            box.innerHTML = html;
            box.setAttribute("data-updated", String(Date.now()));
          });
        }
      })
      .catch(function () {})
      .then(function () { window.setTimeout(tick, interval); });
  }
  window.setTimeout(tick, interval);
})();
