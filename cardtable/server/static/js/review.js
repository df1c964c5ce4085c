// The game review page (/review.html?table=ID&seat=N): asks the server for the review of a finished game
// (POST starts it, GET follows its progress), then shows a chart of the scores and of the seat's loss per
// decision, and each decision as that seat saw it, with its options and their values. ← and → step
// through the decisions; Home and End go to the first and the last.

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { actionText } from "./actions.js";
import { h, notify, replace } from "./dom.js";
import { Catalogue, cardFace } from "./cards.js";
import { translateStatic } from "./extras.js";
import * as words from "./words.js";

const params = new URLSearchParams(location.search);
const tableId = params.get("table") || "";
const seat = Number.parseInt(params.get("seat") || "0", 10) || 0;
const budget = params.get("budget");
const POLL_MS = 500;
const SVG = "http://www.w3.org/2000/svg";

const page = { review: null, index: 0, seats: [], catalogue: new Catalogue([]), engineLang: "en", game: "" };

async function main() {
  await i18n.load();
  translateStatic();
  document.title = `cardtable — ${t("review.title")}`;
  if (!tableId) {
    fail(t("review.bad_link"));
    return;
  }
  let table;
  try {
    table = await api.getTable(tableId);
    const entry = await api.game(table.game);
    page.catalogue = new Catalogue(words.translateCards(entry.cards));
    page.engineLang = words.engineLanguage(table.game);
    page.game = table.game;
  } catch (err) {
    fail(t("review.cannot_load", { error: err.message }));
    return;
  }
  page.seats = table.seats || [];
  document.getElementById("review-title").textContent = `${t("review.title")}: ${t(`game.${table.game}.title`)}`;
  seatChooser();
  await follow();
}

/** The seat select: another seat reloads the page with its review. */
function seatChooser() {
  const select = document.getElementById("review-seat");
  replace(select, page.seats.map((s) => h("option", { value: String(s.seat), selected: s.seat === seat || undefined }, seatName(s.seat))));
  select.addEventListener("change", () => {
    const next = new URLSearchParams(location.search);
    next.set("seat", select.value);
    location.search = next.toString();
  });
}

function seatName(s) {
  const found = page.seats.find((x) => x.seat === s);
  const name = found ? words.displayName(found.name) : "";
  return name ? `${name} (${t("review.seat_n", { n: s + 1 })})` : t("review.seat_n", { n: s + 1 });
}

function url() {
  const q = new URLSearchParams({ seat: String(seat) });
  if (budget) q.set("budget", budget);
  return `/api/tables/${encodeURIComponent(tableId)}/review?${q}`;
}

/** Ask for the review (starting it if needed), then poll until it is done, showing the progress. */
async function follow() {
  let answer;
  try {
    answer = await ask("POST");
    while (answer.status !== "done") {
      progress(answer);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      answer = await ask("GET");
    }
  } catch (err) {
    fail(err.status === 409 ? t("review.not_finished") : t("review.cannot_load", { error: err.message }));
    return;
  }
  show(answer.review);
}

/** One request; a 503 (busy) is shown and asked again, a 404 while another process computes starts it here. */
async function ask(method) {
  for (;;) {
    try {
      return await api.request(method, url());
    } catch (err) {
      if (err.status === 503) {
        progress({ busy: true });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
        method = "POST";
        continue;
      }
      if (err.status === 404 && method === "GET") {
        method = "POST";
        continue;
      }
      throw err;
    }
  }
}

function progress(answer) {
  const text = document.getElementById("progress-text");
  const bar = document.getElementById("progress-bar");
  if (answer.busy) text.textContent = t("review.busy");
  else if (answer.total === null || answer.total === undefined) text.textContent = t("review.elsewhere");
  else {
    text.textContent = t("review.computing", { done: answer.done, total: answer.total });
    bar.max = Math.max(1, answer.total);
    bar.value = answer.done;
  }
}

