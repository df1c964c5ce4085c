// Mus: mus or cut, choosing discards, the envites with their amounts, declarations (pares, juego), the
// lances' results, shown hands and the score in tantos, amarracos and piedras. Pairs A (seats 1+3) and
// B (seats 2+4) sit opposite. After each hand the count is shown lance by lance, cards on the table.

import { musReasonKey, signalName } from "../js/words.js";
import { addSeatLines, shortName } from "./generic.js";

const PAIRS = [[0, 2], [1, 3]];
const LETTERS = ["A", "B"];
// The hands counted so far this game, for the hand-by-hand sheet (rebuilt from the events on a reload).
let history = [];

/** Forget the hand-by-hand history (a replay rebuilds it). */
export function reset() {
  history = [];
}

/** "Rick & Summer". */
function pairName(ctx, pair) {
  return PAIRS[pair].filter((s) => s < ctx.view.seats.length).map((s) => ctx.plainName(s)).join(" & ");
}

function pairLabel(ctx, pair) {
  return ctx.t("mus.pair", { letter: LETTERS[pair] });
}

function lanceWord(ctx, lance) {
  return lance ? ctx.t(`mus.lance.${lance}`) : "";
}

function tantos(ctx, n) {
  return ctx.t("mus.tantos", { n });
}

