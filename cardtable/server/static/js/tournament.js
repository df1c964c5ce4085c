// Tournament pages: the list of stored arena tournaments, and one tournament's standings, head-to-head,
// ratings over games and its games (each replayable). Data from /api/tournaments (docs/arena.md).

import { request } from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { h, notify, replace } from "./dom.js";
import { translateStatic } from "./extras.js";

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

const fixed = (x, digits = 3) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
const interval = (ci, digits = 3) => (ci ? ` [${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : "");

async function start() {
  await i18n.load();
  translateStatic();
  document.title = `cardtable — ${t("tournament.list_title")}`;
  const match = location.pathname.match(/^\/tournaments\/([0-9a-f]{64})$/);
  try {
    if (match) await showTournament(match[1]);
    else await showList();
  } catch (err) {
    notify(t("tournament.cannot_load", { error: err.message }), "error");
  }
}

const gameTitle = (name) => (i18n.has(`game.${name}.title`) ? t(`game.${name}.title`) : name);
/** A word the server sends in English (a format, a status) in the page's language, else as sent. */
const served = (kind, word) => {
  const key = `tournament.${kind}.${String(word).replace(/-/g, "_")}`;
  return i18n.has(key) ? t(key) : word;
};
const formatName = (format) => served("format", format);
const statusName = (status) => served("status", status);
// The methods the arena's standings name (cardtable/arena/standings.py), in the catalogue's words.
const METHODS = {
  "Wilson score interval, 95 %": "tournament.interval.wilson",
  "normal approximation, 95 %": "tournament.interval.normal",
  "openskill PlackettLuce (mu, sigma; ordinal = mu - 3 sigma)": "tournament.rating_model",
};
const methodName = (text) => (METHODS[text] ? t(METHODS[text]) : text);

// The list.

async function showList() {
  const list = await request("GET", "/api/tournaments");
  if (!list.length) {
    replace(main, h("p", {}, t("tournament.none"), " ", h("code", {}, "cardtable arena GAME --bot A --bot B")));
    return;
  }
  const rows = list.map((tour) => h("tr", {},
    h("td", { class: "name" }, h("a", { href: `/tournaments/${tour.id}` }, `${gameTitle(tour.game)} ${formatName(tour.format)}`)),
    h("td", { class: "name" }, tour.entries.map((e) => e.name).join(", ")),
    h("td", {}, `${tour.stored_games} / ${tour.games}`),
    h("td", { class: "name" }, statusName(tour.status)),
    h("td", { class: "name" }, new Date(tour.updated_at).toLocaleString(i18n.lang())),
    h("td", { class: "name" }, h("code", {}, tour.id.slice(0, 12)))));
  replace(main, h("h2", {}, t("tournament.list_title")), h("table", { "aria-label": t("tournament.list_title") },
    h("thead", {}, h("tr", {}, ["tournament", "entries", "stored", "status", "updated", "id"].map((c) => h("th", { scope: "col" }, t(`tournament.col.${c}`))))),
    h("tbody", {}, rows)));
}

// One tournament.

async function showTournament(id) {
  const tour = await request("GET", `/api/tournaments/${id}`);
  const r = tour.results;
  const title = t("tournament.title", { game: gameTitle(tour.game), format: formatName(tour.format) });
  document.getElementById("title").textContent = title;
  document.title = `cardtable — ${title}`;
  const status = statusName(tour.status);
  replace(main,
    h("p", {}, tour.seed === null && tour.sealed
      ? t("tournament.played_sealed", { played: r.played, games: tour.games, stored: tour.stored_games, status, commitment: tour.sealed.commitment })
      : t("tournament.played", { played: r.played, games: tour.games, stored: tour.stored_games, status, seed: tour.seed }), " ",
      tour.sealed && tour.sealed.salt ? [t("tournament.verify"), " ", h("code", {}, `cardtable arena verify ${location.origin}/tournaments/${tour.id}`), " "] : null,
      t("tournament.methods", { win_share: methodName(r.intervals.win_share), mean_score: methodName(r.intervals.mean_score), ratings: methodName(r.rating_model) }), " ",
      h("code", {}, tour.id)),
    h("h2", {}, t("tournament.standings")), standings(r),
    h("h2", {}, t("tournament.head_to_head")),
    h("p", {}, t("tournament.head_to_head_note")),
    headToHead(r),
    h("h2", {}, t("tournament.ratings")), ratingsPlot(tour.rating_history, tour.entries.map((e) => e.name)),
    h("h2", {}, t("tournament.games")), games(tour));
  if (tour.status !== "finished") setTimeout(() => showTournament(id).catch((err) => notify(err.message, "error")), 5000);
}

function standings(r) {
  const head = ["entry", "spec", "games", "wins", "win_share", "mean_score", "mu", "sigma", "ordinal", "failures"].map((c) => t(`tournament.col.${c}`));
  const rows = r.ranking.map((name) => {
    const s = r.standings[name];
    const failures = Object.entries(s.failures).map(([k, v]) => `${k} ${v}`).join(", ") || "–";
    return h("tr", {},
      h("th", { scope: "row" }, name), h("td", { class: "name" }, s.spec), h("td", {}, s.games), h("td", {}, s.wins),
      h("td", {}, fixed(s.win_share), h("span", { class: "ci" }, interval(s.win_share_ci))),
      h("td", {}, fixed(s.mean_score, 2), h("span", { class: "ci" }, interval(s.mean_score_ci, 2))),
      h("td", {}, fixed(s.rating.mu, 2)), h("td", {}, fixed(s.rating.sigma, 2)), h("td", {}, fixed(s.rating.ordinal, 2)),
      h("td", { class: "name" }, failures));
  });
  return h("table", { "aria-label": t("tournament.standings") },
    h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows));
}

function headToHead(r) {
  const names = r.ranking;
  const rows = names.map((a) => h("tr", {}, h("th", { scope: "row" }, a), names.map((b) => {
    const cell = r.head_to_head[a][b];
    return h("td", {}, cell && cell.share !== null ? `${fixed(cell.share)} (${cell.games})` : "");
  })));
  return h("table", { "aria-label": t("tournament.head_to_head") },
    h("thead", {}, h("tr", {}, h("td", {}), names.map((n) => h("th", { scope: "col" }, n)))), h("tbody", {}, rows));
}

/** Each entry's ordinal after each game, as an inline SVG line chart. */
function ratingsPlot(history, names) {
  if (!history.length) return h("p", {}, t("tournament.no_game_yet"));
  const width = 720, height = 280, pad = 40;
  const values = history.flatMap((step) => names.map((n) => step.ordinal[n]));
  const lo = Math.min(...values), hi = Math.max(...values), span = hi - lo || 1;
  const x = (i) => pad + (history.length === 1 ? 0 : (i * (width - 2 * pad)) / (history.length - 1));
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / span;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "ratings-plot");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("tournament.plot_label", { names: names.join(", "), n: history.length }));
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
  };
  add("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, stroke: "#999" });
  add("text", { x: pad, y: height - 10, "font-size": 12 }, t("tournament.games_axis"));
  add("text", { x: 4, y: y(hi) + 4, "font-size": 11 }, fixed(hi, 1));
  add("text", { x: 4, y: y(lo) + 4, "font-size": 11 }, fixed(lo, 1));
  names.forEach((name, k) => {
    const points = history.map((step, i) => `${x(i).toFixed(1)},${y(step.ordinal[name]).toFixed(1)}`).join(" ");
    const color = COLORS[k % COLORS.length];
    add("polyline", { points, fill: "none", stroke: color, "stroke-width": 2 });
    add("text", { x: width - pad - 120, y: 16 + 14 * k, fill: color, "font-size": 12 }, name);
  });
  return svg;
}

function games(tour) {
  const rows = tour.stored.map((g) => {
    const failures = Object.entries(g.failures).map(([seat, kinds]) =>
      `${t("seat.numbered", { n: Number(seat) + 1 })}: ${Object.entries(kinds).map(([k, v]) => `${k} ${v}`).join(", ")}`).join("; ");
    const result = g.status === "finished"
      ? t("tournament.won_by", { scores: g.scores.join(" / "), names: g.winners.map((s) => `${g.seating[s]} (${t("seat.numbered", { n: s + 1 })})`).join(", ") || t("seat.nobody") })
      : t("tournament.game_error", { error: (g.error || "").split("\n")[0] });
    const base = `/api/tournaments/${tour.id}/games/${g.index}`;
    return h("tr", { class: g.status === "finished" ? "" : "error-row" },
      h("td", {}, g.index), h("td", {}, g.deal), h("td", { class: "name" }, g.seating.join(", ")),
      h("td", { class: "name" }, result), h("td", { class: "name" }, failures || "–"),
      h("td", { class: "name" },
        h("a", { href: `/replay.html?src=${base}/replay` }, t("tournament.replay_game", { n: g.index })), " · ",
        h("a", { href: `${base}/record` }, t("tournament.record"))));
  });
  return h("table", { "aria-label": t("tournament.games") },
    h("thead", {}, h("tr", {}, ["game", "deal", "seats", "result", "failures"].map((c) => h("th", { scope: "col" }, t(`tournament.col.${c}`))).concat(h("th", { scope: "col" }, "")))),
    h("tbody", {}, rows));
}

start();
