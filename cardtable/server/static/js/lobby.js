// The lobby: the games, the "create a table" form (seats, rule toggles, presets) and the open tables.

import * as api from "./api.js";
import { h, humanize, notify, replace } from "./dom.js";

const state = { games: [], byName: new Map() };
const nameInput = document.getElementById("player-name");

async function main() {
  nameInput.value = api.lastName();
  nameInput.addEventListener("change", () => api.rememberName(nameInput.value.trim()));
  try {
    state.games = await api.games();
  } catch (err) {
    notify(`Cannot load the games: ${err.message}`, "error");
    return;
  }
  for (const g of state.games) state.byName.set(g.name, g);
  renderGames();
  setUpForm();
  document.getElementById("refresh-tables").addEventListener("click", refreshTables);
  await refreshTables();
  setInterval(refreshTables, 4000);
}

/** The name typed at the top, or null (with a message) if there is none. */
function requireName() {
  const name = nameInput.value.trim();
  if (!name) {
    notify("Type your name first (at the top of the page).", "error");
    nameInput.focus();
    return null;
  }
  api.rememberName(name);
  return name;
}

// The games.

function renderGames() {
  replace(document.getElementById("games"), state.games.map((g) => h("li", { class: "game-card" },
    h("h3", {}, g.title),
    h("p", { class: "players" }, g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}–${g.max_players} players`, g.has_teams ? " · partnerships" : ""),
    h("p", { class: "description" }, g.description),
    h("button", { type: "button", class: "small", onclick: () => chooseGame(g.name) }, `Set up a ${g.title} table`))));
}

function chooseGame(name) {
  const select = document.getElementById("create-game");
  select.value = name;
  select.dispatchEvent(new Event("change"));
  document.getElementById("create-title").scrollIntoView({ behavior: "smooth" });
  select.focus();
}

// The create form.

function setUpForm() {
  const select = document.getElementById("create-game");
  replace(select, state.games.map((g) => h("option", { value: g.name }, g.title)));
  select.addEventListener("change", onGameChange);
  document.getElementById("create-players").addEventListener("change", renderSeats);
  document.getElementById("create-preset").addEventListener("change", applyPreset);
  document.getElementById("create-form").addEventListener("submit", onCreate);
  onGameChange();
}

function currentGame() {
  return state.byName.get(document.getElementById("create-game").value);
}

function onGameChange() {
  const g = currentGame();
  if (!g) return;
  document.getElementById("create-description").textContent = g.description;
  const playersSpec = g.options.find((o) => o.name === "players");
  const preferred = playersSpec ? playersSpec.default : g.min_players;
  const players = document.getElementById("create-players");
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
  replace(players, counts.map((n) => h("option", { value: n, selected: n === preferred || undefined }, String(n))));
  const presets = Object.keys(g.presets || {});
  document.getElementById("preset-row").hidden = presets.length === 0;
  replace(document.getElementById("create-preset"), h("option", { value: "" }, "Standard rules (no preset)"),
    presets.map((p) => h("option", { value: p }, humanize(p))));
  renderOptions(g);
  renderSeats();
}

function renderOptions(g) {
  const rows = g.options.filter((o) => o.name !== "players").map((o) => optionRow(o));
  document.getElementById("create-options").hidden = rows.length === 0;
  replace(document.getElementById("option-rows"), rows);
}

function optionRow(spec) {
  const id = `opt-${spec.name.replace(/\./g, "-")}`;
  const help = spec.help ? h("span", { class: "help", id: `${id}-help` }, spec.help) : null;
  const described = spec.help ? `${id}-help` : undefined;
  const label = spec.name.split(".").map(humanize).join(" · ");
  let input;
  if (spec.kind === "bool") {
    input = h("input", { type: "checkbox", id, "aria-describedby": described, dataset: { option: spec.name, kind: spec.kind } });
    input.checked = !!spec.default;
    return h("div", { class: "option bool" }, input, h("label", { for: id }, label), help);
  }
  if (spec.kind === "choice") {
    input = h("select", { id, "aria-describedby": described, dataset: { option: spec.name, kind: spec.kind } },
      spec.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === spec.default || undefined }, humanize(c))));
  } else {
    const numeric = spec.kind === "int" || spec.kind === "float";
    input = h("input", { id, type: numeric ? "number" : "text", step: spec.kind === "float" ? "any" : numeric ? "1" : undefined, "aria-describedby": described, dataset: { option: spec.name, kind: spec.kind } });
    input.value = spec.default === null || spec.default === undefined ? "" : String(spec.default);
  }
  return h("div", { class: "option" }, h("label", { for: id }, label), input, help);
}

/** Set every toggle back to its default, then to the preset's values. */
function applyPreset() {
  const g = currentGame();
  const preset = document.getElementById("create-preset").value;
  const values = preset ? g.presets[preset] : {};
  for (const spec of g.options) {
    if (spec.name === "players") continue;
    const value = Object.hasOwn(flatten(values), spec.name) ? flatten(values)[spec.name] : spec.default;
    setOption(spec, value);
  }
  const p = flatten(values).players;
  if (Number.isInteger(p)) {
    document.getElementById("create-players").value = String(p);
    renderSeats();
  }
}

/** {"a": {"b": 1}} -> {"a.b": 1} (presets may nest option groups). */
function flatten(values, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(values || {})) {
    if (v && typeof v === "object" && !Array.isArray(v)) flatten(v, `${prefix}${k}.`, out);
    else out[prefix + k] = v;
  }
  return out;
}

function setOption(spec, value) {
  const input = document.querySelector(`[data-option="${CSS.escape(spec.name)}"]`);
  if (!input) return;
  if (spec.kind === "bool") input.checked = !!value;
  else if (spec.kind === "choice") input.value = JSON.stringify(value);
  else input.value = value === null || value === undefined ? "" : String(value);
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    let value;
    if (kind === "bool") value = input.checked;
    else if (kind === "choice") value = JSON.parse(input.value);
    else if (kind === "int") value = Number.parseInt(input.value, 10);
    else if (kind === "float") value = Number.parseFloat(input.value);
    else value = input.value;
    if (typeof value === "number" && Number.isNaN(value)) throw new Error(`${humanize(input.dataset.option)} needs a number`);
    options[input.dataset.option] = value;
  }
  return options;
}

// Seats: the first is the host's; each other seat is a person (a friend joins it) or a computer player.

function renderSeats() {
  const g = currentGame();
  const n = Number.parseInt(document.getElementById("create-players").value, 10);
  const previous = [...document.querySelectorAll("[data-seat-choice]")].map((s) => s.value);
  const choices = [h("option", { value: "human" }, "A person (invite a friend)"),
    (g.bots || []).map((b) => h("option", { value: `bot:${b}` },
      `Computer: ${(g.bot_info || {})[b]?.label || b}${b === g.default_bot ? " (default)" : ""}`))];
  const rows = [h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, "Seat 1"), h("span", {}, "You"))];
  for (let seat = 1; seat < n; seat++) {
    const id = `seat-${seat}`;
    const select = h("select", { id, dataset: { seatChoice: String(seat) } }, choices.map((c) => (Array.isArray(c) ? c.map((o) => o.cloneNode(true)) : c.cloneNode(true))));
    select.value = previous[seat - 1] || `bot:${g.default_bot || (g.bots || [])[0]}`;
    rows.push(h("div", { class: "seat-row" }, h("label", { for: id, class: "seat-no" }, `Seat ${seat + 1}`), select));
  }
  replace(document.getElementById("seat-rows"), rows);
}

function readSeats() {
  const seats = [{ kind: "human" }];
  for (const select of document.querySelectorAll("[data-seat-choice]")) {
    seats.push(select.value === "human" ? { kind: "human" } : { kind: "bot", bot: select.value.slice(4) });
  }
  return seats;
}

/** The optional deal seed: null for a random deal, else a whole number. */
function readSeed() {
  const text = document.getElementById("create-seed").value.trim();
  if (text === "") return null;
  if (!/^\d{1,15}$/.test(text)) throw new Error("The deal seed must be a whole number, or empty for a random deal.");
  return Number(text);
}

async function onCreate(event) {
  event.preventDefault();
  const name = requireName();
  if (!name) return;
  const g = currentGame();
  let body;
  try {
    const seats = readSeats();
    const options = { ...readOptions(), players: seats.length };
    const preset = document.getElementById("create-preset").value || null;
    body = { game: g.name, options, preset, seats, name, seed: readSeed() };
  } catch (err) {
    notify(err.message, "error");
    return;
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const res = await api.createTable(body);
    api.saveToken(res.table_id, res.token);
    location.href = `/table/${encodeURIComponent(res.table_id)}`;
  } catch (err) {
    notify(`The table was not created: ${err.message}`, "error");
    button.disabled = false;
  }
}

// Open tables.

async function refreshTables() {
  let tables;
  try {
    tables = await api.listTables();
  } catch (err) {
    notify(`Cannot load the tables: ${err.message}`, "error");
    return;
  }
  const list = document.getElementById("tables");
  if (!tables.length) {
    replace(list, h("li", { class: "empty" }, "No open tables yet: create one."));
    return;
  }
  replace(list, tables.map((t) => tableItem(t)));
}

function tableItem(t) {
  const mine = api.loadToken(t.table_id);
  const status = t.status === "waiting" ? "waiting for players" : t.status;
  return h("li", { class: "table-item", dataset: { table: t.table_id } },
    h("h3", {}, `${t.title} · `, h("span", { class: "table-status" }, status)),
    h("ul", { class: "seat-list" }, t.seats.map((s) => h("li", {},
      h("span", { class: "seat-no" }, `Seat ${s.seat + 1}: `),
      s.kind === "bot" ? `computer (${s.bot})` : s.taken ? `${s.name}${s.host ? " (host)" : ""}` : "free",
      s.kind === "human" && !s.taken && t.status === "waiting" && !mine ? h("button", { type: "button", class: "small join", onclick: () => join(t, s.seat) }, `Join seat ${s.seat + 1}`) : null))),
    h("a", { class: "button small", href: `/table/${encodeURIComponent(t.table_id)}` }, mine ? "Back to your seat" : "Watch"));
}

async function join(table, seat) {
  const name = requireName();
  if (!name) return;
  try {
    const res = await api.joinTable(table.table_id, seat, name);
    api.saveToken(table.table_id, res.token);
    location.href = `/table/${encodeURIComponent(table.table_id)}`;
  } catch (err) {
    notify(`Could not join: ${err.message}`, "error");
    refreshTables();
  }
}

main();
