// The lobby: the games, the "create a table" form (seats, rule toggles, presets) and the open tables.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { h, humanize, notify, replace } from "./dom.js";
import { translateStatic } from "./extras.js";
import * as words from "./words.js";
import * as botmaker from "./botmaker.js";

// Options people rarely change: folded away under "More rules" (scoring tables, shuffles, test helpers).
const ADVANCED = /^(scoring\.(?!target$)|betting\.|signals\.)|^(shuffle|deal|first_attacker|attack_cap|player_limit|bout_limit|first_dealer|hand_size)$/;

const state = { games: [], byName: new Map(), me: null };
const nameInput = document.getElementById("player-name");

async function main() {
  await i18n.load();
  translateStatic();
  document.title = `cardtable — ${t("lobby.title")}`;
  // A name typed while the page was loading is kept.
  if (!nameInput.value) nameInput.value = api.lastName();
  nameInput.addEventListener("change", () => api.rememberName(nameInput.value.trim()));
  try {
  await showAccount();
    state.games = await api.games();
  } catch (err) {
    notify(t("lobby.cannot_load_games", { error: err.message }), "error");
    return;
  }
  for (const g of state.games) state.byName.set(g.name, g);
  renderGames();
  setUpForm();
  document.getElementById("refresh-tables").addEventListener("click", refreshTables);
  botmaker.setUp();
  await refreshTables();
  refreshFinished();
  setInterval(refreshTables, 4000);
}

/** Who is signed in: their name (a link to their profile), ratings and the account page; a guest is offered to
 * sign in. Only signed-in people may create rated tables. */
async function showAccount() {
  const me = await api.account().catch(() => ({ person: null }));
  state.me = me.person ? me : null;
  const bar = document.getElementById("account-bar");
  const rated = document.getElementById("create-rated");
  rated.disabled = !state.me;
  const boards = h("a", { href: "/leaderboard/wizard", id: "leaderboards-link" }, t("ladder.leaderboards"));
  if (!state.me) {
    document.getElementById("create-rated-help").textContent = t("lobby.rated_sign_in");
    replace(bar, h("a", { href: "/account", id: "sign-in-link" }, t("account.sign_in")), " · ", boards);
    return;
  }
  const name = me.person.name;
  nameInput.value = name;
  nameInput.disabled = true;
  const ratings = me.ratings.map((r) => `${t(`game.${r.game}.title`)} ${r.rating}${r.provisional ? "?" : ""}`).join(" · ");
  replace(bar, h("a", { href: `/players/${encodeURIComponent(name)}`, id: "me-link" }, name),
    ratings ? h("span", { class: "my-ratings", id: "my-ratings" }, ` (${ratings}) `) : " ",
    h("a", { href: "/account", id: "account-link" }, t("account.title")), " · ", boards);
}

/** The name typed at the top (a signed-in person's own name), or null (with a message) if there is none. */
function requireName() {
  const name = nameInput.value.trim();
  if (state.me) return state.me.person.name;
  if (!name) {
    notify(t("lobby.type_name"), "error");
    nameInput.focus();
    return null;
  }
  api.rememberName(name);
  return name;
}

// The games.

function renderGames() {
  replace(document.getElementById("games"), state.games.map((g) => h("li", { class: "game-card" },
    h("h3", {}, t(`game.${g.name}.title`)),
    h("p", { class: "players" }, g.min_players === g.max_players ? t("lobby.players_n", { n: g.min_players }) : t("lobby.players_range", { min: g.min_players, max: g.max_players }), g.has_teams ? ` · ${t("lobby.partnerships")}` : ""),
    h("p", { class: "description" }, i18n.has(`game.${g.name}.description`) ? t(`game.${g.name}.description`) : g.description),
    h("button", { type: "button", class: "small", onclick: () => chooseGame(g.name) }, t("lobby.set_up", { title: t(`game.${g.name}.title`) })))));
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
  replace(select, state.games.map((g) => h("option", { value: g.name }, t(`game.${g.name}.title`))));
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
  document.getElementById("create-description").textContent = i18n.has(`game.${g.name}.description`) ? t(`game.${g.name}.description`) : g.description;
  const playersSpec = g.options.find((o) => o.name === "players");
  const preferred = playersSpec ? playersSpec.default : g.min_players;
  const players = document.getElementById("create-players");
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
  replace(players, counts.map((n) => h("option", { value: n, selected: n === preferred || undefined }, String(n))));
  const presets = Object.keys(g.presets || {});
  document.getElementById("preset-row").hidden = presets.length === 0;
  replace(document.getElementById("create-preset"), h("option", { value: "" }, t("lobby.no_preset")),
    presets.map((p) => h("option", { value: p }, i18n.has(`preset.${g.name}.${p}`) ? t(`preset.${g.name}.${p}`) : humanize(p))));
  renderOptions(g);
  renderSeats(true);
}

