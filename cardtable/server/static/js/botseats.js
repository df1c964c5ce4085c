// The host's "Seat a bot" panel on the table page: the bots connected to the server (GET /api/bots, asked
// again each time the panel opens) and the table's computer seats. Inviting posts /invite; the bot takes the
// seat once it accepts and plays it from its next turn, the table's computer covering for it whenever it
// times out or goes away (docs/bot-api.md). A seat a bot holds is its own, connected or away: only the host
// frees it, with "Remove the bot" (posts /remove_bot; the table is told and the record notes it).
// Names are put on the page as text only (h() never parses HTML).

import * as api from "./api.js";
import { t } from "./i18n.js";
import { commandCode, h, replace } from "./dom.js";

const OPEN = new Set(["waiting", "playing", "paused"]);

const panel = {
  tableId: "",
  token: () => null,
  seatName: (seat) => String(seat),
  view: null,
  bots: null,       // [{name}] as last listed, or null before the first answer
  error: null,      // why the list could not be had
  message: null,    // {text, kind} after an invitation
  bot: null,        // the bot chosen in the list
  seat: null,       // the computer seat chosen
  drawn: "",        // what the panel shows now (redrawn only when it changes, so focus stays put)
};

/** Wire the button and the panel for a table (`seatName(seat)`: how the page names seats). */
export function setUp({ tableId, token, seatName }) {
  Object.assign(panel, { tableId, token, seatName });
  const button = document.getElementById("seat-bot-button");
  if (button) button.addEventListener("click", () => (isOpen() ? close() : open()));
}

/** A new view: the button shows for the host of an open table; an open panel follows the seats. */
export function update(view) {
  panel.view = view;
  const button = document.getElementById("seat-bot-button");
  if (!button) return;
  const usable = isHost(view) && OPEN.has(view.status) && !!panel.token();
  button.hidden = !usable;
  if (!usable) close();
  else if (isOpen()) draw();
}

function isHost(view) {
  return !!view && view.seat !== null && !!view.seats[view.seat] && !!view.seats[view.seat].host;
}

function isOpen() {
  const box = document.getElementById("seat-bot-panel");
  return !!box && !box.hidden;
}

async function open() {
  document.getElementById("seat-bot-panel").hidden = false;
  document.getElementById("seat-bot-button").setAttribute("aria-expanded", "true");
  panel.message = null;
  await refresh();
  const first = document.querySelector("#seat-bot-panel input:checked, #seat-bot-panel #seat-bot-refresh");
  if (first) first.focus({ preventScroll: true });
}

function close() {
  const box = document.getElementById("seat-bot-panel");
  if (!box || box.hidden) return;
  box.hidden = true;
  document.getElementById("seat-bot-button").setAttribute("aria-expanded", "false");
  const button = document.getElementById("seat-bot-button");
  if (!button.hidden) button.focus({ preventScroll: true });
}

/** Ask the server which bots are connected now, then redraw. */
async function refresh() {
  panel.drawn = "";
  try {
    const answer = await api.bots();
    panel.bots = answer.bots;
    panel.error = null;
  } catch (err) {
    panel.error = err.message;
  }
  draw();
}

/** The seats a bot may take: the computer's. */
function computerSeats(view) {
  return view.seats.filter((s) => s.kind === "bot");
}

