// The account page: sign in or create an account (a guest), or, signed in: log out, change the password,
// make bot accounts, delete the account. The server's rules and answers: docs/playing.md, Accounts.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { h, notify, replace } from "./dom.js";
import { translateStatic } from "./extras.js";

const $ = (id) => document.getElementById(id);

async function main() {
  await i18n.load();
  translateStatic();
  document.title = `cardtable — ${t("account.title")}`;
  $("login-form").addEventListener("submit", (ev) => submit(ev, "login-button", logIn));
  $("signup-form").addEventListener("submit", (ev) => submit(ev, "signup-button", signUp));
  $("password-form").addEventListener("submit", (ev) => submit(ev, "password-button", changePassword));
  $("bot-form").addEventListener("submit", (ev) => submit(ev, "bot-button", makeBot));
  $("delete-form").addEventListener("submit", (ev) => submit(ev, "delete-button", deleteAccount));
  $("logout-button").addEventListener("click", (ev) => submit(ev, "logout-button", logOut));
  await show();
}

/** Run a form's action with its button disabled; a refusal is shown in the page's language. */
async function submit(event, buttonId, action) {
  event.preventDefault();
  const button = $(buttonId);
  button.disabled = true;
  try {
    await action();
  } catch (err) {
    notify(err.message, "error");
  } finally {
    button.disabled = false;
  }
}

async function show() {
  let me;
  try {
    me = await api.account();
  } catch (err) {
    notify(t("account.cannot_load", { error: err.message }), "error");
    return;
  }
  $("guest").hidden = !!me.person;
  $("person").hidden = !me.person;
  if (!me.person) return;
  const link = $("profile-link");
  link.textContent = me.person.name;
  link.href = `/players/${encodeURIComponent(me.person.name)}`;
  replace($("bot-list"), me.bots.length ? me.bots.map((b) => h("li", {}, b.name, b.revoked ? ` (${t("account.revoked")})` : ""))
    : h("li", {}, t("account.no_bots")));
}

async function logIn() {
  await api.accountAction("login", { name: $("login-name").value.trim(), password: $("login-password").value });
  location.href = "/";
}

async function signUp() {
  await api.accountAction("signup", { name: $("signup-name").value.trim(), password: $("signup-password").value });
  if ($("signup-claim").checked) {
    const tokens = Object.keys(localStorage).filter((k) => k.startsWith("cardtable.token.")).map((k) => localStorage.getItem(k));
    if (tokens.length) await api.accountAction("claim", { tokens: tokens.slice(0, 500) });
  }
  location.href = "/";
}

async function logOut() {
  await api.accountAction("logout");
  notify(t("account.logged_out"));
  await show();
}

async function changePassword() {
  await api.accountAction("password", { old: $("password-old").value, new: $("password-new").value });
  $("password-old").value = "";
  $("password-new").value = "";
  notify(t("account.password_changed"));
}

async function makeBot() {
  const made = await api.accountAction("bots", { name: $("bot-name").value.trim() });
  const box = $("bot-token");
  replace(box, t("account.bot_token", { name: made.name }), " ", h("code", {}, made.token));
  box.hidden = false;
  $("bot-name").value = "";
  await show();
}

async function deleteAccount() {
  if (!confirm(t("account.delete_confirm"))) return;
  await api.accountAction("delete", { password: $("delete-password").value });
  notify(t("account.deleted"));
  await show();
}

main();
