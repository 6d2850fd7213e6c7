/* Small DOM helpers shared by the views. */

export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
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
