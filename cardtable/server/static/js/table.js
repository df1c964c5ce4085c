// The table page: one WebSocket per table, the screen redrawn from each `view` message, paced so a person
// can follow it. A game module (static/games/<name>.js) turns the observation into a view model;
// generic.js is the fallback that keeps any game playable before it has its own view.
// The same page replays a finished game (replay.html: body[data-mode=replay]) from stored frames.
//
// Pace: views are shown in order from a queue. A view whose events complete a trick first holds the whole
// trick in the middle (table setting pace_ms, default 1.5 s; a click or a key skips), then a round or
// hand summary is shown until Continue (a watcher's goes on by itself). One clock (clock.js): hand, board,
// prompt, controls and turn marker are all drawn from the step on screen; controls are offered only when
// that step is the newest and this seat's decision, and a sent action disables them until the server answers.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { actionName, actionText, classify, matchSelection, selectableCards, typeWords } from "./actions.js";
import { Catalogue, HAND_ORDERS, cardBack, cardFace, sortHand } from "./cards.js";
import { capitalize, h, listWords, notify, replace } from "./dom.js";
import * as generic from "../games/generic.js";
import * as words from "./words.js";
import * as extras from "./extras.js";
import * as botseats from "./botseats.js";
import * as clock from "./clock.js";

const REPLAY = document.body.dataset.mode === "replay";
const params = new URLSearchParams(location.search);
const tableId = REPLAY ? "" : decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const root = document.getElementById("table");
const REDUCED_MOTION = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const page = {
  token: REPLAY ? null : api.loadToken(tableId),
  game: null,          // the catalogue entry of this table's game
  catalogue: null,     // card id -> words
  module: generic,     // the game's view module
  socket: null,
  view: null,          // the view on screen
  latest: null,        // the newest view received (actions are sent on it)
  queue: [],           // views received, not yet shown
  steps: [],           // interludes still to show for the view on screen
  interlude: null,     // {kind: "trick" | "summary", ...} on screen now
  stepTimer: null,
  stepDeadline: 0,     // when the interlude on screen ends (performance.now() time)
  afterLines: [],      // its log lines
  afterSteps: null,    // the view to show once the interludes are over (it dealt the next round)
  plays: [],           // the cards of the trick in progress, from card_played events ({seat, card})
  handLog: [],         // Mus: the events of the hand in progress
  lastPlayed: new Set(), // cards shown in the middle at the last draw (new ones fly in)
  events: [],          // event lines shown in the log, oldest first ({text, lang})
  freshSocket: true,   // the next view is the first on this connection: it carries every event so far
  received: null,      // the last view this socket got (patches apply to it)
  pendingVersion: null,// the version an action was sent on; cleared by a newer view or an error
  selected: new Set(), // cards chosen for a multi-card action (Mus discards, several attacks)
  choiceCard: null,    // a card with several legal actions, waiting for the choice
  handOrder: "dealt",  // how the hand is sorted: "dealt", "suit" or "rank"
  baseTitle: "",       // the tab's title without "Your turn"
  titleTurn: false,    // the tab's title says "Your turn"
  selectionVersion: -1,
  resultDismissed: false,
  retries: 0,
  pumpTimer: null,     // the pause before the next queued view is shown
  joinName: null,
  stickyNotice: false, // a notice that new views do not clear (the timer played for this seat)      // what a spectator typed as their name
  paceMs: 1500,
  settings: null,
  timer: null,         // {seat, version, until}
  replay: null,        // {frames, index} on the replay page
  pendingTake: null,   // the computer seat this page takes over at its next turn
  promised: new Map(), // seat -> name of the person who takes it over at its next turn
};

// Start-up.

async function main() {
  await i18n.load();
  extras.translateStatic();
  if (REPLAY) return startReplay();
  document.getElementById("share-link").value = `${location.origin}/table/${encodeURIComponent(tableId)}`;
  document.getElementById("copy-link").addEventListener("click", copyLink);
  try {
    const summary = await api.getTable(tableId);
    await loadGame(summary.game);
    const state = await api.social(tableId);
    applySettings(state.settings);
    extras.setUp({ tableId, token: () => page.token, social: state, seatName: plainName, onRematch: followRematch });
    botseats.setUp({ tableId, token: () => page.token, seatName: (s) => plainName(s) });
    if (state.rematch && summary.status === "finished") page.rematchId = state.rematch;
    api.nameSeatsWith((s) => (page.view ? plainName(s) : null));
    for (const p of state.pending || []) page.promised.set(p.seat, p.name);
    resumePendingTake(summary);
  } catch (err) {
    notify(t("table.cannot_open", { id: tableId, error: err.message }), "error");
    return;
  }
  setUpSkipping();
  setUpSorting();
  registerReader();
  connect();
}

/** A takeover this browser asked for before a reload: still promised, or done (the token holds the seat), or
 * forgotten by a server restart (the page is a spectator again and may ask again). */
function resumePendingTake(summary) {
  const seat = api.loadPendingTake(tableId);
  if (seat === null) return;
  if (!page.promised.has(seat) || summary.status !== "playing") {
    api.forgetPendingTake(tableId);
    return;
  }
  page.pendingTake = seat;
  page.stickyNotice = true;
  notify(t("table.takeover_waiting", { name: words.displayName(summary.seats[seat].name) }), "warn");
}

/** Tell the server this page shows round summaries, so the computer waits for its Continue. */
function registerReader() {
  if (page.token) api.readsSummaries(tableId, page.token).catch(() => {});
}

async function loadGame(name) {
  page.game = await api.game(name);
  page.catalogue = new Catalogue(words.translateCards(page.game.cards));
  const title = t(`game.${name}.title`);
  page.baseTitle = `${title} — cardtable`;
  document.title = page.baseTitle;
  document.getElementById("game-title").textContent = title;
  // `?view=generic` draws the table with the generic view (how a game without its own view looks).
  page.module = params.get("view") === "generic" ? generic : await loadModule(name);
  extras.rulesButton(name);
}

/** The game's own view module, or the generic one if it has none yet. */
async function loadModule(name) {
  try {
    return await import(`../games/${name}.js`);
  } catch {
    return generic;
  }
}

function applySettings(settings) {
  page.settings = settings;
  const forced = params.get("pace");
  page.paceMs = forced !== null && /^\d+$/.test(forced) ? Number(forced) : settings.pace_ms;
}

async function copyLink() {
  const input = document.getElementById("share-link");
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    notify(t("table.link_copied"));
  } catch {
    notify(t("table.link_select"));
  }
}

const SORT_KEY = "cardtable.hand_order";

/** The hand's order (as dealt, by suit, by rank): chosen in the hand's header, remembered in this browser. */
function setUpSorting() {
  const select = document.getElementById("hand-sort");
  if (!select) return;
  const saved = localStorage.getItem(SORT_KEY);
  page.handOrder = HAND_ORDERS.includes(saved) ? saved : "dealt";
  select.value = page.handOrder;
  select.addEventListener("change", () => {
    page.handOrder = HAND_ORDERS.includes(select.value) ? select.value : "dealt";
    localStorage.setItem(SORT_KEY, page.handOrder);
    if (page.view) render();
  });
}

