// The table page: one WebSocket per table, and the whole screen redrawn from each `view` message only.
// A game module (static/games/<name>.js) turns the observation into a view model; generic.js is the
// fallback that keeps any game playable before it has its own view.

import * as api from "./api.js";
import { classify, matchSelection, selectableCards, typeWords } from "./actions.js";
import { Catalogue, cardBack, cardFace } from "./cards.js";
import { capitalize, h, listWords, notify, replace } from "./dom.js";
import * as generic from "../games/generic.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const root = document.getElementById("table");

const page = {
  token: api.loadToken(tableId),
  game: null,          // the catalogue entry of this table's game
  catalogue: null,     // card id -> words
  module: generic,     // the game's view module
  socket: null,
  view: null,
  events: [],          // event texts shown in the log, oldest first
  freshSocket: true,   // the next view is the first on this connection: it carries every event so far
  pendingVersion: null,// the version an action was sent on; cleared by a newer view or an error
  selected: new Set(), // cards chosen for a multi-card action (Mus discards, several attacks)
  choiceCard: null,    // a card with several legal actions, waiting for the choice
  selectionVersion: -1,
  resultDismissed: false,
  retries: 0,
};

// Start-up.

async function main() {
  document.getElementById("share-link").value = `${location.origin}/table/${encodeURIComponent(tableId)}`;
  document.getElementById("copy-link").addEventListener("click", copyLink);
  try {
    const summary = await api.getTable(tableId);
    page.game = await api.game(summary.game);
    page.catalogue = new Catalogue(page.game.cards);
    document.title = `${page.game.title} — cardtable`;
    document.getElementById("game-title").textContent = page.game.title;
    // `?view=generic` draws the table with the generic view (how a game without its own view looks).
    const forced = new URLSearchParams(location.search).get("view");
    page.module = forced === "generic" ? generic : await loadModule(summary.game);
  } catch (err) {
    notify(`Cannot open table ${tableId}: ${err.message}`, "error");
    return;
  }
  connect();
}

/** The game's own view module, or the generic one if it has none yet. */
async function loadModule(name) {
  try {
    return await import(`../games/${name}.js`);
  } catch {
    return generic;
  }
}

async function copyLink() {
  const input = document.getElementById("share-link");
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    notify("Link copied: send it to your friends.");
  } catch {
    notify("Select the link and copy it to share the table.");
  }
}

// The connection.

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = page.token ? `?token=${encodeURIComponent(page.token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`);
  page.socket = socket;
  page.freshSocket = true;
  socket.addEventListener("open", () => { page.retries = 0; root.dataset.connected = "true"; });
  socket.addEventListener("message", (msg) => onMessage(msg.data));
  socket.addEventListener("close", (ev) => onClose(socket, ev));
}

function onClose(socket, ev) {
  if (page.socket !== socket) return;
  root.dataset.connected = "false";
  if (ev.code === 4404) {
    notify("This table does not exist (any more).", "error");
    return;
  }
  page.retries += 1;
  // 1012/1001: the server restarts or goes away (it closes every socket first); come back when it is up.
  const restarting = ev.code === 1012 || ev.code === 1001;
  notify(restarting ? "The server is restarting; reconnecting…" : "Connection lost; reconnecting…", "warn");
  setTimeout(connect, Math.min(5000, (restarting ? 500 : 300) * 2 ** Math.min(page.retries, 4)));
}

function reconnect() {
  const old = page.socket;
  page.socket = null;
  if (old) old.close();
  connect();
}

function onMessage(text) {
  let msg;
  try { msg = JSON.parse(text); } catch { return; }
  if (msg.type === "view") onView(msg);
  else if (msg.type === "error") {
    page.pendingVersion = null;
    root.dataset.pending = "false";
    notify(msg.message, "error");
    if (page.view) render();
  }
}

function onView(view) {
  if (page.freshSocket) page.events = [];
  page.freshSocket = false;
  for (const e of view.events || []) page.events.push(withNames(e.text, view));
  if (page.events.length > 400) page.events.splice(0, page.events.length - 400);
  if (page.pendingVersion !== null && (view.version > page.pendingVersion || view.to_act !== view.seat)) {
    page.pendingVersion = null;
  }
  if (!page.view || view.version !== page.view.version) {
    page.selected.clear();
    page.choiceCard = null;
  }
  page.view = view;
  if (page.pendingVersion === null) notify("");
  render();
}

