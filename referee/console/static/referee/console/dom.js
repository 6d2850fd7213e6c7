/* Small DOM helpers shared by the views. */

export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
}

/** ``fmt`` of a text with a count ``values.n``: the one-form (``key_one``) for 1 where
 * the language has it, else the other (both made by ngettext on the server). */
export function fmtn(T, key, values) {
  const text = values.n === 1 && T[key + "_one"] ? T[key + "_one"] : T[key];
  return fmt(text, values);
}

const HANDLERS = ["onclick", "onchange", "oninput", "onsubmit"];

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach((k) => {
    const v = attrs[k];
    if (HANDLERS.includes(k)) node[k] = v;
    else if (k === "text") node.textContent = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  });
  (children || []).forEach((c) => {
    if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
  return node;
}
