// Tiny DOM helpers: build elements without innerHTML, so names typed by people are never parsed as HTML.

/** Create an element: h("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, numbers, arrays of them; null and false are skipped). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace every child of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** "trump_suit" -> "Trump suit". */
export function humanize(name) {
  const words = String(name).replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Capitalise the first letter. */
export function capitalize(text) {
  const s = String(text);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "a", "a and b", "a, b and c" (`and` in the page's language). */
export function listWords(items, and = "and") {
  const xs = items.map(String);
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} ${and} ${xs[xs.length - 1]}`;
}

/** A one-line message in the status area of the page (role=status, so screen readers announce it). */
export function notify(text, kind = "info") {
  const box = document.getElementById("notice");
  if (!box) return;
  box.className = `notice ${kind}`;
  box.textContent = text;
  box.hidden = !text;
}

/** A shell command as <code>, each argument kept on one line (a line may break only between arguments). */
export function commandCode(command, attrs = {}) {
  const args = String(command).match(/"[^"]*"|\S+/g) || [];
  return h("code", attrs, args.flatMap((arg, i) => [i ? " " : null, h("span", { class: "arg" }, arg)]));
}