/** Send an action chosen from the legal actions, on the version it was offered in. */
function send(action) {
  const view = page.view;
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN || page.pendingVersion !== null) return;
  page.pendingVersion = view.version;
  root.dataset.pending = "true";
  page.socket.send(JSON.stringify({ type: "action", version: view.version, action }));
}

// Names and context for the game modules.

function seatName(seat) {
  const view = page.view;
  if (seat === null || seat === undefined) return "nobody";
  const info = view && view.seats ? view.seats[seat] : null;
  const name = info && info.name ? info.name : `Seat ${seat + 1}`;
  return view && seat === view.seat ? `${name} (you)` : name;
}

/** Engine texts number seats from 0 ("Seat 2 plays…", "Asiento 1: mus"); people read names instead. */
function withNames(text, view = page.view) {
  return String(text).replace(/\b(Seat|seat|Asiento|asiento) (\d+)\b/g, (whole, _word, n) => {
    const info = view && view.seats ? view.seats[Number(n)] : null;
    return info && info.name ? info.name : whole;
  });
}

function context() {
  const view = page.view;
  return {
    view,
    obs: view.observation || {},
    me: view.seat,
    game: page.game,
    catalogue: page.catalogue,
    name: seatName,
    plainName: (seat) => (view.seats[seat] && view.seats[seat].name) || `Seat ${seat + 1}`,
    withNames: (text) => withNames(text, view),
  };
}

// Rendering.

/** Redraw the page, keeping the keyboard focus on the same card or button when it still exists. */
function render() {
  const key = focusKey(document.activeElement);
  draw();
  if (key) restoreFocus(key);
}

function focusKey(el) {
  if (!el || el === document.body || !root.contains(el)) return null;
  if (el.dataset.card) return `[data-card="${el.dataset.card}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  if (el.tagName === "BUTTON") return { text: el.textContent };
  return null;
}

function restoreFocus(key) {
  const el = typeof key === "string" ? root.querySelector(`#hand ${key}`) || root.querySelector(key)
    : [...root.querySelectorAll("button")].find((b) => b.textContent === key.text);
  if (el && !el.disabled) el.focus({ preventScroll: true });
}

function draw() {
  const view = page.view;
  root.dataset.status = view.status;
  root.dataset.version = String(view.version);
  root.dataset.seat = view.seat === null ? "" : String(view.seat);
  root.dataset.myTurn = String(view.legal_actions.length > 0);
  root.dataset.pending = String(page.pendingVersion !== null);
  renderHeader(view);
  renderTakeover(view);
  if (view.status === "waiting" || !view.observation) {
    renderWaiting(view);
    return;
  }
  document.getElementById("waiting").hidden = true;
  document.getElementById("board").hidden = false;
  const ctx = context();
  const vm = { ...generic.viewModel(ctx), ...(page.module.viewModel ? page.module.viewModel(ctx) : {}) };
  renderSeats(view, vm);
  renderCenter(vm);
  renderHand(view, vm, ctx);
  renderPanels(vm);
  renderLog();
  renderResult(view, ctx);
}

function renderHeader(view) {
  const status = { waiting: "Waiting for players", playing: "Playing", finished: "Finished" }[view.status] || view.status;
  const who = view.seat === null ? "You are watching" : `You are ${seatName(view.seat).replace(" (you)", "")}, seat ${view.seat + 1}`;
  replace(document.getElementById("table-status"), `${status} · ${who}`);
  const leave = document.getElementById("leave");
  leave.hidden = !page.token || view.status === "finished";
  leave.onclick = onLeave;
}

function renderTakeover(view) {
  const box = document.getElementById("takeover");
  const seats = view.computer_playing_for || [];
  box.hidden = seats.length === 0;
  replace(box, seats.map((s) => h("p", {}, `The computer is playing for ${seatName(s)}.`)));
}

function isHost(view) {
  return view.seat !== null && view.seats[view.seat] && view.seats[view.seat].host;
}

