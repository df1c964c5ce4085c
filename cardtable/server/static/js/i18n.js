// The message catalogue: every word the pages show comes from static/i18n/<lang>.json.
// t("key", {name: "Rick"}) fills {name}; a key with plural forms ("cards": {"one": .., "other": ..})
// picks the form for params.n by the language's plural rules. Missing keys fall back to English.

export const LANGUAGES = { en: "English", es: "Español", ru: "Русский" };
const STORE_KEY = "cardtable.lang";

let current = "en";
let messages = {};
let english = {};

/** The language chosen: the stored switch, else the browser's first supported language, else English. */
export function preferredLanguage() {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && LANGUAGES[stored]) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

async function fetchCatalogue(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalogue for ${lang}`);
  return response.json();
}

/** Load English and the chosen language; set <html lang>. */
export async function load(lang = preferredLanguage()) {
  english = await fetchCatalogue("en");
  current = lang;
  messages = lang === "en" ? english : await fetchCatalogue(lang).catch(() => english);
  document.documentElement.lang = current;
  return current;
}

/** The language of the page now. */
export function lang() {
  return current;
}

/** Remember a language choice and reload the page in it. */
export function switchTo(lang) {
  localStorage.setItem(STORE_KEY, lang);
  location.reload();
}

function pluralForm(n) {
  if (current === "ru") {
    const d = Math.abs(n) % 10;
    const dd = Math.abs(n) % 100;
    if (d === 1 && dd !== 11) return "one";
    if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return "few";
    return "many";
  }
  return n === 1 ? "one" : "other";
}

function lookup(key) {
  const own = messages[key];
  return own !== undefined ? own : english[key];
}

/** Whether the catalogue (this language or English) has a key. */
export function has(key, ownLanguageOnly = false) {
  return ownLanguageOnly ? messages[key] !== undefined : lookup(key) !== undefined;
}

/** The message `key` with its {placeholders} filled from params. */
export function t(key, params = {}) {
  let text = lookup(key);
  if (text === undefined) return key;
  if (typeof text === "object") {
    const n = Number(params.n);
    text = text[pluralForm(n)] ?? text.other ?? text.many ?? text.one;
  }
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));
}

/** A <select> that switches the page's language. */
export function languageSwitch(h) {
  const select = h("select", { id: "language", "aria-label": t("language.label") },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === current || undefined }, name)));
  select.addEventListener("change", () => switchTo(select.value));
  return select;
}
