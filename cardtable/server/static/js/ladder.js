// The ladder's pages: a player's profile (/players/NAME: ratings per game with their history, recent rated
// games with replays) and a game's leaderboard (/leaderboard/GAME, filtered by kind). Data from
// /api/players/NAME and /api/leaderboard/GAME (docs/playing.md, Ratings).

import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { h, notify, replace } from "./dom.js";
import { translateStatic } from "./extras.js";
import { botWord } from "./words.js";

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";
const KINDS = ["person", "bot", "builtin"];

const gameTitle = (name) => (i18n.has(`game.${name}.title`) ? t(`game.${name}.title`) : name);
/** A player's name as shown: a built-in player's ("search@0.1.0") with its bot in the page's words. */
function playerName(name, kind) {
  const m = kind === "builtin" ? /^(\w+)@(.+)$/.exec(name) : null;
  return m ? t("ladder.builtin_name", { bot: botWord(m[1]), version: m[2] }) : name;
}
const when = (iso) => new Date(iso).toLocaleString(i18n.lang());
/** "1540 ± 310", with the provisional mark for the first games. */
const ratingText = (r) => `${r.rating} ± ${r.uncertainty}${r.provisional ? ` (${t("ladder.provisional")})` : ""}`;
/** A game's own figures in words (Wizard: the share of rounds bid exactly), or "–". */
function figuresText(r) {
  const f = r.figures || {};
  if (f.rounds) return t("ladder.exact_bids", { share: Math.round((100 * (f.exact_bids || 0)) / f.rounds), n: f.exact_bids || 0, rounds: f.rounds });
  return "–";
}

async function start() {
  await i18n.load();
  translateStatic();
  const [, page, arg] = location.pathname.split("/");
  const name = decodeURIComponent(arg || "");
  const heading = t(page === "players" ? "ladder.player" : "ladder.leaderboard");  // until the page is named
  document.getElementById("title").textContent = heading;
  document.title = `cardtable — ${heading}`;
  try {
    if (page === "players") await showPlayer(name);
    else await showLeaderboard(name);
  } catch (err) {
    notify(t("ladder.cannot_load", { error: err.message }), "error");
  }
}

// A profile.

async function showPlayer(name) {
  const kind = new URLSearchParams(location.search).get("kind");
  const data = await api.request("GET", `/api/players/${encodeURIComponent(name)}${kind ? `?kind=${encodeURIComponent(kind)}` : ""}`);
  const shown = playerName(data.name, data.kind);
  document.getElementById("title").textContent = shown;
  document.title = `cardtable — ${shown}`;
  const games = data.ratings.map((r) => r.game);
  replace(main,
    h("p", {}, t(`ladder.kind.${data.kind}`)),
    h("h2", {}, t("ladder.ratings")),
    data.ratings.length ? h("table", { class: "ratings" },
      h("thead", {}, h("tr", {}, h("th", { class: "name", scope: "col" }, t("ladder.game")), h("th", { scope: "col" }, t("ladder.rating")),
        h("th", { scope: "col" }, t("ladder.games")), h("th", { scope: "col" }, t("ladder.wins")), h("th", { scope: "col" }, t("ladder.figures")))),
      h("tbody", {}, data.ratings.map((r) => h("tr", { dataset: { game: r.game } },
        h("th", { class: "name", scope: "row" }, h("a", { href: `/leaderboard/${r.game}` }, gameTitle(r.game))),
        h("td", { class: "rating" }, ratingText(r)), h("td", {}, String(r.games)), h("td", {}, String(r.wins)),
        h("td", { class: "figures" }, figuresText(r)))))) : h("p", {}, t("ladder.no_ratings")),
    games.map((g) => h("section", {}, h("h3", {}, t("ladder.history", { game: gameTitle(g) })), chart(data.history[g] || [], gameTitle(g)))),
    h("h2", {}, t("ladder.recent")),
    data.recent.length ? h("table", { class: "recent" },
      h("thead", {}, h("tr", {}, h("th", { class: "name", scope: "col" }, t("ladder.game")), h("th", { scope: "col" }, t("ladder.place")),
        h("th", { scope: "col" }, t("ladder.rating_after")), h("th", { scope: "col" }, t("ladder.when")), h("th", { scope: "col" }, t("ladder.replay")))),
      h("tbody", {}, data.recent.map((r) => h("tr", {},
        h("td", { class: "name" }, gameTitle(r.game), " · ", h("a", { href: `/review.html?table=${encodeURIComponent(r.table_id)}&seat=${r.seat}` }, t("ladder.review"))),
        h("td", {}, `${r.place}${r.won ? ` · ${t("ladder.won")}` : ""}${r.abandoned ? ` · ${t("ladder.abandoned")}` : ""}`),
        h("td", {}, String(r.rating)), h("td", {}, when(r.at)),
        h("td", {}, h("a", { href: `/replay.html?src=${encodeURIComponent(`/api/tables/${encodeURIComponent(r.table_id)}/replay`)}` }, t("ladder.replay"))))))) : h("p", {}, t("ladder.no_games")));
}

