// Crazy Eights: the discard pile and the suit in force, drawing, passing, and naming a suit with an eight.
// The prompt offers drawing only when drawing is legal (drawing is for when you cannot play).

import { addSeatLines, cardsWord, shortName } from "./generic.js";

/** The Crazy Eights view model. */
export function viewModel(ctx) {
  const { t } = ctx;
  const o = ctx.obs;
  const facts = [
    [t("fact.round"), t("ce.round_of", { round: o.round, rounds: o.rounds })],
    [t("fact.dealer"), ctx.name(o.dealer)],
    [t("ce.suit_in_force"), t(`suit.${o.suit}`)],
    [t("ce.stock"), cardsWord(o.stock_count, ctx)],
  ];
  if (o.drawn_this_turn && o.to_act === o.seat) facts.push([t("ce.drawn"), cardsWord(o.drawn_this_turn, ctx)]);
  if (o.last_drawn !== null && o.last_drawn !== undefined) facts.push([t("ce.you_drew"), ctx.catalogue.words(o.last_drawn)]);
  const seatLines = {};
  addSeatLines(seatLines, o.totals, (n) => t("ce.penalty", { n }));
  addSeatLines(seatLines, o.totals, (_, s) => (s === o.dealer ? t("seat.dealer") : null));
  const piles = [
    { title: t("ce.discard_pile"), cards: [{ id: o.top }], caption: t("ce.in_force", { suit: t(`suit.${o.suit}`), cards: cardsWord(o.discard_count, ctx) }) },
    { title: t("ce.stock"), cards: o.stock_count ? [{ back: true, label: t("ce.stock_label", { cards: cardsWord(o.stock_count, ctx) }) }] : [], empty: t("ce.empty"), caption: cardsWord(o.stock_count, ctx) },
  ];
  return { hand: o.hand, handCounts: o.hand_counts, facts, seatLines, piles, panels: [], scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

/** Round by round penalties; lowest total wins; totals always in the footer. */
function sheet(ctx) {
  const o = ctx.obs;
  const seats = o.totals.map((_, s) => s);
  return {
    title: ctx.t("sheet.title"),
    note: ctx.t("ce.sheet_note"),
    columns: [{ text: "#", title: ctx.t("fact.round") }, ...seats.map((s) => ({ text: shortName(ctx.plainName(s)), title: ctx.plainName(s) }))],
    rows: o.sheet.map((r) => [String(r.round), ...r.penalties.map((p, s) => ({ main: String(p), sub: r.went_out === s ? ctx.t("ce.went_out") : "" }))]),
    footer: [ctx.t("sheet.total"), ...o.totals.map(String)],
  };
}

function prompt(ctx) {
  const legal = ctx.view.legal_actions;
  if (!legal.length) return null;
  const types = new Set(legal.map((e) => e.action.type));
  const play = types.has("play") || types.has("play_eight");
  if (play && types.has("draw")) return ctx.t("ce.prompt_play_or_draw");
  if (play && types.has("play_eight") && !types.has("play")) return ctx.t("ce.prompt_eight");
  if (play) return ctx.t("ce.prompt_play");
  if (types.has("draw")) return ctx.t("ce.prompt_draw");
  return ctx.t("ce.prompt_pass");
}

/** The round summary: every hand shown with its penalty points. */
export function summaryFor(event, ctx) {
  if (event.type !== "round_ended") return null;
  const { t } = ctx;
  return {
    title: t("summary.round", { round: event.round }),
    blocks: [
      { text: event.went_out !== null ? t("ce.summary_out", { name: ctx.plainName(event.went_out) }) : t("ce.summary_blocked") },
      { table: {
        columns: [t("result.player"), t("ce.penalty_col"), t("summary.total")],
        rows: event.penalties.map((p, s) => [ctx.plainName(s), String(p), String(event.totals[s])]),
      } },
    ],
  };
}