/** Any click on the table or any key skips the interlude on screen (a held trick, a summary). */
function setUpSkipping() {
  document.addEventListener("keydown", (ev) => {
    if (page.interlude && page.interlude.kind === "trick" && !ev.target.closest?.("input, textarea, select")) skipInterlude();
  });
  document.getElementById("piles").addEventListener("click", () => {
    if (page.interlude && page.interlude.kind === "trick") skipInterlude();
  });
}

// The connection.

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // `patches=1`: after the first view, the server sends only what changed (applied by applyPatch below).
  const query = page.token ? `?token=${encodeURIComponent(page.token)}&patches=1` : "?patches=1";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`);
  page.socket = socket;
  page.freshSocket = true;
  page.received = null;
  socket.addEventListener("open", () => { page.retries = 0; root.dataset.connected = "true"; });
  socket.addEventListener("message", (msg) => onMessage(msg.data));
  socket.addEventListener("close", (ev) => onClose(socket, ev));
}

function onClose(socket, ev) {
  if (page.socket !== socket) return;
  root.dataset.connected = "false";
  if (ev.code === 4404) {
    notify(t("table.gone"), "error");
    return;
  }
  page.retries += 1;
  // 1012/1001: the server restarts or goes away (it closes every socket first); come back when it is up.
  const restarting = ev.code === 1012 || ev.code === 1001;
  notify(t(restarting ? "table.restarting" : "table.reconnecting"), "warn");
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
  if (msg.type === "view") {
    page.received = msg;
    onView(msg);
  } else if (msg.type === "patch") {
    onPatch(msg);
  } else if (msg.type === "error") {
    clock.refused(page);
    root.dataset.pending = "false";
    const card = (text) => (page.catalogue ? page.catalogue.wordsOfText(text) : text);
    notify(words.errorText(msg, (s) => plainName(s), { game: gameName(), card }), "error");
    if (page.view) render();
  } else if (msg.type === "chat") {
    extras.addChatLine(msg.line);
    if (msg.line.kind === "note" && msg.line.note === "timeout") {
      notify(t("timer.played_for", { name: plainName(msg.line.seat) }), "warn");
      page.stickyNotice = true;  // stays until this page's next action
    }
  } else if (msg.type === "settings") {
    applySettings(msg.settings);
  } else if (msg.type === "turn_timer") {
    page.timer = { seat: msg.seat, version: msg.version, until: Date.now() + msg.seconds * 1000 };
    if (page.view) renderTimer();
  } else if (msg.type === "rematch") {
    followRematch(msg.table_id);
  } else if (msg.type === "takeover") {
    onTakeover(msg);
  }
}

// Patches (docs/server-protocol.md): the changes from the last view this socket got. A patch that does not
// fit that view (a version mismatch) is dropped and a full view asked for.

/** The view a patch makes of `view` (a new object; `view` and its observation are left as they were). */
export function applyPatch(view, patch) {
  const out = { ...view, ...(patch.set || {}) };
  for (const key of patch.unset || []) delete out[key];
  if (patch.observation_set || patch.observation_unset) {
    const observation = { ...(out.observation || {}), ...(patch.observation_set || {}) };
    for (const key of patch.observation_unset || []) delete observation[key];
    out.observation = observation;
  }
  out.type = "view";
  out.version = patch.version;
  out.events = patch.events || [];
  return out;
}

function onPatch(patch) {
  if (!page.received || patch.base !== page.received.version) {
    page.received = null;
    if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "view" }));
    return;
  }
  page.received = applyPatch(page.received, patch);
  onView(page.received);
}

/** A new view: sent actions are answered by it; it is shown after the views queued before it. */
function onView(view) {
  const fresh = page.freshSocket;
  page.freshSocket = false;
  clock.receive(page, view);
  if (fresh) {
    // The first view on a connection carries the whole game so far: shown at once, without pauses.
    page.events = [];
    page.queue = [];
    clearTimeout(page.pumpTimer);
    page.pumpTimer = null;
    forgetPlay();
    endInterludes();
    show(view, false);
    return;
  }
  if (clock.restate(page, view)) {
    render();
    return;
  }
  page.queue.push(view);
  pump();
  if (page.queue.length && page.view) {
    // Not shown yet: the controls drawn for the step on screen are disabled now (an answer came, or the step
    // is no longer the newest: a click on them would be refused), and an interlude the page is behind on is
    // cut short.
    render();
    hurry();
  }
}

/** A page with a later trick or round waiting holds its interlude no longer than a move gap (only ever
 * sooner than planned: views arriving one after another never put the end off). */
function hurry() {
  if (!page.interlude || page.sweeping || clock.behind(page) === 0) return;
  const step = page.interlude;
  const wait = clock.interludeWait(page, step, waitOptions());
  if (performance.now() + wait >= page.stepDeadline) return;
  clearTimeout(page.stepTimer);
  page.stepDeadline = performance.now() + wait;
  page.stepTimer = setTimeout(step.kind === "summary" ? skipInterlude : nextStep, wait);
}

/** Whether this page watches (nobody's Continue is its to give): its summaries go on by themselves. */
function watching() {
  return REPLAY || !page.token || !page.view || page.view.seat === null;
}

function waitOptions() {
  return { paceMs: page.paceMs, watcher: watching() };
}

/** "Skip to now": show every step received at once, without the pauses. */
function skipToNow() {
  clearTimeout(page.pumpTimer);
  page.pumpTimer = null;
  endInterludesShowingAfter();
  while (page.queue.length) show(page.queue.shift(), false);
  render();
}

/** End the interludes on screen; a view held back behind a summary is shown. */
function endInterludesShowingAfter() {
  const after = page.afterSteps;
  const lines = page.afterLines;
  endInterludes();
  if (after) {
    page.events.push(...lines);
    page.view = after;
  }
}

/** Forget what the page followed of the play (the next view carries the whole game again). */
function forgetPlay() {
  page.plays = [];
  page.handLog = [];
  if (page.module.reset) page.module.reset();
}

/** Show queued views in order, a moment apart so each move can be followed, until one needs an interlude. */
function pump() {
  if (page.interlude || page.pumpTimer !== null || !page.queue.length) return;
  const view = page.queue.shift();
  const steps = show(view, true);
  if (steps.length) {
    page.steps = steps;
    nextStep();
    return;
  }
  if (page.queue.length) {
    // Moves that arrived together (computer players answering at once) are shown one by one.
    page.pumpTimer = setTimeout(() => { page.pumpTimer = null; pump(); }, clock.moveGap(page.paceMs));
  }
}

/** Put a view on screen: its events go to the log; returns the interludes it calls for.
 * A view that ends a round or hand stays behind its summary: the board shows the round as it ended
 * until the summary is done (page.afterSteps), then the next deal. */
function show(view, paced) {
  const steps = [];
  const lines = [];
  let summaryAt = -1;
  for (const e of view.events || []) {
    lines.push(eventLine(e, view));
    const step = noteEvent(e.event, view);
    if (step && paced) {
      steps.push(step);
      // A summary triggered by the next deal's first event (Mus) leaves that event's line for later.
      if (step.kind === "summary") summaryAt = step.startsNext ? lines.length - 1 : lines.length;
    }
  }
  if (page.view && summaryAt >= 0) {
    // The log stops where the round ends; the next deal's lines come with the next deal. The board shows the
    // round as it ended: the last view before it, moved on by the round's last events.
    page.view = endedView(page.view, (view.events || []).slice(0, summaryAt));
    page.events.push(...lines.slice(0, summaryAt));
    page.afterLines = lines.slice(summaryAt);
    page.afterSteps = view;
    render();
    return steps;
  }
  page.events.push(...lines);
  if (page.events.length > 400) page.events.splice(0, page.events.length - 400);
  if (!page.view || view.version !== page.view.version) {
    page.selected.clear();
    page.choiceCard = null;
  }
  const hadTurn = page.view && page.view.legal_actions.length > 0;
  page.view = view;
  if (page.pendingVersion === null && !REPLAY && !page.stickyNotice) notify("");
  if (paced && !hadTurn && view.legal_actions.length > 0) extras.sound("turn");
  render();
  return steps;
}

/** The board as a round ended: `view` (the last one before the end) moved on by the round's last events.
 * The cards played leave their hands (and the counts of hidden hands) for the trick, a taken trick becomes
 * the last trick, and the game module moves on what only it knows (trick counts, totals). Nobody is to act. */
export function endedView(view, events, module = page.module) {
  const obs = structuredClone(view.observation || {});
  for (const e of events) {
    const event = e && e.event;
    if (!event) continue;
    if (event.type === "card_played") {
      if (event.seat === view.seat && Array.isArray(obs.hand)) obs.hand = obs.hand.filter((c) => c !== event.card);
      for (const key of ["hand_sizes", "hand_counts"]) {
        if (Array.isArray(obs[key]) && obs[key][event.seat] > 0) obs[key][event.seat] -= 1;
      }
      if (Array.isArray(obs.trick)) obs.trick.push({ seat: event.seat, card: event.card });
    } else if ((event.type === "trick_won" || event.type === "trick_taken") && Array.isArray(obs.trick)) {
      if (Array.isArray(obs.last_trick)) {
        obs.last_trick = event.cards && event.cards.length === obs.trick.length ? obs.trick : obs.last_trick;
        obs.last_trick_winner = event.type === "trick_won" ? event.winner : event.seat;
      }
      obs.trick = [];
    }
    if (module && module.endedEvent) module.endedEvent(obs, event);
  }
  return { ...view, observation: obs, to_act: null, legal_actions: [] };
}

/** Follow the play from the events; a complete trick or a finished round or hand gives an interlude. */
function noteEvent(event, view) {
  if (!event) return null;
  const type = event.type;
  if (type === "card_played") {
    page.plays.push({ seat: event.seat, card: event.card });
    extras.sound("card");
    return null;
  }
  if (type === "trick_won" || type === "trick_taken") {
    const winner = type === "trick_won" ? event.winner : event.seat;
    const cards = event.cards || [];
    const bySeat = new Map(page.plays.map((p) => [p.card, p.seat]));
    const n = view.seats.length;
    const leader = Number.isInteger(event.leader) ? event.leader : null;
    const played = cards.map((card, i) => ({ card, seat: bySeat.has(card) ? bySeat.get(card) : leader !== null ? (leader + i) % n : null }));
    page.plays = [];
    return { kind: "trick", played, winner };
  }
  if (page.module.summaryFor) {
    const summary = page.module.summaryFor(event, context(view), page.handLog);
    if (summary) return { kind: "summary", ...summary };
  }
  return null;
}

function nextStep(immediate = false) {
  clearTimeout(page.stepTimer);
  const held = document.querySelector("#piles .pile.held");
  if (!immediate && !REDUCED_MOTION && page.interlude && page.interlude.kind === "trick" && held && !page.sweeping) {
    // The trick goes to its winner (a quarter of a second at the default pace), then on.
    page.sweeping = true;
    held.classList.add("to-winner");
    page.stepTimer = setTimeout(() => { page.sweeping = false; nextStep(true); }, Math.min(250, page.paceMs / 6));
    return;
  }
  page.sweeping = false;
  const step = page.steps.shift() || null;
  page.interlude = step;
  root.dataset.interlude = step ? step.kind : "";
  if (!step && page.afterSteps) {
    page.view = page.afterSteps;
    page.afterSteps = null;
    page.events.push(...page.afterLines);
    page.afterLines = [];
  }
  render();
  if (!step) {
    pump();
    return;
  }
  const wait = clock.interludeWait(page, step, waitOptions());
  page.stepDeadline = performance.now() + wait;
  page.stepTimer = setTimeout(step.kind === "summary" ? skipInterlude : nextStep, wait);
}

/** Click, key or Continue: on to the next interlude, or the next view. Continue on a summary also tells
 * the server this person has read it (the computer players wait for everyone, or 30 s). */
function skipInterlude() {
  if (!page.interlude || page.sweeping) return;
  if (page.interlude.kind === "summary" && page.token && !REPLAY) api.continueTable(tableId, page.token).catch(() => {});
  nextStep();
}

function endInterludes() {
  clearTimeout(page.stepTimer);
  page.steps = [];
  page.interlude = null;
  page.afterSteps = null;
  page.afterLines = [];
  root.dataset.interlude = "";
}

/** Send an action chosen from the controls drawn for `version`, if that is still the step on screen and the
 * seat's decision (clock.take): one move per click, whatever the network does. */
function send(action, version) {
  if (REPLAY || !page.socket || page.socket.readyState !== WebSocket.OPEN) return;
  if (!clock.take(page, version)) return;
  page.burstTaken = true;
  // Nothing is offered for a moment after a move, even if the next decision comes at once: a second tap
  // meant for this move never plays the next one.
  page.guarded = true;
  clearTimeout(page.guardTimer);
  page.guardTimer = setTimeout(() => { page.guarded = false; render(); }, clock.REPEAT_GUARD_MS);
  page.stickyNotice = false;
  root.dataset.pending = "true";
  extras.sound("card");
  page.socket.send(JSON.stringify({ type: "action", version, action }));
  render();
}

/** A click that is the second or third of a double or triple click whose first click sent an action sends
 * nothing (one move per click). If the first was not taken (the page was still showing an earlier step),
 * the next click of the burst may send: a person's click is never lost to a step shown a moment late. */
function repeated(ev) {
  if (!ev || ev.detail <= 1) {
    page.burstTaken = false;
    return false;
  }
  return !!page.burstTaken;
}

function followRematch(newId) {
  if (!newId || REPLAY || page.leaving) return;
  page.leaving = true;  // the answer to Rematch and the table's message both lead here: go once
  if (page.token) api.saveToken(newId, page.token);
  location.href = `/table/${encodeURIComponent(newId)}`;
}

// Names and context for the game modules.

function seatName(seat, view = page.view) {
  if (seat === null || seat === undefined) return t("seat.nobody");
  const name = plainName(seat, view);
  return view && seat === view.seat ? t("seat.you_suffix", { name }) : name;
}

/** A seat's name, or "Seat 3" (numbered from 1) for a seat without one. */
function plainName(seat, view = page.view) {
  const info = view && view.seats ? view.seats[seat] : null;
  return info && info.name ? words.displayName(info.name) : t("seat.numbered", { n: seat + 1 });
}

/** One event as a log line: the page's own wording, else (an event the catalogue does not know) the
 * engine's text with seats named, marked as the engine's. */
function eventLine(e, view) {
  const line = words.eventText(e, gameName(), { name: (s) => plainName(s, view), card: (c) => page.catalogue.words(c) });
  if (line) return { text: line, lang: i18n.lang(), engine: false };
  return { text: words.withNames(e.text, (s) => (view && view.seats && view.seats[s] ? plainName(s, view) : null)), lang: words.engineLanguage(gameName()), engine: true };
}

function context(view = page.view) {
  return {
    view,
    obs: view.observation || {},
    me: view.seat,
    game: page.game,
    catalogue: page.catalogue,
    t,
    lang: i18n.lang(),
    name: (seat) => seatName(seat, view),
    plainName: (seat) => plainName(seat, view),
    withNames: (text) => words.withNames(text, (s) => (view.seats[s] ? plainName(s, view) : null)),
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
  const view = clock.onScreen(page);
  root.dataset.status = view.status;
  root.dataset.version = String(view.version);
  root.dataset.seat = view.seat === null ? "" : String(view.seat);
  root.dataset.myTurn = String(!page.interlude && clock.mayAct(page));
  root.dataset.pending = String(page.pendingVersion !== null);
  root.dataset.phase = clock.phase(page);
  renderTabTitle(view);
  renderHeader(view);
  if (!REPLAY) botseats.update(page.latest || view);
  renderTakeover(view);
  renderTableState(view);
  if (view.status === "waiting" || !view.observation) {
    renderWaiting(view);
    return;
  }
  document.getElementById("waiting").hidden = true;
  document.getElementById("board").hidden = false;
  const ctx = context(view);
  const vm = { ...generic.viewModel(ctx), ...(page.module.viewModel ? page.module.viewModel(ctx) : {}) };
  root.dataset.players = String(view.seats.length);
  renderSeats(view, vm);
  renderCenter(view, vm);
  renderHand(view, vm, ctx);
  renderPanels(scorePanels(vm));
  renderLog();
  renderSummary();
  renderTimer();
  renderResult(view, ctx);
  if (REPLAY) renderReplayControls();
}

/** "Your turn" in the tab's title while the step on screen is this seat's decision (and, if the person asked
 * for it, a browser notification when the turn comes while the tab is hidden). */
function renderTabTitle(view) {
  if (!page.baseTitle) return;
  const mine = !REPLAY && view.seat !== null && clock.mayAct(page);
  document.title = mine ? `${t("table.tab_your_turn")} · ${page.baseTitle}` : page.baseTitle;
  if (mine && !page.titleTurn) turnNotification();
  page.titleTurn = mine;
}

function turnNotification() {
  if (!extras.notificationsOn() || !document.hidden || typeof Notification === "undefined") return;
  try {
    new Notification(page.baseTitle, { body: t("table.tab_your_turn"), tag: `cardtable-${tableId}` });
  } catch {
    // A browser that refuses notifications from a page shows the title only.
  }
}

function renderHeader(view) {
  const status = t(`status.${view.status}`);
  const who = view.seat === null ? t("table.watching") : t("table.you_are", { name: plainName(view.seat), n: view.seat + 1 });
  replace(document.getElementById("table-status"), REPLAY ? `${t("replay.title")} · ${who}` : `${status} · ${who}`);
  const leave = document.getElementById("leave");
  if (!leave) return;
  leave.hidden = !page.token || view.status === "finished" || view.seat === null;
  leave.onclick = onLeave;
  renderResign(view);
  renderPauseResume(view);
}

/** Whether the game has two sides (two players, or Kaiser's and Mus's pairs): then a side may resign. */
function twoSides(view) {
  return view.seats.length === 2 || !!(page.game && page.game.has_teams);
}

/** Resign (for one's pair in Kaiser and Mus): the game ends and the other side wins (resignations.py). */
function renderResign(view) {
  const button = document.getElementById("resign");
  if (!button) return;
  const pair = view.seats.length > 2;
  button.hidden = REPLAY || !page.token || view.seat === null || !twoSides(view) || !(view.status === "playing" || view.status === "paused");
  replace(button, t(pair ? "table.resign_pair" : "table.resign"));
  button.onclick = async () => {
    if (!confirm(t(pair ? "table.resign_confirm_pair" : "table.resign_confirm"))) return;
    try {
      await api.request("POST", `/api/tables/${encodeURIComponent(tableId)}/resign`, { token: page.token });
    } catch (err) {
      notify(err.message, "error");
    }
  };
}

/** The host's Pause / Resume button (the server refuses anyone else): a socket message, answered by a view. */
function renderPauseResume(view) {
  const button = document.getElementById("pause-resume");
  if (!button) return;
  const paused = view.status === "paused";
  button.hidden = REPLAY || !isHost(view) || !(paused || view.status === "playing");
  replace(button, t(paused ? "table.resume" : "table.pause"));
  button.onclick = () => {
    if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: paused ? "resume" : "pause" }));
  };
}

/** A paused or stopped table says so to everyone at it (and why it stopped). */
function renderTableState(view) {
  const box = document.getElementById("table-state");
  if (!box) return;
  const stopped = view.status === "error";
  box.hidden = REPLAY || !(stopped || view.status === "paused");
  box.classList.toggle("error", stopped);
  if (box.hidden) return;
  replace(box, h("p", {}, stopped ? t("table.stopped", { reason: view.error ? words.stopText(view.error, (s) => plainName(s)) : t("table.no_reason") })
    : isHost(view) ? t("table.paused_host") : t("table.paused")));
}

function renderTakeover(view) {
  const box = document.getElementById("takeover");
  // A forfeited bot's seat is the computer's to the end anyway: its plate and the chat say so.
  const seats = (view.computer_playing_for || []).filter((s) => !(view.seats[s] && view.seats[s].forfeited));
  box.hidden = seats.length === 0;
  const isBot = (s) => view.seats[s] && view.seats[s].kind === "remote";
  // A seated person may vote to let the computer play an absent person's seat for good (replacements.py).
  const mayVote = (s) => !REPLAY && !!page.token && view.seat !== null && view.seat !== s && !isBot(s)
    && (view.status === "playing" || view.status === "paused");
  replace(box, seats.map((s) => h("p", {}, t(isBot(s) ? "table.computer_playing_for_bot" : "table.computer_playing_for", { name: seatName(s) }))));
  const votes = document.getElementById("replace-votes");
  if (!votes) return;
  const voting = seats.filter(mayVote);
  votes.hidden = voting.length === 0;
  replace(votes, voting.map((s) => h("button", { type: "button", class: "small replace-vote", dataset: { seat: String(s) }, onclick: () => voteReplace(s) },
    t("table.replace_button", { name: plainName(s) }))));
}

/** Vote to let the computer play an absent person's seat for good; the answer says how many votes it needs. */
async function voteReplace(seat) {
  const name = plainName(seat);
  try {
    const res = await api.request("POST", `/api/tables/${encodeURIComponent(tableId)}/replace_vote`, { token: page.token, seat });
    notify(res.replaced ? t("table.replaced", { name }) : t("table.replace_voted", { votes: res.votes, needed: res.needed }));
    page.stickyNotice = true;  // the views the vote brings (the seat handed over) do not clear the answer
  } catch (err) {
    notify(err.message, "error");
  }
}

function isHost(view) {
  return view.seat !== null && view.seats[view.seat] && view.seats[view.seat].host;
}

function renderWaiting(view) {
  document.getElementById("board").hidden = true;
  document.getElementById("result").hidden = true;
  const box = document.getElementById("waiting");
  box.hidden = false;
  const free = view.seats.filter((s) => (s.kind === "human" && !s.taken) || s.kind === "bot");
  const rows = view.seats.map((s) => h("li", { class: "waiting-seat", dataset: { seat: String(s.seat), kind: s.kind } },
    h("span", { class: "seat-no" }, t("seat.numbered", { n: s.seat + 1 })), " ",
    s.kind === "bot" ? t("seat.computer", { bot: words.botWord(s.bot) }) : s.kind === "remote" ? botSeatWords(s)
      : s.taken ? `${s.name}${s.seat === view.seat ? t("seat.you_mark") : ""}${s.host ? t("seat.host_mark") : ""}${s.connected ? "" : t("seat.away_mark")}` : t("seat.free"),
    view.seat === null && (s.kind === "bot" || !s.taken) ? joinButton(s) : null));
  const controls = [];
  if (view.seat === null && free.length) {
    controls.push(h("label", { for: "join-name" }, t("table.your_name"), " "),
      nameInput());
    controls.push(h("p", { class: "hint" }, t("table.spectator_hint")));
  }
  if (isHost(view) && view.status === "waiting") {
    controls.push(h("button", { type: "button", class: "primary", id: "start", onclick: onStart }, t("table.start")));
    controls.push(h("p", { class: "hint" }, t("table.host_hint")));
  } else if (view.seat !== null) {
    controls.push(h("p", { class: "hint" }, t("table.waiting_host")));
  }
  replace(box, h("h2", {}, t("table.seats")), h("ul", { class: "waiting-seats" }, rows), h("div", { class: "waiting-controls" }, controls));
}

/** A bot's seat in the waiting room's list: its name, "bot", and whether its program is connected. */
function botSeatWords(s) {
  return [words.displayName(s.name), t("seat.bot_mark"), s.connected ? "" : t("seat.bot_offline_mark"), ...words.botSeatTags(s).map((x) => ` · ${x}`)].join("");
}

function joinButton(s) {
  const label = s.kind === "bot" ? t("table.take_seat", { n: s.seat + 1 }) : t("table.join_seat", { n: s.seat + 1 });
  return h("button", { type: "button", class: "join", onclick: () => onJoin(s.seat) }, label);
}

/** A takeover asked during play: the seat is this page's once its next turn begins (then it reconnects). */
function onTakeover(msg) {
  if (msg.done || msg.cancelled) page.promised.delete(msg.seat);
  else page.promised.set(msg.seat, msg.name);
  const mine = page.pendingTake === msg.seat;
  if (msg.cancelled && mine) {
    // The game ended (or stopped) before the seat's turn came: this page watches, as before.
    page.pendingTake = null;
    page.stickyNotice = false;
    api.forgetPendingTake(tableId);
    notify(t("table.takeover_lapsed", { name: plainName(msg.seat) }), "warn");
  }
  if (!msg.done || !mine) {
    if (page.view) render();
    return;
  }
  page.pendingTake = null;
  api.forgetPendingTake(tableId);
  notify(t("table.takeover_now", { name: plainName(msg.seat) }));
  reconnect();
}

async function onJoin(seat) {
  const input = document.getElementById("join-name");
  const name = (input && input.value.trim()) || "";
  if (!name) {
    notify(t("table.type_name"), "error");
    if (input) input.focus();
    return;
  }
  try {
    const res = await api.takeSeat(tableId, seat, name);
    api.rememberName(name);
    page.token = res.token;
    api.saveToken(tableId, res.token);
    registerReader();
    const playing = page.view && page.view.status === "playing";
    if (playing && res.pending) {
      // The computer plays the seat until its next turn: this page watches until then.
      page.pendingTake = seat;
      api.savePendingTake(tableId, seat);
      notify(t("table.takeover_waiting", { name: plainName(seat) }), "warn");
      page.stickyNotice = true;
      render();
      return;
    }
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
  if (!confirm(t("table.leave_confirm"))) return;
  try {
    await api.leaveTable(tableId, page.token);
  } catch (err) {
    notify(err.message, "error");
  }
  api.forgetToken(tableId);
  page.token = null;
  location.href = "/";
}

// The seats around the table: me at the bottom, the others clockwise from my left, partners opposite.

const POSITIONS = {
  1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"], 6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};

/** Where a seat sits on screen, seen from this page's seat (a spectator sits at seat 1's place). */
function position(view, seat) {
  const n = view.seats.length;
  const me = view.seat === null ? 0 : view.seat;
  const places = POSITIONS[n] || [];
  return places[(seat - me + n) % n] || "top";
}

function renderSeats(view, vm) {
  const others = document.getElementById("others");
  const mine = document.getElementById("my-seat");
  const order = seatOrder(view);
  const bottom = view.seat === null ? 0 : view.seat;
  replace(others, order.filter((s) => s !== bottom).map((s) => seatPlate(view, vm, s)));
  replace(mine, seatPlate(view, vm, bottom));
}

/** Seats in playing order starting after mine, so the table reads clockwise from my left. */
function seatOrder(view) {
  const n = view.seats.length;
  const start = view.seat === null ? 0 : view.seat + 1;
  return Array.from({ length: n }, (_, i) => (start + i) % n);
}

function seatPlate(view, vm, seat) {
  const info = view.seats[seat];
  const turn = view.to_act === seat && view.status === "playing" && !summaryShown();
  const tags = [];
  if (info.kind === "bot") tags.push(t("seat.computer_tag", { bot: words.botWord(info.bot) }));
  if (info.host) tags.push(t("seat.host"));
  if (info.kind === "human" && !info.connected) tags.push(t("seat.away"));
  if (info.kind === "remote") tags.push(...words.botSeatTags(info));
  else if ((view.computer_playing_for || []).includes(seat)) tags.push(t("seat.computer_playing"));
  if (page.promised.has(seat) && info.kind === "bot") tags.push(t("seat.promised", { name: page.promised.get(seat) }));
  const count = vm.handCounts ? vm.handCounts[seat] : undefined;
  const lines = (vm.seatLines && vm.seatLines[seat]) || [];
  const named = info.kind === "remote" ? `${seatName(seat)}${t("seat.bot_mark")}` : seatName(seat);
  const label = turn ? t("seat.to_play_label", { name: named }) : named;
  const timer = page.timer && page.timer.seat === seat && page.timer.version === (page.latest || view).version;
  return h("section", { class: `seat${turn ? " turn" : ""}${seat === view.seat ? " me" : ""}`, "aria-label": label, dataset: { seat: String(seat), pos: position(view, seat) } },
    h("header", {}, h("span", { class: "seat-name" }, seatName(seat),
      info.kind === "remote" ? [" ", h("span", { class: "bot-badge" }, t("seat.bot_tag"))] : null),
      turn ? h("span", { class: "turn-mark" }, seat === view.seat ? t("seat.your_turn") : t("seat.to_play")) : null,
      timer ? h("span", { class: "turn-timer", role: "timer", "aria-live": "off" }, "") : null),
    tags.length ? h("div", { class: "tags" }, tags.join(" · ")) : null,
    count !== undefined && seat !== view.seat ? handBacks(count) : null,
    lines.length ? h("ul", { class: "seat-lines" }, lines.map((l) => h("li", {}, l))) : null);
}

function handBacks(count) {
  const shown = Math.min(count, 8);
  return h("div", { class: "backs", "aria-label": t("cards", { n: count }), role: "img" },
    Array.from({ length: shown }, () => h("span", { class: "mini-back", "aria-hidden": "true" })),
    h("span", { class: "count", "aria-hidden": "true" }, String(count)));
}

/** The seconds left on the turn timer, on the plate of the seat to act. */
function renderTimer() {
  const el = document.querySelector(".turn-timer");
  if (!el || !page.timer) return;
  const left = Math.max(0, Math.ceil((page.timer.until - Date.now()) / 1000));
  el.textContent = t("timer.left", { n: left });
  clearTimeout(page.timerTick);
  if (left > 0) page.timerTick = setTimeout(renderTimer, 500);
}

// The middle of the table: facts in words and the cards on the table.

function renderCenter(view, vm) {
  const facts = document.getElementById("facts");
  replace(facts, (vm.facts || []).map(([k, v]) => h("div", { class: "fact" }, h("dt", {}, k), h("dd", {}, v))));
  const piles = document.getElementById("piles");
  let list = vm.piles || [];
  const held = page.interlude && page.interlude.kind === "trick" ? page.interlude : null;
  if (held) {
    // The complete trick stays in the middle, its winner's card marked, until the pace runs out.
    const trick = { title: t("trick.complete"), class: "trick held", cards: held.played.map((p) => ({ id: p.card, note: p.seat === null ? "" : plainName(p.seat), seat: p.seat, highlight: p.seat === held.winner })),
      caption: t("trick.won_by", { name: plainName(held.winner) }), skip: true };
    list = [trick, ...list.filter((p) => !(p.class || "").includes("trick"))];
  }
  const seen = new Set();
  replace(piles, list.map((pile) => h("section", { class: `pile ${pile.class || ""}`, "aria-label": pile.title, dataset: held && pile.skip ? { winner: position(view, held.winner) } : {} },
    h("h3", {}, pile.title),
    h("div", { class: "pile-cards" },
      pile.cards.length ? pile.cards.map((c) => pileCard(c, view, seen)) : h("p", { class: "empty" }, pile.empty || t("pile.no_cards"))),
    pile.caption ? h("p", { class: "caption" }, pile.caption) : null,
    pile.skip ? h("button", { type: "button", class: "small skip", onclick: skipInterlude }, t("trick.continue")) : null)));
  page.lastPlayed = seen;
}

function pileCard(c, view = page.view, seen = null) {
  if (c.back) return cardBack(c.label || t("card.face_down"), true);
  if (c.group) return h("div", { class: "card-group" }, c.group.map((g) => pileCard(g, view, seen)));
  const el = cardFace(page.catalogue, c.id, { note: c.note, highlight: c.highlight });
  if (seen) {
    seen.add(c.id);
    // A card that was not in the middle before travels in from its player's side.
    if (!REDUCED_MOTION && !page.lastPlayed.has(c.id) && Number.isInteger(c.seat)) el.dataset.from = position(view, c.seat);
  }
  return el;
}

// My hand and my controls: from the step on screen, like the rest of the board (clock.js). The controls are
// live only when that step is the newest and this seat's decision.

function renderHand(view, vm, ctx) {
  if (page.selectionVersion !== view.version) {
    page.selectionVersion = view.version;
    page.selected.clear();
  }
  const isCard = page.module.isCardAction ? (e) => page.module.isCardAction(e, ctx) : undefined;
  const offered = clock.controls(page) === "none" ? [] : view.legal_actions;
  const { byCard, selections, buttons } = classify(offered, isCard);
  const selectable = selectableCards(selections);
  const hand = sortHand(vm.hand || [], page.catalogue, page.handOrder);
  const handBox = document.getElementById("hand");
  const cards = hand.map((id) => handCard(id, byCard, selectable, view.version));
  replace(handBox, cards.length ? cards : view.seat === null ? spectatorBox(view) : h("p", { class: "empty" }, t("hand.empty")));
  const title = view.seat === null ? t("hand.watching") : hand.length ? t("hand.title_count", { n: hand.length }) : t("hand.title");
  document.getElementById("hand-title").textContent = vm.handTitle || title;
  const sorter = document.querySelector(".hand-sort");
  if (sorter) sorter.hidden = view.seat === null || hand.length < 2;
  renderControls(view, vm, byCard, selections, buttons, ctx);
}

/** The name field of a spectator about to sit down; what was typed survives the redraws. */
function nameInput() {
  return h("input", { id: "join-name", name: "name", maxlength: 40, value: page.joinName ?? api.lastName(), autocomplete: "nickname",
    oninput: (ev) => { page.joinName = ev.target.value; } });
}

/** A spectator's corner: during play, the computer seats they may take over if the host allows it. */
function spectatorBox(view) {
  const bots = view.seats.filter((s) => s.kind === "bot" && !page.promised.has(s.seat));
  if (page.pendingTake !== null && view.status === "playing") {
    return h("p", { class: "take-over pending", role: "status" }, t("table.takeover_waiting", { name: plainName(page.pendingTake) }));
  }
  if (REPLAY || view.status !== "playing" || !page.settings || !page.settings.allow_takeover || !bots.length) {
    return h("p", { class: "empty" }, t("hand.spectator_playing"));
  }
  return h("div", { class: "take-over" }, h("p", {}, t("table.take_over_hint")),
    h("label", { for: "join-name" }, t("table.your_name"), " "),
    nameInput(),
    bots.map((s) => joinButton(s)));
}

function handCard(id, byCard, selectable, version) {
  const playable = byCard.has(id) || selectable.has(id);
  const selected = page.selected.has(id) || page.choiceCard === id;
  const entries = byCard.get(id);
  // What clicking it does, in the page's words ("Play the seven of spades").
  const label = entries && entries.length === 1 ? actionName(entries[0], gameName(), cardNames()) : undefined;
  return cardFace(page.catalogue, id, {
    legal: playable,
    selected,
    selectable: selectable.has(id),
    button: true,
    disabled: !playable || clock.controls(page) !== "enabled",
    label: page.catalogue.words(id),
    description: label,
    onclick: playable ? (ev) => onCardClick(ev, id, byCard, selectable, version) : undefined,
  });
}

function onCardClick(ev, id, byCard, selectable, version) {
  if (repeated(ev) || version !== page.view.version) return;
  const entries = byCard.get(id) || [];
  if (entries.length === 1 && !selectable.has(id)) {
    if (page.interlude && page.interlude.kind === "trick") endTrickEarly();
    send(entries[0].action, version);
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

/** Playing during a held trick ends the hold (the person has seen enough). */
function endTrickEarly() {
  while (page.interlude && page.interlude.kind === "trick") nextStep(true);
}

function renderControls(view, vm, byCard, selections, buttons, ctx) {
  const box = document.getElementById("actions");
  const controls = [];
  const busy = clock.controls(page) !== "enabled";
  // A card with several legal actions (beat which attack card?): its choices first.
  if (page.choiceCard !== null && byCard.has(page.choiceCard)) {
    for (const entry of byCard.get(page.choiceCard)) controls.push(actionButton(entry, busy, "choice", view.version));
  }
  // Selections: "Discard" is enabled once the chosen cards form a legal discard.
  for (const [type, entries] of selections) {
    const match = matchSelection(entries, page.selected);
    const name = (page.module.selectionName && page.module.selectionName(type, entries, ctx)) || typeWords(type);
    // The chosen cards in the page's words ("Discard: four of oros, rey of bastos").
    const chosen = match ? actionText(match.action, gameName(), cardNames())
      ?? (page.selected.size ? `${name}: ${page.catalogue.wordsList([...page.selected])}` : name) : name;
    const label = match ? chosen : t("actions.choose_first", { name });
    controls.push(h("button", { type: "button", class: "action submit", disabled: !match || busy || undefined, "aria-label": match ? name : label, title: label, dataset: { kind: "submit" }, onclick: match ? (ev) => { if (!repeated(ev)) send(match.action, view.version); } : undefined },
      chosen));
  }
  if (view.status === "finished" && page.resultDismissed) {
    controls.push(h("button", { type: "button", class: "primary", onclick: () => { page.resultDismissed = false; render(); } }, t("result.show")));
  }
  const groups = page.module.groupButtons ? page.module.groupButtons(buttons, ctx) : [{ entries: buttons }];
  for (const group of groups) {
    const row = group.entries.map((e) => actionButton(e, busy, "button", view.version));
    controls.push(group.title ? h("div", { class: "action-group", role: "group", "aria-label": group.title }, h("span", { class: "group-title" }, group.title), row) : row);
  }
  if (!REPLAY && clock.behind(page) > 0) {
    controls.push(h("button", { type: "button", id: "skip-to-now", class: "small", onclick: skipToNow }, t("table.skip_to_now")));
  }
  const choosing = page.choiceCard !== null && byCard.has(page.choiceCard);
  const prompt = choosing ? t("actions.choose_how", { card: page.catalogue.words(page.choiceCard) }) : vm.prompt || defaultPrompt(view, byCard, selections, buttons);
  replace(box, prompt ? h("p", { class: "prompt" }, prompt) : null, h("div", { class: "action-buttons" }, controls));
}

/** This table's game name ("mus"), for the catalogue's keys. */
function gameName() {
  return page.game ? page.game.name : "";
}

/** How the words modules name a card: by its id, in the page's language. */
function cardNames() {
  return { card: (id) => page.catalogue.words(id) };
}

function actionButton(entry, busy, kind, version) {
  const label = actionName(entry, gameName(), cardNames());
  const onclick = (ev) => {
    if (repeated(ev) || version !== page.view.version) return;
    endTrickEarly();
    send(entry.action, version);
  };
  return h("button", { type: "button", class: `action${kind === "choice" ? " choice" : ""}`, disabled: busy || undefined, dataset: { kind }, onclick }, label);
}

function defaultPrompt(view, byCard, selections, buttons) {
  if (view.status !== "playing" || summaryShown()) return "";
  if (view.legal_actions.length === 0) {
    if (view.seat === null) return t("prompt.to_play", { name: seatName(view.to_act) });
    if ((view.computer_playing_for || []).includes(view.seat)) return t("prompt.computer_for_you");
    return view.to_act === null ? "" : t("prompt.waiting_for", { name: seatName(view.to_act) });
  }
  if (selections.size) return t("prompt.choose_cards");
  if (byCard.size && buttons.length) return t("prompt.card_or_action");
  if (byCard.size) return t("prompt.card");
  return t("prompt.your_turn");
}

// Side panels: last trick, score sheet, anything a game adds; the event log.

/** Whether a round's summary is on screen (the board then shows the round as it ended: nobody is to play). */
function summaryShown() {
  return !!(page.interlude && page.interlude.kind === "summary");
}

/** While a summary is on screen, the score sheet and score panels already count the round it sums up (from
 * the view after it), so the totals agree with the summary; the rest of the board stays as the round ended. */
function scorePanels(vm) {
  const after = summaryShown() && page.afterSteps && page.afterSteps.observation ? page.afterSteps : null;
  if (!after) return vm;
  const ctx = context(after);
  const counted = { ...generic.viewModel(ctx), ...(page.module.viewModel ? page.module.viewModel(ctx) : {}) };
  const panels = (vm.panels || []).map((p) => (p.score ? (counted.panels || []).find((q) => q.score && q.title === p.title) || p : p));
  return { ...vm, panels, scoreSheet: counted.scoreSheet || vm.scoreSheet };
}

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

/** A score sheet that fits its column: fixed layout, short headers (full names as titles), totals in the footer. */
export function scoreSheet(sheet) {
  const head = sheet.columns.map((c) => (typeof c === "object" ? c : { text: c, title: c }));
  return h("section", { class: "panel score-sheet", "aria-label": sheet.title || t("sheet.title"), dataset: { columns: String(head.length) } }, h("h3", {}, sheet.title || t("sheet.title")),
    sheet.note ? h("p", { class: "caption" }, sheet.note) : null,
    h("div", { class: "table-scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col", title: c.title, "aria-label": c.title }, c.text)))),
      h("tbody", {}, sheet.rows.length === 0 ? h("tr", {}, h("td", { colspan: head.length, class: "empty" }, t("sheet.empty"))) :
        sheet.rows.map((r) => h("tr", {}, r.map((cell) => h("td", {}, cellContent(cell)))))),
      sheet.footer ? h("tfoot", {}, h("tr", {}, sheet.footer.map((c, i) => h(i === 0 ? "th" : "td", { class: "total", dataset: i === 0 ? {} : { total: "" } }, c)))) : null)));
}

function cellContent(cell) {
  if (cell && typeof cell === "object" && !(cell instanceof Node)) return [h("strong", {}, cell.main), cell.sub ? h("small", {}, cell.sub) : null];
  return cell;
}

function renderLog() {
  const log = document.getElementById("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  replace(log, page.events.map((e) => h("li", { lang: e.lang !== i18n.lang() ? e.lang : undefined, class: e.engine ? "engine-text" : undefined }, e.text)));
  if (atBottom) log.scrollTop = log.scrollHeight;
}

// Round and hand summaries.

function renderSummary() {
  const box = document.getElementById("summary");
  const step = page.interlude && page.interlude.kind === "summary" ? page.interlude : null;
  if (!step) {
    box.hidden = true;
    replace(box);
    return;
  }
  box.hidden = false;
  replace(box, h("div", { class: "summary-card", role: "dialog", "aria-modal": "false", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title" }, step.title),
    (step.blocks || []).map((b) => summaryBlock(b)),
    h("div", { class: "result-buttons" }, h("button", { type: "button", class: "primary", id: "summary-continue", onclick: skipInterlude }, t("summary.continue")),
      watching() && page.queue.length ? h("button", { type: "button", id: "skip-to-now", onclick: skipToNow }, t("table.skip_to_now")) : null)));
  const button = document.getElementById("summary-continue");
  if (button && !root.contains(document.activeElement)) button.focus({ preventScroll: true });
}

function summaryBlock(b) {
  if (b.hands) {
    return h("div", { class: "shown-hands" }, b.hands.map((x) => h("section", { class: "shown-hand", "aria-label": x.title },
      h("h3", {}, x.title), h("div", { class: "pile-cards" }, x.cards.map((id) => cardFace(page.catalogue, id, { small: true }))), x.caption ? h("p", { class: "caption" }, x.caption) : null)));
  }
  if (b.table) {
    return h("table", { class: "result-scores summary-table" },
      h("thead", {}, h("tr", {}, b.table.columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, b.table.rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c))))),
      b.table.footer ? h("tfoot", {}, h("tr", {}, b.table.footer.map((c) => h("th", {}, c)))) : null);
  }
  if (b.lines) return h("ul", { class: "summary-lines" }, b.lines.map((l) => h("li", {}, l)));
  return h("p", {}, b.text || "");
}

// The result screen.

function renderResult(view, ctx) {
  const box = document.getElementById("result");
  const outcome = view.outcome;
  if (!outcome || view.status !== "finished" || page.interlude) {
    box.hidden = true;
    return;
  }
  box.hidden = page.resultDismissed;
  const winners = outcome.winners.map((s) => ctx.plainName(s));
  const mine = view.seat !== null && outcome.winners.includes(view.seat);
  const headline = winners.length === 0 ? t("result.nobody") : t("result.wins", { names: listWords(winners, t("list.and")), n: winners.length });
  const rows = (page.module.resultRows ? page.module.resultRows(ctx) : null) ||
    view.seats.map((s) => [seatName(s.seat), fmt(outcome.scores[s.seat])]);
  const buttons = [h("a", { class: "button primary", href: "/" }, t("result.lobby")),
    h("button", { type: "button", onclick: () => { page.resultDismissed = true; render(); } }, t("result.show_table"))];
  if (!REPLAY && view.seat !== null) buttons.unshift(h("button", { type: "button", class: "primary", id: "rematch", onclick: onRematch }, t("result.rematch")));
  if (!REPLAY) buttons.push(h("a", { class: "button", href: replayLink() }, t("result.replay")));
  if (!REPLAY) buttons.push(h("a", { class: "button", id: "review-link", href: `/review.html?table=${encodeURIComponent(tableId)}&seat=${view.seat ?? 0}` }, t("result.review")));
  replace(box, h("div", { class: "result-card", role: "dialog", "aria-modal": "false", "aria-labelledby": "result-title" },
    h("h2", { id: "result-title" }, t("result.title")),
    h("p", { class: "winners" }, headline),
    view.seat !== null ? h("p", {}, mine ? t("result.well_played") : t("result.better_luck")) : null,
    outcome.reason ? reasonLine(outcome.reason, ctx) : null,
    h("table", { class: "result-scores" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.player")), h("th", { scope: "col" }, t("result.score")))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c)))))),
    h("div", { class: "result-buttons" }, buttons)));
}

/** Why the game ended: in the page's language when the line is known, else the engine's (marked with its lang). */
function reasonLine(reason, ctx) {
  const own = words.reasonText(page.game.name, reason, (s) => ctx.plainName(s));
  const engine = words.engineLanguage(page.game.name);
  return h("p", { class: "reason", lang: own === null && engine !== i18n.lang() ? engine : undefined },
    capitalize(own ?? ctx.withNames(reason)));
}

function replayLink() {
  const src = `/api/tables/${encodeURIComponent(tableId)}/replay${page.token ? `?token=${encodeURIComponent(page.token)}` : ""}`;
  return `/replay.html?src=${encodeURIComponent(src)}`;
}

async function onRematch() {
  const button = document.getElementById("rematch");
  if (button) button.disabled = true;
  try {
    const res = await api.rematch(tableId, page.token);
    followRematch(res.table_id);
  } catch (err) {
    notify(err.message, "error");
    if (button) button.disabled = false;
  }
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : Number(x).toFixed(1);
}

// Replays: the stored frames of a finished game, stepped forward and back with the same table view.

async function startReplay() {
  const src = params.get("src") || "";
  if (!src.startsWith("/")) {
    notify(t("replay.bad_src"), "error");
    return;
  }
  let data;
  try {
    data = await api.request("GET", src);
    await loadGame(data.game);
  } catch (err) {
    notify(t("replay.cannot_load", { error: err.message }), "error");
    return;
  }
  page.replay = { frames: data.frames, seats: replaySeats(data), seat: data.seat ?? null, index: 0 };
  page.paceMs = 0;
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowRight") stepReplay(1);
    else if (ev.key === "ArrowLeft") stepReplay(-1);
  });
  showFrame(0);
}

/** The seat list of a replay: as sent, or (a source that sends only game and frames) numbered seats,
 * named from `names` when given. */
function replaySeats(data) {
  if (Array.isArray(data.seats)) return data.seats;
  const obs = (data.frames[0] && data.frames[0].view.observation) || {};
  const perSeat = [obs.hand_sizes, obs.hand_counts, obs.totals, obs.in_game].find(Array.isArray);
  const n = data.players || obs.players || (perSeat ? perSeat.length : 4);
  const names = Array.isArray(data.names) ? data.names : [];
  return Array.from({ length: n }, (_, seat) => ({ seat, kind: "human", bot: null, name: names[seat] || "", taken: true, connected: true, host: false }));
}

/** Rebuild the page at frame i: the log holds every event up to it, the table shows its view. */
function showFrame(i) {
  const r = page.replay;
  r.index = Math.max(0, Math.min(r.frames.length - 1, i));
  page.events = [];
  forgetPlay();
  let view = null;
  for (let k = 0; k <= r.index; k++) {
    view = { ...r.frames[k].view, seats: r.seats, table_id: "", computer_playing_for: [] };
    for (const e of view.events) {
      page.events.push(eventLine(e, view));
      noteEvent(e.event, view);
    }
  }
  page.view = view;
  page.latest = view;
  page.resultDismissed = r.index < r.frames.length - 1;
  render();
}

function stepReplay(delta) {
  if (page.replay) showFrame(page.replay.index + delta);
}

function renderReplayControls() {
  const r = page.replay;
  const box = document.getElementById("replay-controls");
  if (!box || !r) return;
  box.hidden = false;
  const last = r.frames.length - 1;
  replace(box,
    h("button", { type: "button", id: "replay-start", onclick: () => showFrame(0), disabled: r.index === 0 || undefined }, t("replay.start")),
    h("button", { type: "button", id: "replay-back", onclick: () => stepReplay(-1), disabled: r.index === 0 || undefined }, t("replay.back")),
    h("span", { class: "replay-step", role: "status", id: "replay-step" }, t("replay.step", { i: r.index, n: last })),
    h("button", { type: "button", class: "primary", id: "replay-forward", onclick: () => stepReplay(1), disabled: r.index === last || undefined }, t("replay.forward")),
    h("button", { type: "button", id: "replay-end", onclick: () => showFrame(last), disabled: r.index === last || undefined }, t("replay.end")));
}

main();
