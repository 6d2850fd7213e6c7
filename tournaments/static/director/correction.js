// The director's correction form: before saving, list every field whose new value differs
// from the hand's current result ("old → new"); inputs carry their starting value in data-old.
(function () {
  "use strict";
  function valueOf(input) {
    if (input.type === "checkbox") return input.checked ? "true" : "false";
    return input.value;
  }
  function shown(input, value) {
    if (input.type === "checkbox") return value === "true" ? "✓" : "✗";
    if (input.tagName === "SELECT") {
      for (const option of input.options) if (option.value === value) return option.textContent;
    }
    return value;
  }
  function labelOf(input) {
    const label = input.labels && input.labels[0];
    return label ? label.textContent.replace(/:\s*$/, "") : input.name;
  }
  function render(form, list) {
    list.replaceChildren();
    for (const input of form.querySelectorAll("[data-old]")) {
      const now = valueOf(input);
      if (now === input.dataset.old) continue;
      const item = document.createElement("li");
      item.dataset.field = input.name;
      item.textContent = labelOf(input) + ": " + shown(input, input.dataset.old) + " → " + shown(input, now);
      list.appendChild(item);
    }
    const empty = form.querySelector("[data-diff-empty]");
    if (empty) empty.hidden = list.children.length > 0;
  }
  document.querySelectorAll("form[data-correction]").forEach(function (form) {
    const list = form.querySelector("[data-diff]");
    if (!list) return;
    form.addEventListener("input", function () { render(form, list); });
    form.addEventListener("change", function () { render(form, list); });
    render(form, list);
  });
})();