function renderWaiting(view) {
  document.getElementById("board").hidden = true;
  document.getElementById("result").hidden = true;
  const box = document.getElementById("waiting");
  box.hidden = false;
  const free = view.seats.filter((s) => s.kind === "human" && !s.taken);
  const rows = view.seats.map((s) => h("li", { class: "waiting-seat" },
    h("span", { class: "seat-no" }, `Seat ${s.seat + 1}`), " ",
    s.kind === "bot" ? `Computer (${s.bot})` : s.taken ? `${s.name}${s.seat === view.seat ? " (you)" : ""}${s.host ? " · host" : ""}${s.connected ? "" : " · not here"}` : "Free seat",
    s.kind === "human" && !s.taken && view.seat === null ? joinButton(s.seat) : null));
  const controls = [];
  if (view.seat === null && free.length) {
    controls.push(h("label", { for: "join-name" }, "Your name "),
      h("input", { id: "join-name", name: "name", maxlength: 40, value: api.lastName(), autocomplete: "nickname" }));
  }
  if (isHost(view)) {
    controls.push(h("button", { type: "button", class: "primary", id: "start", onclick: onStart }, "Start game"));
    controls.push(h("p", { class: "hint" }, free.length ? "Free seats are played by the computer if nobody has taken them when you start." : "Everybody is here."));
  } else if (view.seat !== null) {
    controls.push(h("p", { class: "hint" }, "Waiting for the host to start the game."));
  }
  replace(box, h("h2", {}, "Seats"), h("ul", { class: "waiting-seats" }, rows), h("div", { class: "waiting-controls" }, controls));
}

function joinButton(seat) {
  return h("button", { type: "button", class: "join", onclick: () => onJoin(seat) }, `Join seat ${seat + 1}`);
}

async function onJoin(seat) {
  const input = document.getElementById("join-name");
  const name = (input && input.value.trim()) || "";
  if (!name) {
    notify("Type your name first.", "error");
    if (input) input.focus();
    return;
  }
  try {
    const res = await api.joinTable(tableId, seat, name);
    api.rememberName(name);
    page.token = res.token;
    api.saveToken(tableId, res.token);
    reconnect();
  } catch (err) {
    notify(err.message, "error");
  }
}

async function onStart() {
  try {
    await api.startTable(tableId, page.token);
  } catch (err) {
    notify(err.message, "error");
  }
}

async function onLeave() {
  if (!confirm("Leave this table? During a game the computer takes over your seat.")) return;
  try {
    await api.leaveTable(tableId, page.token);
  } catch (err) {
    notify(err.message, "error");
  }
  api.forgetToken(tableId);
  page.token = null;
  location.href = "/";
}

// The seats around the table.

function renderSeats(view, vm) {
  const others = document.getElementById("others");
  const mine = document.getElementById("my-seat");
  const order = seatOrder(view);
  replace(others, order.filter((s) => s !== view.seat).map((s) => seatPlate(view, vm, s)));
  replace(mine, view.seat === null ? null : seatPlate(view, vm, view.seat));
}

/** Seats in playing order starting after mine, so the table reads clockwise from my left. */
function seatOrder(view) {
  const n = view.seats.length;
  const start = view.seat === null ? 0 : view.seat + 1;
  return Array.from({ length: n }, (_, i) => (start + i) % n);
}

function seatPlate(view, vm, seat) {
  const info = view.seats[seat];
  const turn = view.to_act === seat && view.status === "playing";
  const tags = [];
  if (info.kind === "bot") tags.push(`computer · ${info.bot}`);
  if (info.host) tags.push("host");
  if (info.kind === "human" && !info.connected) tags.push("away");
  if ((view.computer_playing_for || []).includes(seat)) tags.push("computer playing");
  const count = vm.handCounts ? vm.handCounts[seat] : undefined;
  const lines = (vm.seatLines && vm.seatLines[seat]) || [];
  const label = `${seatName(seat)}${turn ? ", to play" : ""}`;
  return h("section", { class: `seat${turn ? " turn" : ""}${seat === view.seat ? " me" : ""}`, "aria-label": label, dataset: { seat: String(seat) } },
    h("header", {}, h("span", { class: "seat-name" }, seatName(seat)),
      turn ? h("span", { class: "turn-mark" }, seat === view.seat ? "your turn" : "to play") : null),
    tags.length ? h("div", { class: "tags" }, tags.join(" · ")) : null,
    count !== undefined && seat !== view.seat ? handBacks(count) : null,
    lines.length ? h("ul", { class: "seat-lines" }, lines.map((l) => h("li", {}, l))) : null);
}

function handBacks(count) {
  const shown = Math.min(count, 8);
  return h("div", { class: "backs", "aria-label": `${count} card${count === 1 ? "" : "s"} in hand`, role: "img" },
    Array.from({ length: shown }, () => h("span", { class: "mini-back", "aria-hidden": "true" })),
    h("span", { class: "count", "aria-hidden": "true" }, String(count)));
}

// The middle of the table: facts in words and the cards on the table.

