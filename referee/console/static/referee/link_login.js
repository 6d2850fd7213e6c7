/* One-time sign-in link page: copy the sign-in code from the link's "#" part (which the
   browser never sends to the server) into the form, and take it out of the address bar.
   Signing in is the referee's button press (a POST), never this script. */
(function () {
  "use strict";
  var field = document.getElementById("sign-in-code");
  var code = window.location.hash.replace(/^#/, "");
  if (!field || !code) {
    return;
  }
  try {
    field.value = decodeURIComponent(code);
  } catch (e) {
    field.value = code;
  }
  if (window.history && window.history.replaceState) {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  document.getElementById("link-sign-in").focus();
})();
