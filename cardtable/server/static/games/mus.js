// Mus: mus or cut, choosing discards, the envites with their amounts, declarations (pares, juego),
// the lances' results, shown hands and the score in tantos, amarracos and piedras. Pairs: seats 1+3, 2+4.

import { addSeatLines } from "./generic.js";

const PHASES = {
  dealing: "Dealing", mus_decision: "Mus or cut", discard: "Discards", grande: "Grande", chica: "Chica",
  pares_declaration: "Declaring pares", pares: "Pares", juego_declaration: "Declaring juego", juego: "Juego",
  punto: "Punto", showdown: "Showdown", ordago_showdown: "Órdago showdown", scoring: "Scoring",
  check_game_end: "Scoring", game_over: "Game over",
};
const ENVITES = { pass: "paso", bet: "envido", raise: "sube", accept: "quiero", reject: "no quiero", ordago: "órdago", accept_no_lose: "quiero y no pierdo" };
const PAIRS = [[0, 2], [1, 3]];

/** "Rick & Summer". */
function pairName(ctx, pair) {
  return PAIRS[pair].filter((s) => s < ctx.view.seats.length).map((s) => ctx.plainName(s)).join(" & ");
}

/** The Mus view model. */
export function viewModel(ctx) {
  const o = ctx.obs;
  const facts = [
    ["Phase", PHASES[o.phase] || o.phase],
    ["Mano", ctx.name(o.mano)],
    ["Dealer", ctx.name(o.dealer)],
    ["Game to", `${o.target} tantos`],
    ["Hand", `${o.hand_number} of game ${o.game_number}`],
  ];
  if (o.betting) facts.push(["Envite", bettingWords(ctx, o.betting)]);
  if (o.mus_rounds) facts.push(["Mus rounds", String(o.mus_rounds)]);
  const seatLines = {};
  const n = ctx.view.seats.length;
  const perSeat = Array.from({ length: n }, (_, s) => s);
  addSeatLines(seatLines, perSeat, (s) => (s === o.mano ? "mano" : s === o.postre ? "postre" : null));
  addSeatLines(seatLines, perSeat, (s) => `Pair ${PAIRS[0].includes(s) ? 1 : 2}`);
  addSeatLines(seatLines, o.pares, (v) => (v === null ? null : v ? "Pares: sí" : "Pares: no"));
  addSeatLines(seatLines, o.juego, (v) => (v === null ? null : v ? "Juego: sí" : "Juego: no"));
  addSeatLines(seatLines, o.discard_counts, (c) => (o.phase === "discard" || o.phase === "mus_decision") && c ? `Discarded ${c}` : null);
  const piles = o.shown_hands.map((hand, s) => ({ seat: s, hand })).filter((x) => x.hand.length)
    .map((x) => ({ title: `${ctx.plainName(x.seat)} shows`, cards: x.hand.map((id) => ({ id })) }));
  if (o.discarding.length) piles.push({ title: "Your discard", cards: o.discarding.map((id) => ({ id })) });
  const panels = [scorePanel(ctx)];
  if (o.envites.length) panels.push({ title: "Envites this hand", lines: o.envites.map((e) => `${capital(e.lance)}: ${ctx.name(e.seat)} ${ENVITES[e.kind] || e.kind}${e.amount ? ` ${e.amount}` : ""}`) });
  if (o.signals.length) panels.push({ title: "Señas seen", lines: o.signals.map((g) => `${ctx.name(g.sender)}: ${g.signal.replace(/_/g, " ")}${g.intercepted ? " (intercepted)" : ""}`) });
  return { hand: o.hand, handCounts: perSeat.map(() => o.hand.length || 4), facts, seatLines, piles, panels, scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

function capital(s) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : "";
}

function bettingWords(ctx, b) {
  if (b.ordago) return `órdago by ${ctx.name(b.bettor)} on ${b.lance}`;
  if (b.proposed) return `${b.proposed} proposed by ${ctx.name(b.bettor)} on ${b.lance} (${b.bet_in_force} in force)`;
  return b.bet_in_force ? `${b.bet_in_force} in force on ${b.lance}` : `${b.lance}: nothing bet yet`;
}

/** Tantos, amarracos (five-tanto counters), piedras and games of each pair. */
function scorePanel(ctx) {
  const o = ctx.obs;
  return {
    title: "Score",
    lines: [0, 1].map((p) => `Pair ${p + 1} (${pairName(ctx, p)}): ${o.tanteo[p]} tantos = ${o.amarracos[p]} amarraco${o.amarracos[p] === 1 ? "" : "s"} and ${o.piedras[p]} piedra${o.piedras[p] === 1 ? "" : "s"}; games ${o.games[p]} of ${o.games_to_win}${o.team_in[p] ? " · is in (a falta)" : ""}`),
  };
}

function sheet(ctx) {
  const o = ctx.obs;
  return {
    title: "This hand, lance by lance",
    columns: ["Lance", "Result", "Tantos", "To"],
    rows: o.results.map((r) => [capital(r.lance), r.status.replace(/_/g, " "), String(r.total), r.pair === null ? "—" : `Pair ${r.pair + 1}`]),
  };
}

function prompt(ctx) {
  const legal = ctx.view.legal_actions;
  if (!legal.length) return null;
  const types = new Set(legal.map((e) => e.action.type));
  if (types.has("discard")) return "Choose the cards to discard, then press Discard.";
  if (types.has("mus")) return "Mus (change cards) or cut (no hay mus)?";
  return `${capital(ctx.obs.lance || ctx.obs.phase)}: pass, bet, or answer the envite.`;
}

/** The discard button's name. */
export function selectionName(type) {
  return type === "discard" ? "Discard" : null;
}

/** Mus/cut, then the envite buttons, then señas. */
export function groupButtons(buttons) {
  const of = (types) => buttons.filter((e) => types.includes(e.action.type));
  const mus = of(["mus", "cut_mus"]);
  const answer = of(["pass", "accept", "accept_no_lose", "reject"]);
  const bets = of(["bet", "raise", "ordago"]);
  const signals = of(["signal"]);
  const known = ["mus", "cut_mus", "pass", "accept", "accept_no_lose", "reject", "bet", "raise", "ordago", "signal"];
  return [
    mus.length ? { title: "Mus?", entries: mus } : null,
    answer.length ? { title: "Answer", entries: answer } : null,
    bets.length ? { title: "Envites", entries: bets } : null,
    signals.length ? { title: "Señas", entries: signals } : null,
    { entries: buttons.filter((e) => !known.includes(e.action.type)) },
  ].filter(Boolean);
}

/** The result per pair. */
export function resultRows(ctx) {
  const o = ctx.obs;
  return [0, 1].map((p) => [`Pair ${p + 1}: ${pairName(ctx, p)}`, `${o.games[p]} game${o.games[p] === 1 ? "" : "s"}, ${o.tanteo[p]} tantos`]);
}