/** The rating after each game as a small line chart (SVG), named for screen readers. */
function chart(points, title) {
  const width = 480, height = 140, pad = 24;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const last = points.length ? points[points.length - 1].rating : null;
  svg.setAttribute("aria-label", t("ladder.chart_label", { game: title, n: points.length, rating: last ?? "–" }));
  if (points.length) {
    const values = points.map((p) => p.rating);
    const lo = Math.min(...values) - 10, hi = Math.max(...values) + 10;
    const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
    const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#1f77b4");
    line.setAttribute("stroke-width", "2");
    svg.append(line);
    for (const [v, at] of [[hi - 10, pad], [lo + 10, height - pad]]) {
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", "2");
      label.setAttribute("y", String(at));
      label.setAttribute("font-size", "10");
      label.textContent = String(Math.round(v));
      svg.append(label);
    }
  }
  return svg;
}

// A leaderboard.

async function showLeaderboard(game) {
  const kind = new URLSearchParams(location.search).get("kind") || "";
  const games = await api.games();
  const data = await api.request("GET", `/api/leaderboard/${encodeURIComponent(game)}${kind ? `?kind=${encodeURIComponent(kind)}` : ""}`);
  document.getElementById("title").textContent = t("ladder.leaderboard_of", { game: gameTitle(game) });
  document.title = `cardtable — ${t("ladder.leaderboard_of", { game: gameTitle(game) })}`;
  const gameSelect = h("select", { id: "board-game" }, games.map((g) => h("option", { value: g.name, selected: g.name === game || undefined }, gameTitle(g.name))));
  const kindSelect = h("select", { id: "board-kind" }, h("option", { value: "" }, t("ladder.kind.all")),
    KINDS.map((k) => h("option", { value: k, selected: k === kind || undefined }, t(`ladder.kind.${k}`))));
  const go = () => { location.href = `/leaderboard/${encodeURIComponent(gameSelect.value)}${kindSelect.value ? `?kind=${kindSelect.value}` : ""}`; };
  gameSelect.addEventListener("change", go);
  kindSelect.addEventListener("change", go);
  replace(main,
    h("p", { class: "filters" }, h("label", { for: "board-game" }, t("ladder.game")), " ", gameSelect, " ",
      h("label", { for: "board-kind" }, t("ladder.kind_filter")), " ", kindSelect),
    h("p", { class: "hint" }, t("ladder.order_hint")),
    data.players.length ? h("table", { class: "leaderboard" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { class: "name", scope: "col" }, t("ladder.player")),
        h("th", { class: "name", scope: "col" }, t("ladder.kind_filter")), h("th", { scope: "col" }, t("ladder.rating")),
        h("th", { scope: "col" }, t("ladder.games")), h("th", { scope: "col" }, t("ladder.wins")))),
      h("tbody", {}, data.players.map((p) => h("tr", { dataset: { player: p.name } },
        h("td", {}, String(p.rank)),
        h("td", { class: "name" }, h("a", { href: `/players/${encodeURIComponent(p.name)}?kind=${p.kind}` }, playerName(p.name, p.kind))),
        h("td", { class: "name" }, t(`ladder.kind.${p.kind}`)),
        h("td", { class: "rating" }, ratingText(p)), h("td", {}, String(p.games)), h("td", {}, String(p.wins)))))) : h("p", {}, t("ladder.empty")));
}

start();