function renderCenter(vm) {
  const facts = document.getElementById("facts");
  replace(facts, (vm.facts || []).map(([k, v]) => h("div", { class: "fact" }, h("dt", {}, k), h("dd", {}, v))));
  const piles = document.getElementById("piles");
  replace(piles, (vm.piles || []).map((pile) => h("section", { class: `pile ${pile.class || ""}`, "aria-label": pile.title },
    h("h3", {}, pile.title),
    h("div", { class: "pile-cards" },
      pile.cards.length ? pile.cards.map((c) => pileCard(c)) : h("p", { class: "empty" }, pile.empty || "No cards")),
    pile.caption ? h("p", { class: "caption" }, pile.caption) : null)));
}

function pileCard(c) {
  if (c.back) return cardBack(c.label || "face-down card", true);
  if (c.group) return h("div", { class: "card-group" }, c.group.map((g) => pileCard(g)));
  return cardFace(page.catalogue, c.id, { note: c.note, highlight: c.highlight });
}

// My hand and my controls.

function renderHand(view, vm, ctx) {
  if (page.selectionVersion !== view.version) {
    page.selectionVersion = view.version;
    page.selected.clear();
  }
  const isCard = page.module.isCardAction ? (e) => page.module.isCardAction(e, ctx) : undefined;
  const { byCard, selections, buttons } = classify(view.legal_actions, isCard);
  const selectable = selectableCards(selections);
  const hand = vm.hand || [];
  const handBox = document.getElementById("hand");
  const cards = hand.map((id) => handCard(id, byCard, selectable));
  replace(handBox, cards.length ? cards : h("p", { class: "empty" }, view.seat === null ? "Spectators see no hand: join a free seat from the lobby to play." : "No cards in your hand."));
  const title = view.seat === null ? "You are watching" : hand.length ? `Your hand (${hand.length} card${hand.length === 1 ? "" : "s"})` : "Your hand";
  document.getElementById("hand-title").textContent = vm.handTitle || title;
  renderControls(view, vm, byCard, selections, buttons);
}

function handCard(id, byCard, selectable) {
  const playable = byCard.has(id) || selectable.has(id);
  const selected = page.selected.has(id) || page.choiceCard === id;
  const entries = byCard.get(id);
  const label = entries && entries.length === 1 ? entries[0].label : undefined;
  const words = page.catalogue.words(id);
  return cardFace(page.catalogue, id, {
    legal: playable,
    selected,
    selectable: selectable.has(id),
    button: true,
    disabled: !playable || page.pendingVersion !== null,
    label: words,
    description: label,
    onclick: playable ? () => onCardClick(id, byCard, selectable) : undefined,
  });
}

function onCardClick(id, byCard, selectable) {
  const entries = byCard.get(id) || [];
  if (entries.length === 1 && !selectable.has(id)) {
    send(entries[0].action);
    return;
  }
  if (entries.length > 1 && !selectable.has(id)) {
    page.choiceCard = page.choiceCard === id ? null : id;
  } else if (page.selected.has(id)) {
    page.selected.delete(id);
  } else {
    page.selected.add(id);
    page.choiceCard = entries.length ? id : null;
  }
  render();
}

function renderControls(view, vm, byCard, selections, buttons) {
  const box = document.getElementById("actions");
  const controls = [];
  const busy = page.pendingVersion !== null;
  // A card with several legal actions (beat which attack card?): its choices first.
  if (page.choiceCard !== null && byCard.has(page.choiceCard)) {
    for (const entry of byCard.get(page.choiceCard)) controls.push(actionButton(entry, busy, "choice"));
  }
  // Selections: "Discard" is enabled once the chosen cards form a legal discard.
  for (const [type, entries] of selections) {
    const match = matchSelection(entries, page.selected);
    const name = (page.module.selectionName && page.module.selectionName(type, entries)) || typeWords(type);
    const label = match ? match.label : `${name} (choose cards first)`;
    controls.push(h("button", { type: "button", class: "action submit", disabled: !match || busy || undefined, "aria-label": match ? name : label, title: label, dataset: { kind: "submit" }, onclick: match ? () => send(match.action) : undefined },
      match && page.selected.size ? `${name}: ${page.catalogue.wordsList([...page.selected])}` : name));
  }
  if (view.status === "finished" && page.resultDismissed) {
    controls.push(h("button", { type: "button", class: "primary", onclick: () => { page.resultDismissed = false; render(); } }, "Show the result"));
  }
  const groups = page.module.groupButtons ? page.module.groupButtons(buttons, context()) : [{ entries: buttons }];
  for (const group of groups) {
    const row = group.entries.map((e) => actionButton(e, busy, "button"));
    controls.push(group.title ? h("div", { class: "action-group", role: "group", "aria-label": group.title }, h("span", { class: "group-title" }, group.title), row) : row);
  }
  const choosing = page.choiceCard !== null && byCard.has(page.choiceCard);
  const prompt = choosing ? `Choose how to play the ${page.catalogue.words(page.choiceCard)}:` : vm.prompt || defaultPrompt(view, byCard, selections, buttons);
  replace(box, prompt ? h("p", { class: "prompt" }, prompt) : null, h("div", { class: "action-buttons" }, controls));
}