function fail(message) {
  document.getElementById("review").dataset.state = "error";
  document.getElementById("progress-text").textContent = message;
  document.getElementById("progress-bar").hidden = true;
  notify(message, "error");
}

// The finished review.

function show(review) {
  page.review = review;
  document.getElementById("review").dataset.state = "done";
  document.getElementById("review-progress").hidden = true;
  summary(review);
  for (const id of ["review-summary", "review-chart-box", "decision-list-box"]) document.getElementById(id).hidden = false;
  list(review);
  if (review.decisions.length) {
    document.addEventListener("keydown", onKey);
    select(0);
  } else {
    drawChart();
  }
}

function summary(review) {
  const unit = t(`review.unit.${review.game}`);
  replace(document.getElementById("review-summary"),
    h("p", { id: "review-headline" }, review.decisions.length ? t("review.summary", {
      n: review.decisions.length, forced: review.forced, mean: num(Math.max(0, review.mean_loss)), unit,
      mistakes: review.mistakes, blunders: review.blunders }) : t("review.no_decisions")),
    h("p", { class: "review-method" }, t("review.method", { budget: review.budget, horizon: t(`review.horizon.${review.game}`),
      mistake: num(review.thresholds.mistake), blunder: num(review.thresholds.blunder), unit })));
}

function onKey(ev) {
  if (ev.target instanceof HTMLSelectElement || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const last = page.review.decisions.length - 1;
  const to = { ArrowRight: page.index + 1, ArrowLeft: page.index - 1, Home: 0, End: last }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  select(to);
}

function select(i) {
  const n = page.review.decisions.length;
  page.index = Math.max(0, Math.min(n - 1, i));
  controls();
  decision(page.review.decisions[page.index]);
  drawChart();
  for (const b of document.querySelectorAll("#decision-list button")) {
    b.setAttribute("aria-current", String(Number(b.dataset.index) === page.index));
  }
}

function controls() {
  const last = page.review.decisions.length - 1;
  const box = document.getElementById("review-controls");
  box.hidden = false;
  const d = page.review.decisions[page.index];
  replace(box,
    h("button", { type: "button", id: "review-first", onclick: () => select(0), disabled: page.index === 0 || undefined }, t("review.first")),
    h("button", { type: "button", id: "review-back", onclick: () => select(page.index - 1), disabled: page.index === 0 || undefined }, t("review.back")),
    h("span", { class: "replay-step", role: "status", id: "review-position" }, t("review.position", { i: page.index + 1, n: last + 1, step: d.step })),
    h("button", { type: "button", class: "primary", id: "review-forward", onclick: () => select(page.index + 1), disabled: page.index === last || undefined }, t("review.forward")),
    h("button", { type: "button", id: "review-last", onclick: () => select(last), disabled: page.index === last || undefined }, t("review.last")),
    h("span", { class: "review-keys" }, keysHint()));
}

/** The keys hint, the keys' names as printed on the keyboard (<kbd>). */
function keysHint() {
  const mark = "\u0000";
  const text = t("review.keys", { first: `${mark}${t("review.key_first")}${mark}`, last: `${mark}${t("review.key_last")}${mark}` });
  return text.split(mark).map((part, i) => (i % 2 ? h("kbd", {}, part) : part));
}

/** An option's name in the page's words (as the table names its buttons), else the engine's text in its language. */
function optionWords(action, text) {
  const own = actionText(action, page.game, { card: (id) => page.catalogue.words(id) });
  return own === null ? { text, lang: page.engineLang } : { text: own, lang: undefined };
}

function optionSpan(action, text) {
  const { text: shown, lang } = optionWords(action, text);
  return h("span", { lang }, shown);
}

/** A decision's loss as a player reads it: the estimate, or 0 when the chosen move did as well as the best on
 * fresh worlds (the cross-fitted estimate may then fall below 0; docs/review.md). */
function shownLoss(d) {
  return Math.max(0, d.loss);
}

function markWord(mark) {
  return mark ? h("span", { class: `mark-${mark}` }, t(`review.mark.${mark}`)) : null;
}

function list(review) {
  replace(document.getElementById("decision-list"), review.decisions.map((d, i) => h("li", {},
    h("button", { type: "button", dataset: { index: String(i) }, onclick: () => select(i) },
      `${t("review.step", { step: d.step })}: `, optionSpan(d.chosen, d.chosen_text),
      ` — ${t("review.loss_short", { loss: num(shownLoss(d)) })} `, markWord(d.mark)))));
}

/** The decision: the table as the seat saw it then, the options with their values, the loss and its mark. */
function decision(d) {
  const unit = t(`review.unit.${page.review.game}`);
  const best = d.options[0];
  const rows = d.options.map((o) => h("tr", { class: [o.text === d.chosen_text ? "chosen" : "", o === best ? "best" : ""].join(" ").trim() || undefined },
    h("td", {}, optionSpan(o.action, o.text)),
    h("td", {}, num(o.value)), h("td", {}, `± ${num(o.error)}`),
    h("td", { class: "open-value" }, o.open_value === null || o.open_value === undefined ? "–" : num(o.open_value)),
    h("td", {}, o.text === d.chosen_text ? t("review.played") : o === best ? t("review.best") : "")));
  replace(document.getElementById("decision"),
    h("h2", { id: "decision-title" }, t("review.seen_by", { name: seatName(d.seat), step: d.step })),
    seen(d.observation),
    h("p", { class: "review-open-note" }, t("review.open_help")),
    h("p", { id: "decision-verdict" }, t("review.verdict", { chosen: optionWords(d.chosen, d.chosen_text).text, loss: num(shownLoss(d)), error: num(d.error), unit }), " ", markWord(d.mark)),
    h("table", { id: "decision-options", "aria-label": t("review.options") },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("review.option")), h("th", { scope: "col" }, t("review.value", { unit })),
        h("th", { scope: "col" }, t("review.error")), h("th", { scope: "col", title: t("review.open_help") }, t("review.open")),
        h("th", { scope: "col" }, ""))),
      h("tbody", {}, rows)));
  document.getElementById("decision").hidden = false;
}