function draw() {
  const view = panel.view;
  const box = document.getElementById("seat-bot-panel");
  if (!view || !box) return;
  const seats = computerSeats(view);
  const bots = panel.bots || [];
  const drawing = JSON.stringify([seats.map((s) => [s.seat, s.name]), view.seats.map((s) => [s.kind, s.name]), bots, panel.error, panel.message]);
  if (drawing === panel.drawn) return;
  panel.drawn = drawing;
  if (!bots.some((b) => b.name === panel.bot)) {
    // A bot not yet at this table first.
    const free = bots.find((b) => !view.seats.some((s) => s.kind === "remote" && s.name === b.name)) || bots[0];
    panel.bot = free ? free.name : null;
  }
  if (!seats.some((s) => s.seat === panel.seat)) panel.seat = seats.length ? seats[0].seat : null;
  const why = [];
  if (panel.error) why.push(h("p", { class: "why error" }, t("bots.cannot_list", { error: panel.error })));
  else if (panel.bots === null) why.push(h("p", { class: "why" }, t("bots.looking")));
  else if (!bots.length) why.push(h("p", { class: "why" }, t("bots.none_connected")), connectLine());
  if (!seats.length) why.push(h("p", { class: "why" }, t("bots.no_computer_seat")));
  const ready = panel.bots !== null && bots.length > 0 && seats.length > 0;
  replace(box,
    h("button", { type: "button", class: "small close", onclick: close }, t("bots.close")),
    h("h2", { id: "seat-bot-title" }, t("bots.seat_a_bot")),
    h("p", { class: "hint" }, t("bots.hint")),
    why,
    bots.length ? botList(view, bots) : null,
    ready ? seatChoice(seats) : null,
    heldSeats(view),
    h("div", { class: "seat-bot-buttons" },
      ready ? h("button", { type: "button", class: "primary", id: "seat-bot-invite", onclick: invite }, t("bots.invite")) : null,
      h("button", { type: "button", id: "seat-bot-refresh", onclick: refresh }, t("bots.refresh"))),
    h("p", { id: "seat-bot-status", class: `seat-bot-status ${panel.message ? panel.message.kind : ""}`, role: "status" }, panel.message ? panel.message.text : ""));
}

/** The connected bots as a choice of one; a bot that already plays here says which seat. */
function botList(view, bots) {
  return h("fieldset", { class: "bot-choice" }, h("legend", {}, t("bots.connected", { n: bots.length })),
    bots.map((b, i) => {
      const id = `seat-bot-choice-${i}`;
      const here = view.seats.filter((s) => s.kind === "remote" && s.name === b.name).map((s) => s.seat + 1);
      const input = h("input", { type: "radio", name: "seat-bot-choice", id, value: b.name, onchange: () => { panel.bot = b.name; } });
      input.checked = b.name === panel.bot;
      return h("div", { class: "option bool" }, input, h("label", { for: id }, b.name),
        here.length ? h("span", { class: "help" }, t("bots.plays_here", { seats: here.join(", ") })) : null);
    }));
}

function seatChoice(seats) {
  const select = h("select", { id: "seat-bot-seat", onchange: (ev) => { panel.seat = Number(ev.target.value); } },
    seats.map((s) => h("option", { value: String(s.seat), selected: s.seat === panel.seat || undefined },
      t("bots.seat_option", { n: s.seat + 1, name: panel.seatName(s.seat) }))));
  return h("div", { class: "row" }, h("label", { for: "seat-bot-seat" }, t("bots.computer_seat")), select);
}

/** The seats bots hold, each with "Remove the bot" (the seat goes back to the computer). */
function heldSeats(view) {
  const held = view.seats.filter((s) => s.kind === "remote");
  if (!held.length) return null;
  return h("fieldset", { class: "bot-held" }, h("legend", {}, t("bots.held_seats")),
    held.map((s) => h("div", { class: "row" },
      h("span", {}, t("bots.seat_option", { n: s.seat + 1, name: s.name })),
      h("button", { type: "button", class: "small", id: `seat-bot-remove-${s.seat}`, onclick: () => remove(s.seat, s.name) },
        t("bots.remove")))));
}

async function remove(seat, name) {
  try {
    await api.removeBot(panel.tableId, panel.token(), seat);
    panel.message = { text: t("bots.removed", { bot: name, n: seat + 1 }), kind: "" };
  } catch (err) {
    panel.message = { text: t("bots.not_removed", { error: err.message }), kind: "error" };
  }
  await refresh();
}

/** How a bot's owner connects it to this server. */
function connectLine() {
  return h("p", { class: "hint" }, t("bots.connect_with"), " ",
    commandCode(`cardtable bot-connect ${location.origin} --token-file FILE "python3 my_bot.py"`));
}

async function invite() {
  const bot = panel.bot;
  const seat = panel.seat;
  if (bot === null || seat === null) return;
  const button = document.getElementById("seat-bot-invite");
  if (button) button.disabled = true;
  try {
    const answer = await api.inviteBot(panel.tableId, panel.token(), seat, bot);
    const key = answer.connected ? "bots.invited" : "bots.invited_offline";
    panel.message = { text: t(key, { bot: answer.bot, n: answer.seat + 1 }), kind: "" };
    panel.bot = null;  // the next choice is a bot not seated here yet
  } catch (err) {
    panel.message = { text: t("bots.not_invited", { error: err.message }), kind: "error" };
  }
  await refresh();
}
