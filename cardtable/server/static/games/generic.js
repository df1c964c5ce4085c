// The generic view: draws any game from its observation by the shape of its fields, so that every game
// is playable in the browser before (or without) a view of its own. Game views reuse its helpers.
//
// A view model is a plain object:
//   hand: [card ids] (sorted), handCounts: [per seat], seatLines: {seat: [lines]},
//   facts: [[label, words]], piles: [{title, cards: [{id, note}], caption, empty}],
//   panels: [{title, cards?, lines?, caption?}], scoreSheet: {title, columns, rows, footer}, prompt.

import { humanize } from "../js/dom.js";

const CARD_WORDS = /card|hand|trick|table|pile|discard|stock_top|upcard|top|attack|defen|shown|played/;
// Fields that name a seat: shown as the player's name.
const SEAT_KEYS = new Set(["dealer", "leader", "mano", "postre", "attacker", "defender", "bidder", "declarer", "winner", "fool", "starter", "last_trick_winner"]);
const NOT_CARDS = /count|size|sizes|number|left|taken|points|score|winner|seat|leader|suit_index/;

/** Card ids sorted by id: decks are ordered suit by suit, low to high, which reads well. */
export function sortCards(ids) {
  return [...ids].sort((a, b) => a - b);
}

/** Whether a value is a list of card ids. */
export function isCardList(value) {
  return Array.isArray(value) && value.every((v) => Number.isInteger(v));
}

/** Whether a value is a list of played cards ({seat, card}). */
export function isPlayedList(value) {
  return Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === "object" && Number.isInteger(v.card));
}

/** Played cards ({seat, card}) as pile entries with the player's name under each card. */
export function playedPile(ctx, played, winner = null) {
  return (played || []).map((p) => ({ id: p.card, note: ctx.plainName(p.seat), seat: p.seat, highlight: winner !== null && p.seat === winner }));
}

/** A per-seat list as seat lines: {seat: ["Bid 2"]}. */
export function addSeatLines(lines, values, format) {
  if (!Array.isArray(values)) return lines;
  values.forEach((v, seat) => {
    const text = format(v, seat);
    if (text === null || text === undefined || text === "") return;
    (lines[seat] ||= []).push(text);
  });
  return lines;
}

/** "1 card", "5 cards" (in the page's language). */
export function cardsWord(n, ctx) {
  return ctx.t("cards", { n });
}

/** A name short enough for a score-sheet column: "Computer 3 (heuristic)" -> "C3", "Bartholomew" -> "Bart". */
export function shortName(name) {
  const text = String(name);
  const first = text.split(/[\s(]+/).filter(Boolean)[0] || text;
  const number = text.match(/\d+/);
  if (number && !first.includes(number[0])) return `${first.charAt(0)}${number[0]}`;
  return first.length > 4 ? first.slice(0, 4) : first;
}

/** A list value in words: numbers joined by " / ", card ids as card words. */
export function valueWords(ctx, key, value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? ctx.t("word.yes") : ctx.t("word.no");
  if (Array.isArray(value) && value.length === 0) return ctx.t("word.none");
  if (Array.isArray(value)) return value.map((v) => valueWords(ctx, key, v)).join(" / ");
  if (typeof value === "object") return value.words || value.text || JSON.stringify(value);
  if (Number.isInteger(value) && CARD_WORDS.test(key) && !NOT_CARDS.test(key) && ctx.catalogue.has(value)) return ctx.catalogue.words(value);
  return String(value);
}

/** The generic view model of any observation. */
export function viewModel(ctx) {
  const obs = ctx.obs;
  const used = new Set(["type", "seat", "hand", "players", "to_act"]);
  const vm = { hand: isCardList(obs.hand) ? sortCards(obs.hand) : [], seatLines: {}, facts: [], piles: [], panels: [] };
  const counts = obs.hand_sizes || obs.hand_counts || obs.card_counts || obs.hand_lengths;
  if (Array.isArray(counts)) vm.handCounts = counts;
  ["hand_sizes", "hand_counts", "card_counts", "hand_lengths"].forEach((k) => used.add(k));
  genericSeatLines(ctx, vm, used);
  genericPiles(ctx, vm, used);
  genericScoreSheet(ctx, vm, used);
  genericFacts(ctx, vm, used);
  return vm;
}

function genericSeatLines(ctx, vm, used) {
  const n = ctx.view.seats.length;
  const perSeat = (key) => Array.isArray(ctx.obs[key]) && ctx.obs[key].length === n && ctx.obs[key].every((v) => v === null || typeof v !== "object");
  for (const [key, label] of [["bids", "generic.bid"], ["tricks", "generic.tricks"], ["tricks_taken", "generic.tricks"], ["scores", "generic.score"], ["totals", "generic.total"], ["points", "generic.points"]]) {
    if (!perSeat(key)) continue;
    used.add(key);
    addSeatLines(vm.seatLines, ctx.obs[key], (v) => (v === null ? null : ctx.t(label, { v })));
  }
}

function genericPiles(ctx, vm, used) {
  const obs = ctx.obs;
  for (const [key, value] of Object.entries(obs)) {
    if (used.has(key) || key === "last_trick") continue;
    if (isPlayedList(value)) {
      used.add(key);
      vm.piles.push({ title: humanize(key), cards: playedPile(ctx, value) });
    } else if (isCardList(value) && value.length && CARD_WORDS.test(key) && !NOT_CARDS.test(key)) {
      used.add(key);
      vm.piles.push({ title: humanize(key), cards: value.map((id) => ({ id })) });
    } else if (Number.isInteger(value) && CARD_WORDS.test(key) && !NOT_CARDS.test(key) && ctx.catalogue.has(value)) {
      used.add(key);
      vm.piles.push({ title: humanize(key), cards: [{ id: value }] });
    }
  }
  if (isPlayedList(obs.last_trick)) {
    const winner = Number.isInteger(obs.last_trick_winner) ? obs.last_trick_winner : null;
    vm.panels.push({ title: ctx.t("panel.last_trick"), cards: playedPile(ctx, obs.last_trick, winner), caption: winner === null ? null : ctx.t("trick.won_by", { name: ctx.name(winner) }) });
  }
  used.add("last_trick").add("last_trick_winner");
}

function genericScoreSheet(ctx, vm, used) {
  const sheet = ctx.obs.score_sheet;
  used.add("score_sheet");
  if (!Array.isArray(sheet)) return;
  const keys = sheet.length ? Object.keys(sheet[0]).filter((k) => k !== "type") : [];
  vm.scoreSheet = {
    columns: keys.map(humanize),
    rows: sheet.map((row) => keys.map((k) => valueWords(ctx, k, row[k]))),
  };
}

function genericFacts(ctx, vm, used) {
  const obs = ctx.obs;
  for (const [key, value] of Object.entries(obs)) {
    if (used.has(key)) continue;
    if (SEAT_KEYS.has(key) || key.endsWith("_seat")) {
      if (Number.isInteger(value)) vm.facts.push([humanize(key), ctx.name(value)]);
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const words = valueWords(ctx, key, value);
      if (words.length <= 200) vm.facts.push([humanize(key), words]);
    }
  }
}