/** What the seat saw: its hand, the cards on the table, the trump, the bids and the scores. */
function seen(obs) {
  const facts = [];
  const cards = (ids) => h("span", { class: "card-row" }, ids.map((id) => cardFace(page.catalogue, id, { small: true })));
  if (Array.isArray(obs.hand)) facts.push([t("review.hand"), cards(obs.hand)]);
  const onTable = Array.isArray(obs.trick) ? obs.trick.map((p) => (typeof p === "number" ? p : p.card))
    : Array.isArray(obs.bout) ? obs.bout : Number.isInteger(obs.top) ? [obs.top] : null;
  if (onTable) facts.push([t("review.on_table"), onTable.length ? cards(onTable) : t("review.nothing")]);
  if (Number.isInteger(obs.trump_card)) facts.push([t("review.trump"), cards([obs.trump_card])]);
  else if (typeof obs.trump === "string" && obs.trump) {
    const own = i18n.has(`suit.${obs.trump}`);
    facts.push([t("review.trump"), h("span", { lang: own ? undefined : page.engineLang }, own ? t(`suit.${obs.trump}`) : obs.trump)]);
  }
  if (Array.isArray(obs.bids)) facts.push([t("review.bids"), perSeat(obs.bids, (b) => (b === null || b === undefined ? "–" : typeof b === "object" ? JSON.stringify(b) : String(b)))]);
  const scores = obs.totals || obs.tanteo || null;
  if (Array.isArray(scores)) facts.push([t("review.scores"), perSeat(scores, String, scores.length !== page.seats.length)]);
  if (Array.isArray(obs.hand_counts)) facts.push([t("review.hand_counts"), perSeat(obs.hand_counts, String)]);
  return h("dl", { class: "review-facts", id: "decision-facts" }, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

function perSeat(values, format, sides = false) {
  return values.map((v, i) => `${sides ? t("review.side_n", { n: i + 1 }) : seatName(i)}: ${format(v)}`).join(" · ");
}

// The chart: the public scores over the steps of the game (lines), the seat's loss per decision (bars).

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function drawChart() {
  const review = page.review;
  const W = 800, top = 10, scoresH = 150, gap = 30, lossH = 90, left = 40, right = 10;
  const H = top + scoresH + gap + lossH + 10;
  const lastStep = Math.max(1, ...review.scores.map((s) => s.step), ...review.decisions.map((d) => d.step + 1));
  const x = (step) => left + (W - left - right) * (step / lastStep);
  const values = review.scores.flatMap((s) => s.scores);
  const lo = Math.min(0, ...values), hi = Math.max(1, ...values) * 1.05;
  const y = (v) => top + scoresH - (scoresH * (v - lo)) / (hi - lo || 1);
  const lines = (review.scores[0] ? review.scores[0].scores : []).map((_, k) => {
    let d = "";
    review.scores.forEach((s, i) => {
      const next = review.scores[i + 1];
      d += `${i ? "L" : "M"}${x(s.step).toFixed(1)},${y(s.scores[k]).toFixed(1)} L${x(next ? next.step : lastStep).toFixed(1)},${y(s.scores[k]).toFixed(1)} `;
    });
    return svg("path", { class: `line line-${k % 6}`, d });
  });
  const maxLoss = Math.max(1e-9, ...review.decisions.map(shownLoss));
  const base = top + scoresH + gap + lossH;
  const barW = Math.max(2, (W - left - right) / Math.max(40, review.decisions.length * 1.5));
  const bars = review.decisions.map((d) => svg("rect", { class: `bar ${d.mark || ""}`.trim(), x: (x(d.step) - barW / 2).toFixed(1),
    y: (base - (lossH * shownLoss(d)) / maxLoss).toFixed(1), width: barW.toFixed(1), height: ((lossH * shownLoss(d)) / maxLoss).toFixed(1) }));
  const current = review.decisions[page.index];
  const cursor = current ? svg("line", { class: "cursor", x1: x(current.step), x2: x(current.step), y1: top, y2: base }) : null;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", id: "review-svg", "aria-labelledby": "chart-desc" },
    svg("desc", { id: "chart-desc" }, t("review.chart_label")),
    svg("line", { class: "axis", x1: left, x2: W - right, y1: y(0), y2: y(0) }),
    svg("line", { class: "axis", x1: left, x2: W - right, y1: base, y2: base }),
    svg("text", { x: 2, y: top + 10 }, t("review.scores")),
    svg("text", { x: 2, y: top + scoresH + gap - 6 }, t("review.losses", { unit: t(`review.unit.${review.game}`) })),
    lines, bars, cursor);
  chart.addEventListener("click", (ev) => {
    if (!review.decisions.length) return;
    const box = chart.getBoundingClientRect();
    const step = ((ev.clientX - box.left) * (W / box.width) - left) / (W - left - right) * lastStep;
    let best = 0;
    review.decisions.forEach((d, i) => { if (Math.abs(d.step - step) < Math.abs(review.decisions[best].step - step)) best = i; });
    select(best);
  });
  const legend = h("ul", { class: "review-legend" }, (review.scores[0] ? review.scores[0].scores : []).map((_, k) => h("li", {},
    h("span", { class: `swatch line-${k % 6}`, style: `background: var(--c${k % 6})`, "aria-hidden": "true" }),
    review.score_labels === "side" ? t("review.side_n", { n: k + 1 }) : seatName(k))));
  replace(document.getElementById("review-chart"), chart, legend);
  legend.querySelectorAll(".swatch").forEach((el, k) => { el.style.background = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"][k % 6]; });
}

function num(x) {
  return Number.isInteger(x) ? String(x) : Number(x).toFixed(2);
}

main();
