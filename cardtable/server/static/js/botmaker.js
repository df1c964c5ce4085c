// The lobby's bots: which bots are connected now, and making a bot account. A server started with
// --open-bots lets anyone make one here (a name, then its token shown this once with the command that
// connects a program); otherwise the server's admin makes them (cardtable bots add). docs/bot-api.md.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { commandCode, h, notify, replace } from "./dom.js";

// The names the server accepts (cardtable.store.accounts.NAME_PATTERN): checked here first, in the page's words.
const NAME = /^[\p{L}\p{N}_ .-]{1,32}$/u;

/** Fill the lobby's Bots section from GET /api/bots. */
export async function setUp() {
  const box = document.getElementById("bot-maker");
  if (!box) return;
  let answer;
  try {
    answer = await api.bots();
  } catch (err) {
    replace(box, h("p", { class: "why" }, t("bots.cannot_list", { error: err.message })));
    return;
  }
  const names = answer.bots.map((b) => b.name);
  replace(document.getElementById("bots-connected"),
    names.length ? t("bots.connected_now", { names: names.join(", "), n: names.length }) : t("bots.none_now"));
  replace(box, answer.open_bots ? makeForm() : adminLine());
}

/** Without --open-bots: who makes bot accounts, and how. */
function adminLine() {
  return h("div", { class: "bots-closed" },
    h("p", {}, t("bots.admin_makes")),
    h("pre", {}, commandCode("cardtable bots add NAME --token-file NAME.token")),
    h("p", {}, t("bots.then_connect")),
    h("pre", {}, commandCode(connectCommand("NAME.token"))));
}

function makeForm() {
  const input = h("input", { id: "bot-name", name: "bot-name", maxlength: 32, autocomplete: "off", "aria-describedby": "bot-name-help" });
  const form = h("form", { id: "make-bot-form", novalidate: true, onsubmit: (ev) => { ev.preventDefault(); make(input); } },
    h("div", { class: "row" }, h("label", { for: "bot-name" }, t("bots.name")), input),
    h("p", { class: "hint", id: "bot-name-help" }, t("bots.name_help")),
    h("button", { type: "submit", class: "primary", id: "make-bot" }, t("bots.make")));
  return [form, h("div", { id: "bot-made", class: "bot-made", hidden: true })];
}

async function make(input) {
  const name = input.value.trim();
  if (!name) {
    notify(t("bots.type_name"), "error");
    input.focus();
    return;
  }
  if (!NAME.test(name)) {
    notify(t("error.bot_name_bad", { name }), "error");
    input.focus();
    return;
  }
  const button = document.getElementById("make-bot");
  button.disabled = true;
  try {
    const made = await api.makeBot(name);
    notify("");
    input.value = "";
    showToken(made.name, made.token);
  } catch (err) {
    notify(t("bots.not_made", { error: err.message }), "error");
  } finally {
    button.disabled = false;
  }
}

/** The token, this once, with a warning to save it and the command that connects a program with it. */
function showToken(name, token) {
  const box = document.getElementById("bot-made");
  const file = tokenFile(name);
  const command = connectCommand(file);
  box.hidden = false;
  replace(box,
    h("h3", { id: "bot-made-title" }, t("bots.made", { name })),
    h("p", { class: "warning", role: "alert" }, h("strong", {}, t("bots.save_now")), " ", t("bots.save_why", { name })),
    h("div", { class: "row" }, h("label", { for: "bot-token" }, t("bots.token_of", { name })),
      h("input", { id: "bot-token", readonly: true, value: token, spellcheck: "false", autocomplete: "off" }),
      h("button", { type: "button", class: "small", onclick: () => copy("bot-token", token) }, t("bots.copy_token"))),
    h("p", {}, t("bots.save_in", { file })),
    h("pre", {}, commandCode(command, { id: "bot-command" })),
    h("div", { class: "result-buttons" },
      h("button", { type: "button", class: "small", onclick: () => copy("bot-command", command) }, t("bots.copy_command")),
      h("button", { type: "button", class: "small", id: "bot-saved", onclick: () => forget(box) }, t("bots.saved"))));
  document.getElementById("bot-token").select();
}

/** "I have saved it": the token leaves the page. */
function forget(box) {
  replace(box, h("p", { class: "hint" }, t("bots.forgotten")));
}

async function copy(id, text) {
  try {
    await navigator.clipboard.writeText(text);
    notify(t("bots.copied"));
  } catch {
    const el = document.getElementById(id);
    if (el && el.select) el.select();
    notify(t("bots.copy_select"));
  }
}

/** A file name for a bot's token: its name without spaces (or "bot" when that would read as an option). */
function tokenFile(name) {
  const base = name.replace(/\s+/g, "_");
  return `${/^[-.]/.test(base) ? `bot${base}` : base}.token`;
}

function connectCommand(file) {
  return `cardtable bot-connect ${location.origin} --token-file ${file} "python3 my_bot.py"`;
}