function renderOptions(g) {
  const specs = g.options.filter((o) => o.name !== "players");
  const main = specs.filter((o) => !ADVANCED.test(o.name)).map((o) => optionRow(g, o));
  const more = specs.filter((o) => ADVANCED.test(o.name)).map((o) => optionRow(g, o));
  document.getElementById("create-options").hidden = specs.length === 0;
  replace(document.getElementById("option-rows"), main,
    more.length ? h("details", { class: "more-rules", id: "more-rules" }, h("summary", {}, t("lobby.more_rules", { n: more.length })), h("div", { class: "option-grid" }, more)) : null);
}

/** An option's label and help, written for players in the catalogue when it has them. */
function optionWords(g, spec) {
  const key = `option.${g.name}.${spec.name}`;
  const label = i18n.has(key) ? t(key) : spec.name.split(".").map(humanize).join(" · ");
  const help = i18n.has(`${key}.help`) ? t(`${key}.help`) : spec.help;
  return { label, help };
}

function optionRow(g, spec) {
  const id = `opt-${spec.name.replace(/\./g, "-")}`;
  const words = optionWords(g, spec);
  const help = words.help ? h("span", { class: "help", id: `${id}-help` }, words.help) : null;
  const described = words.help ? `${id}-help` : undefined;
  const label = words.label;
  let input;
  if (spec.kind === "bool") {
    input = h("input", { type: "checkbox", id, "aria-describedby": described, dataset: { option: spec.name, kind: spec.kind } });
    input.checked = !!spec.default;
    return h("div", { class: "option bool" }, input, h("label", { for: id }, label), help);
  }
  if (spec.kind === "choice") {
    input = h("select", { id, "aria-describedby": described, dataset: { option: spec.name, kind: spec.kind } },
      spec.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === spec.default || undefined }, i18n.has(`choice.${c}`) ? t(`choice.${c}`) : humanize(c))));
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
    if (typeof value === "number" && Number.isNaN(value)) throw new Error(t("lobby.needs_number", { name: humanize(input.dataset.option) }));
    options[input.dataset.option] = value;
  }
  return options;
}

// Seats: the first is the host's; every other seat is a computer player unless the host keeps it for a
// friend (seed 004). Anyone with the link can still take over a computer seat before the start.

function renderSeats(reset = false) {
  const g = currentGame();
  const n = Number.parseInt(document.getElementById("create-players").value, 10);
  const previous = reset ? [] : [...document.querySelectorAll("[data-seat-choice]")].map((s) => s.value);
  const bots = g.bots || [];
  const label = (b) => words.botLabel(g.name, b, (g.bot_info || {})[b]?.label);
  // Where a learned player beats the default on the rules its net was trained for, the default seat ("bot:",
  // no name) lets the server choose by the table's options: that player on those rules, the default elsewhere.
  const trained = g.default_where_trained;
  const auto = () => (trained ? h("option", { value: "bot:" }, t("lobby.seat_bot_auto", { bot: words.botWord(trained), fallback: words.botWord(g.default_bot) })) : null);
  const choices = () => [h("option", { value: "human" }, t("lobby.seat_person")), auto(),
    bots.map((b) => h("option", { value: `bot:${b}` }, t(b === g.default_bot && !trained ? "lobby.seat_bot_default" : "lobby.seat_bot", { bot: label(b) })))];
  const rows = [h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, t("seat.numbered", { n: 1 })), h("span", {}, t("lobby.you")))];
  for (let seat = 1; seat < n; seat++) {
    const id = `seat-${seat}`;
    const select = h("select", { id, dataset: { seatChoice: String(seat) } }, choices());
    const wanted = previous[seat - 1];
    select.value = wanted && [...select.options].some((o) => o.value === wanted) ? wanted : trained ? "bot:" : `bot:${g.default_bot || bots[0]}`;
    rows.push(h("div", { class: "seat-row" }, h("label", { for: id, class: "seat-no" }, t("seat.numbered", { n: seat + 1 })), select));
  }
  replace(document.getElementById("seat-rows"), rows);
}

function readSeats() {
  const seats = [{ kind: "human" }];
  for (const select of document.querySelectorAll("[data-seat-choice]")) {
    seats.push(select.value === "human" ? { kind: "human" } : { kind: "bot", bot: select.value.slice(4) || null });
  }
  return seats;
}

/** The table settings of the form: trick pause, turn timer, takeovers during the game. */
function readSettings() {
  const pause = Number.parseFloat(document.getElementById("create-pace").value);
  const timerText = document.getElementById("create-timer").value.trim();
  const timer = timerText === "" ? null : Number.parseFloat(timerText);
  if (Number.isNaN(pause) || pause < 0 || pause > 10) throw new Error(t("lobby.bad_pace"));
  if (timer !== null && (Number.isNaN(timer) || timer < 1 || timer > 600)) throw new Error(t("lobby.bad_timer"));
  return { pace_ms: Math.round(pause * 1000), turn_seconds: timer, allow_takeover: document.getElementById("create-takeover").checked };
}

/** The optional deal seed: null for a random deal, else a whole number. */
function readSeed() {
  const text = document.getElementById("create-seed").value.trim();
  if (text === "") return null;
  if (!/^\d{1,15}$/.test(text)) throw new Error(t("lobby.bad_seed"));
  return Number(text);
}

