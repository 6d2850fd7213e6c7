// Every page: what used to be inline event handlers (the Content-Security-Policy allows
// scripts from this site's files only). Listened for on the document, so that content a
// live page polls in later (the standings fragment) works too. Pages work without it.
(function () {
  "use strict";

  // A choice that takes effect at once (language, club filter): submit its form.
  document.addEventListener("change", function (event) {
    var select = event.target.closest && event.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });

  // The print button of the printable pages.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("button[data-print]")) window.print();
  });
})();
