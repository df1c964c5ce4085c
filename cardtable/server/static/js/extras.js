// The table's extras: chat and quick reactions, the Rules panel, sound, the language switch, and the
// page's fixed words (elements with data-i18n="key" get the catalogue's text).
// Chat texts and names are put on the page as text nodes only (h() never parses HTML).

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { h, notify, replace } from "./dom.js";
import * as words from "./words.js";

const REACTION_MARKS = { thumbs_up: "✔", well_played: "★", oops: "!", laugh: "☺", thinking: "?", hurry: "»" };
const SOUND_KEY = "cardtable.sound";
let table = null;   // {tableId, token(), seatName(seat)}
let audio = null;

/** Fill every element marked data-i18n (text) or data-i18n-label (aria-label) from the catalogue. */
export function translateStatic() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  const tools = document.getElementById("page-tools");
  if (tools) replace(tools, i18n.languageSwitch(h), soundSwitch(), document.body.classList.contains("table-page") ? notifySwitch() : null);
}

/** Set up the chat panel and reactions for a table. */
export function setUp(options) {
  table = options;
  const form = document.getElementById("chat-form");
  if (!form) return;
  for (const line of options.social.chat) addChatLine(line);
  const input = document.getElementById("chat-text");
  input.maxLength = options.social.max_chat_chars;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      await api.chat(table.tableId, table.token(), { text });
      input.value = "";
    } catch (err) {
      notify(err.message, "error");
    }
  });
  replace(document.getElementById("reactions"), options.social.reactions.map((r) => h("button", {
    type: "button", class: "small reaction", title: t(`reaction.${r}`), "aria-label": t(`reaction.${r}`),
    onclick: () => api.chat(table.tableId, table.token(), { reaction: r }).catch((err) => notify(err.message, "error")),
  }, h("span", { "aria-hidden": "true", class: "reaction-mark" }, REACTION_MARKS[r] || ""), " ", t(`reaction.${r}`))));
  const seated = () => !!table.token();
  document.getElementById("chat-panel").dataset.seated = String(seated());
}

/** One line of chat, a reaction or a note from the table, added to the chat panel. */
export function addChatLine(line) {
  const list = document.getElementById("chat-lines");
  if (!list) return;
  let content;
  if (line.kind === "chat") content = [h("strong", {}, `${line.name}: `), line.text];
  else if (line.kind === "reaction") content = [h("strong", {}, `${line.name}: `), h("span", { class: "reaction-mark", "aria-hidden": "true" }, REACTION_MARKS[line.reaction] || ""), " ", t(`reaction.${line.reaction}`)];
  else content = [h("em", {}, t(`note.${line.note}`, { name: words.displayName(line.name), who: words.displayName(line.who ?? ""), n: Number.isInteger(line.seat) ? line.seat + 1 : "" }))];
  list.append(h("li", { class: `chat-${line.kind}`, dataset: line.kind === "note" ? { note: line.note } : {} }, content));
  while (list.children.length > 60) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

// Rules.

/** The Rules button in the top bar opens the game's players' rules (in the page's language if written). */
export function rulesButton(game) {
  const button = document.getElementById("rules-button");
  const panel = document.getElementById("rules-panel");
  if (!button || !panel) return;
  button.hidden = false;
  button.onclick = async () => {
    if (!panel.hidden) {
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
      return;
    }
    try {
      const rules = await api.rules(game, i18n.lang());
      const body = document.createElement("div");
      body.className = "rules-text";
      body.lang = rules.lang;
      // The server renders our own Markdown with raw HTML switched off.
      body.innerHTML = rules.html;
      replace(panel, h("button", { type: "button", class: "small close", onclick: () => button.click() }, t("rules.close")), body);
      panel.hidden = false;
      button.setAttribute("aria-expanded", "true");
    } catch (err) {
      notify(err.message, "error");
    }
  };
}

// Sound: off by default; a short tone made with Web Audio (no files to download).

function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

function soundSwitch() {
  const box = h("input", { type: "checkbox", id: "sound-toggle" });
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off");
    if (box.checked) sound("turn");
  });
  return h("span", { class: "sound-switch" }, box, h("label", { for: "sound-toggle" }, t("sound.label")));
}

const NOTIFY_KEY = "cardtable.notify";

/** Whether the person asked for a browser notification when their turn comes (and the browser allows it). */
export function notificationsOn() {
  return localStorage.getItem(NOTIFY_KEY) === "on" && typeof Notification !== "undefined" && Notification.permission === "granted";
}

/** The opt-in "Notify me" box: asks the browser's permission when ticked; remembered in this browser. */
function notifySwitch() {
  if (typeof Notification === "undefined") return null;
  const box = h("input", { type: "checkbox", id: "notify-toggle" });
  box.checked = localStorage.getItem(NOTIFY_KEY) === "on";
  box.addEventListener("change", async () => {
    if (box.checked && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission().catch(() => "denied");
      if (answer !== "granted") {
        box.checked = false;
        notify(t("table.notify_refused"), "warn");
      }
    }
    localStorage.setItem(NOTIFY_KEY, box.checked ? "on" : "off");
  });
  return h("span", { class: "sound-switch" }, box, h("label", { for: "notify-toggle", title: t("table.notify_hint") }, t("table.notify_label")));
}

/** Play "turn" (your turn) or "card" (a card played), if sound is on. */
export function sound(kind) {
  if (!soundOn()) return;
  try {
    audio ||= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = kind === "turn" ? 660 : 220;
    osc.type = kind === "turn" ? "sine" : "triangle";
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + (kind === "turn" ? 0.35 : 0.08));
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  } catch {
    // No audio device: silence is fine.
  }
}