function actionButton(entry, busy, kind) {
  return h("button", { type: "button", class: `action${kind === "choice" ? " choice" : ""}`, disabled: busy || undefined, dataset: { kind }, onclick: () => send(entry.action) }, entry.label || entry.text);
}

function defaultPrompt(view, byCard, selections, buttons) {
  if (view.status !== "playing") return "";
  if (view.legal_actions.length === 0) {
    if (view.seat === null) return `${seatName(view.to_act)} to play.`;
    if ((view.computer_playing_for || []).includes(view.seat)) return "The computer is playing for you until you are back.";
    return view.to_act === null ? "" : `Waiting for ${seatName(view.to_act)}.`;
  }
  if (selections.size) return "Your turn: choose cards, then confirm.";
  if (byCard.size && buttons.length) return "Your turn: play a highlighted card or choose an action.";
  if (byCard.size) return "Your turn: play one of the highlighted cards.";
  return "Your turn.";
}

// Side panels: last trick, score sheet, anything a game adds; the event log.

function renderPanels(vm) {
  const box = document.getElementById("panels");
  const panels = [];
  for (const p of vm.panels || []) {
    panels.push(h("section", { class: "panel", "aria-label": p.title }, h("h3", {}, p.title),
      p.cards ? h("div", { class: "pile-cards" }, p.cards.map((c) => pileCard(c))) : null,
      p.lines ? h("ul", {}, p.lines.map((l) => h("li", {}, l))) : null,
      p.caption ? h("p", { class: "caption" }, p.caption) : null));
  }
  if (vm.scoreSheet) panels.push(scoreSheet(vm.scoreSheet));
  replace(box, panels);
}

function scoreSheet(sheet) {
  return h("section", { class: "panel score-sheet", "aria-label": "Score sheet" }, h("h3", {}, sheet.title || "Score sheet"),
    sheet.rows.length === 0 ? h("p", { class: "empty" }, "No rounds scored yet.") :
      h("div", { class: "table-scroll" }, h("table", {},
        h("thead", {}, h("tr", {}, sheet.columns.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, sheet.rows.map((r) => h("tr", {}, r.map((cell) => h("td", {}, cell))))),
        sheet.footer ? h("tfoot", {}, h("tr", {}, sheet.footer.map((c) => h("th", {}, c)))) : null)));
}

function renderLog() {
  const log = document.getElementById("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  replace(log, page.events.map((t) => h("li", {}, t)));
  if (atBottom) log.scrollTop = log.scrollHeight;
}

// The result screen.

function renderResult(view, ctx) {
  const box = document.getElementById("result");
  const outcome = view.outcome;
  if (!outcome || view.status !== "finished") {
    box.hidden = true;
    return;
  }
  box.hidden = page.resultDismissed;
  const winners = outcome.winners.map((s) => ctx.plainName(s));
  const mine = view.seat !== null && outcome.winners.includes(view.seat);
  const headline = winners.length === 0 ? "Nobody wins" : winners.length === 1 ? `${winners[0]} wins!` : `${listWords(winners)} win!`;
  const rows = (page.module.resultRows ? page.module.resultRows(ctx) : null) ||
    view.seats.map((s) => [seatName(s.seat), fmt(outcome.scores[s.seat])]);
  replace(box, h("div", { class: "result-card", role: "dialog", "aria-modal": "false", "aria-labelledby": "result-title" },
    h("h2", { id: "result-title" }, "Game over"),
    h("p", { class: "winners" }, headline),
    view.seat !== null ? h("p", {}, mine ? "Well played: you are among the winners." : "Better luck next time.") : null,
    outcome.reason ? h("p", { class: "reason" }, capitalize(withNames(outcome.reason, view))) : null,
    h("table", { class: "result-scores" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c)))))),
    h("div", { class: "result-buttons" },
      h("a", { class: "button primary", href: "/" }, "Back to the lobby"),
      h("button", { type: "button", onclick: () => { page.resultDismissed = true; render(); } }, "Show the table"))));
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : Number(x).toFixed(1);
}

main();