/** The Mus view model. */
export function viewModel(ctx) {
  const { t } = ctx;
  const o = ctx.obs;
  const facts = [
    [t("fact.phase"), t(`mus.phase.${o.phase}`)],
    [t("mus.mano"), ctx.name(o.mano)],
    [t("fact.dealer"), ctx.name(o.dealer)],
    [t("mus.game_to"), tantos(ctx, o.target)],
    [t("mus.hand"), t("mus.hand_of_game", { hand: o.hand_number, game: o.game_number })],
  ];
  if (o.betting) facts.push([t("mus.envite"), bettingWords(ctx, o.betting)]);
  if (o.mus_rounds) facts.push([t("mus.mus_rounds"), String(o.mus_rounds)]);
  const seatLines = {};
  const n = ctx.view.seats.length;
  const perSeat = Array.from({ length: n }, (_, s) => s);
  addSeatLines(seatLines, perSeat, (s) => (s === o.mano ? t("mus.mano_tag") : s === o.postre ? t("mus.postre_tag") : null));
  addSeatLines(seatLines, perSeat, (s) => pairLabel(ctx, PAIRS[0].includes(s) ? 0 : 1));
  addSeatLines(seatLines, o.pares, (v) => (v === null ? null : t(v ? "mus.pares_yes" : "mus.pares_no")));
  addSeatLines(seatLines, o.juego, (v) => (v === null ? null : t(v ? "mus.juego_yes" : "mus.juego_no")));
  addSeatLines(seatLines, o.discard_counts, (c) => ((o.phase === "discard" || o.phase === "mus_decision") && c ? t("mus.discarded", { n: c }) : null));
  const piles = o.shown_hands.map((hand, s) => ({ seat: s, hand })).filter((x) => x.hand.length)
    .map((x) => ({ title: t("mus.shows", { name: ctx.plainName(x.seat) }), cards: x.hand.map((id) => ({ id })) }));
  if (o.discarding.length) piles.push({ title: t("mus.your_discard"), cards: o.discarding.map((id) => ({ id })) });
  const panels = [scorePanel(ctx), lancePanel(ctx)];
  if (o.envites.length) panels.push({ title: t("mus.envites_title"), lines: o.envites.map((e) => `${lanceWord(ctx, e.lance)}: ${ctx.name(e.seat)} ${t(`mus.envite.${e.kind}`)}${e.amount ? ` ${e.amount}` : ""}`) });
  if (o.signals.length) panels.push({ title: t("mus.signals"), lines: o.signals.map((g) => `${ctx.name(g.sender)}: ${signalName(g.signal)}${g.intercepted ? ` (${t("mus.intercepted")})` : ""}`) });
  return { hand: o.hand, handCounts: perSeat.map(() => o.hand.length || 4), facts, seatLines, piles, panels, scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

function bettingWords(ctx, b) {
  const lance = lanceWord(ctx, b.lance);
  if (b.ordago) return ctx.t("mus.betting_ordago", { name: ctx.name(b.bettor), lance });
  if (b.proposed) return ctx.t("mus.betting_proposed", { n: b.proposed, name: ctx.name(b.bettor), lance, force: b.bet_in_force });
  return b.bet_in_force ? ctx.t("mus.betting_force", { n: b.bet_in_force, lance }) : ctx.t("mus.betting_none", { lance });
}

/** Tantos, amarracos (five-tanto counters), piedras and games of each pair. */
function scorePanel(ctx) {
  const o = ctx.obs;
  return {
    score: true,
    title: ctx.t("mus.score"),
    lines: [0, 1].map((p) => ctx.t("mus.score_line", {
      pair: pairLabel(ctx, p), names: pairName(ctx, p), tantos: tantos(ctx, o.tanteo[p]),
      amarracos: ctx.t("mus.amarracos", { n: o.amarracos[p] }), piedras: ctx.t("mus.piedras", { n: o.piedras[p] }),
      games: o.games[p], of: o.games_to_win,
    }) + (o.team_in[p] ? ` · ${ctx.t("mus.is_in")}` : "")),
  };
}

/** This hand, lance by lance: how each closed and what it is worth (a refused envite: its deje). */
function lancePanel(ctx) {
  const o = ctx.obs;
  return {
    title: ctx.t("mus.this_hand"),
    lines: o.results.length ? o.results.map((r) => `${lanceWord(ctx, r.lance)}: ${ctx.t(`mus.status.${r.status}`)}${r.total ? ` (${tantos(ctx, r.total)})` : ""}${r.pair === null ? "" : ` → ${pairLabel(ctx, r.pair)}`}`)
      : [ctx.t("mus.no_lance_yet")],
  };
}

/** Hand by hand: the tantos each pair won in the hand and the tanteo after it. */
function sheet(ctx) {
  const o = ctx.obs;
  const pair = (p) => ({ text: pairLabel(ctx, p), title: `${pairLabel(ctx, p)}: ${pairName(ctx, p)}` });
  return {
    title: ctx.t("mus.sheet_title"),
    columns: [{ text: "#", title: ctx.t("mus.hand") }, pair(0), pair(1)],
    rows: history.map((hnd) => [String(hnd.hand), { main: String(hnd.tanteo[0]), sub: `+${hnd.won[0]}` }, { main: String(hnd.tanteo[1]), sub: `+${hnd.won[1]}` }]),
    footer: [ctx.t("sheet.total"), String(o.tanteo[0]), String(o.tanteo[1])],
  };
}

function prompt(ctx) {
  const legal = ctx.view.legal_actions;
  if (!legal.length) return null;
  const types = new Set(legal.map((e) => e.action.type));
  if (types.has("discard")) return ctx.t("mus.prompt_discard");
  if (types.has("mus")) return ctx.t("mus.prompt_mus");
  return ctx.t("mus.prompt_envite", { lance: lanceWord(ctx, ctx.obs.lance || ctx.obs.phase) });
}

/** Follows the hand's events; at the end of a hand returns its summary (hands, count, tanteo). */
export function summaryFor(event, ctx, handLog) {
  const ends = event.type === "hand_dealt" || event.type === "game_won";
  if (event.type === "game_won") handLog.push(event);
  if (!ends) {
    handLog.push(event);
    return null;
  }
  const done = handLog.splice(0, handLog.length);
  if (event.type === "hand_dealt") handLog.push(event);
  const scored = done.filter((e) => e.type === "tantos_scored");
  const shown = done.find((e) => e.type === "hands_shown");
  const dealt = done.find((e) => e.type === "hand_dealt");
  if (!scored.length && !shown) return null;
  const tanteo = scored.length ? scored[scored.length - 1].tanteo : ctx.obs.tanteo;
  const won = [0, 1].map((p) => scored.filter((e) => e.pair === p).reduce((a, e) => a + e.tantos, 0));
  history.push({ hand: dealt ? dealt.hand : history.length + 1, won, tanteo });
  return { ...summary(ctx, done, scored, shown, tanteo, dealt), startsNext: event.type === "hand_dealt" };
}

/** What a count's line is for: "envite accepted · Grande"; a lance's own bonus once ("juego", not "juego · Juego"). */
function countWhat(ctx, e) {
  const reason = ctx.t(musReasonKey(e.reason));
  return e.reason === e.lance ? reason : `${reason} · ${lanceWord(ctx, e.lance)}`;
}

function summary(ctx, done, scored, shown, tanteo, dealt) {
  const { t } = ctx;
  const blocks = [];
  if (shown) {
    blocks.push({ hands: shown.hands.map((cards, s) => ({ title: ctx.plainName(s), cards, caption: pairLabel(ctx, PAIRS[0].includes(s) ? 0 : 1) })) });
  }
  const closed = done.filter((e) => e.type === "lance_closed").map((e) => `${lanceWord(ctx, e.lance)}: ${t(`mus.status.${e.status}`)}${e.total ? ` (${tantos(ctx, e.total)})` : ""}`);
  if (closed.length) blocks.push({ text: t("mus.lances"), lines: closed });
  blocks.push({ table: {
    columns: [t("mus.count_who"), t("mus.count_what"), t("mus.count_tantos")],
    rows: scored.map((e) => [pairLabel(ctx, e.pair), countWhat(ctx, e), tantos(ctx, e.tantos)]),
  } });
  blocks.push({ lines: [0, 1].map((p) => t("mus.tanteo_line", { pair: pairLabel(ctx, p), names: pairName(ctx, p), tantos: tantos(ctx, tanteo[p]),
    amarracos: t("mus.amarracos", { n: Math.floor(tanteo[p] / 5) }), piedras: t("mus.piedras", { n: tanteo[p] % 5 }) })) });
  return { title: t("mus.summary_title", { hand: dealt ? dealt.hand : history.length }), blocks };
}

/** The discard button's name. */
export function selectionName(type, _entries, ctx) {
  return type === "discard" ? ctx.t("mus.discard") : null;
}

/** Mus/cut, then the envite buttons, then señas. */
export function groupButtons(buttons, ctx) {
  const of = (types) => buttons.filter((e) => types.includes(e.action.type));
  const mus = of(["mus", "cut_mus"]);
  const answer = of(["pass", "accept", "accept_no_lose", "reject"]);
  const bets = of(["bet", "raise", "ordago"]);
  const signals = of(["signal"]);
  const known = ["mus", "cut_mus", "pass", "accept", "accept_no_lose", "reject", "bet", "raise", "ordago", "signal"];
  return [
    mus.length ? { title: ctx.t("mus.group_mus"), entries: mus } : null,
    answer.length ? { title: ctx.t("mus.group_answer"), entries: answer } : null,
    bets.length ? { title: ctx.t("mus.group_envites"), entries: bets } : null,
    signals.length ? { title: ctx.t("mus.group_signals"), entries: signals } : null,
    { entries: buttons.filter((e) => !known.includes(e.action.type)) },
  ].filter(Boolean);
}

/** The result per pair. */
export function resultRows(ctx) {
  const o = ctx.obs;
  return [0, 1].map((p) => [`${pairLabel(ctx, p)}: ${pairName(ctx, p)}`, `${ctx.t("mus.games", { n: o.games[p] })}, ${tantos(ctx, o.tanteo[p])}`]);
}

export { shortName };