async function onCreate(event) {
  event.preventDefault();
  const name = requireName();
  if (!name) return;
  const g = currentGame();
  let body;
  let settings;
  try {
    settings = readSettings();
    const seats = readSeats();
    const options = { ...readOptions(), players: seats.length };
    const preset = document.getElementById("create-preset").value || null;
    body = { game: g.name, options, preset, seats, name, seed: readSeed(), rated: document.getElementById("create-rated").checked };
  } catch (err) {
    notify(err.message, "error");
    return;
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const res = await api.createTable(body);
    api.saveToken(res.table_id, res.token);
    await api.settings(res.table_id, res.token, settings);
    location.href = `/table/${encodeURIComponent(res.table_id)}`;
  } catch (err) {
    notify(t("lobby.not_created", { error: err.message }), "error");
    button.disabled = false;
  }
}

// Open tables.

async function refreshTables() {
  let tables;
  try {
    tables = await api.listTables();
  } catch (err) {
    notify(t("lobby.cannot_load_tables", { error: err.message }), "error");
    return;
  }
  const list = document.getElementById("tables");
  if (!tables.length) {
    replace(list, h("li", { class: "empty" }, t("lobby.no_tables")));
    return;
  }
  replace(list, tables.map((t) => tableItem(t)));
}

function tableItem(table) {
  const mine = api.loadToken(table.table_id);
  const open = table.status === "waiting";
  return h("li", { class: "table-item", dataset: { table: table.table_id } },
    h("h3", {}, `${t(`game.${table.game}.title`)} · `, h("span", { class: "table-status" }, t(`lobby.status.${table.status}`)),
      table.rated ? [" · ", h("span", { class: "table-rated" }, t("lobby.rated_table"))] : null),
    table.status === "error" ? h("p", { class: "table-error" }, t("lobby.stopped", { reason: table.error ? words.stopText(table.error, (s) => (table.seats[s] ? words.displayName(table.seats[s].name) || t("seat.numbered", { n: s + 1 }) : null)) : t("table.no_reason") })) : null,
    h("ul", { class: "seat-list" }, table.seats.map((s) => h("li", {},
      h("span", { class: "seat-no" }, `${t("seat.numbered", { n: s.seat + 1 })}: `),
      s.kind === "bot" ? t("seat.computer", { bot: words.botWord(s.bot) })
        : s.kind === "remote" ? [words.displayName(s.name), t("seat.bot_mark"), ...words.botSeatTags(s).map((x) => ` · ${x}`)].join("") : s.taken ? `${words.displayName(s.name)}${s.host ? t("seat.host_mark") : ""}` : t("seat.free"),
      s.rating ? h("span", { class: "seat-rating" }, ` · ${s.rating.rating}${s.rating.provisional ? "?" : ""}`) : null,
      open && !mine && (s.kind === "bot" || !s.taken) && (!table.rated || (state.me && s.kind === "human")) ? h("button", { type: "button", class: "small join", onclick: () => join(table, s.seat) }, t(s.kind === "bot" ? "table.take_seat" : "table.join_seat", { n: s.seat + 1 })) : null))),
    h("a", { class: "button small", href: `/table/${encodeURIComponent(table.table_id)}` }, mine ? t("lobby.back_to_seat") : t("lobby.watch")));
}

/** Finished tables, newest first, each with a Replay link. */
async function refreshFinished() {
  const list = document.getElementById("finished");
  if (!list) return;
  let tables;
  try {
    tables = await api.finishedTables();
  } catch (err) {
    notify(t("lobby.cannot_load_tables", { error: err.message }), "error");
    return;
  }
  replace(list, tables.length ? tables.map((table) => {
    const token = api.loadToken(table.table_id);
    const src = `/api/tables/${encodeURIComponent(table.table_id)}/replay${token ? `?token=${encodeURIComponent(token)}` : ""}`;
    return h("li", { class: "table-item", dataset: { finished: table.table_id } },
      h("span", {}, `${t(`game.${table.game}.title`)}: ${table.seats.map(words.displayName).join(", ")} `),
      h("a", { class: "button small", href: `/replay.html?src=${encodeURIComponent(src)}` }, t("lobby.replay")), " ",
      h("a", { class: "button small", href: `/review.html?table=${encodeURIComponent(table.table_id)}` }, t("lobby.review")));
  }) : h("li", { class: "empty" }, t("lobby.no_finished")));
}

async function join(table, seat) {
  const name = requireName();
  if (!name) return;
  try {
    // A rated table's free seats are joined (they are never taken over from the computer).
    const res = table.rated ? await api.joinTable(table.table_id, seat, name) : await api.takeSeat(table.table_id, seat, name);
    api.saveToken(table.table_id, res.token);
    location.href = `/table/${encodeURIComponent(table.table_id)}`;
  } catch (err) {
    notify(t("lobby.could_not_join", { error: err.message }), "error");
    refreshTables();
  }
}

main();
