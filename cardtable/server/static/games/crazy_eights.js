// Crazy Eights: the discard pile and the suit in force, drawing, passing, and naming a suit with an eight.

import { addSeatLines, cardsWord } from "./generic.js";

const ENDS = { out: "went out", blocked: "blocked", limit: "safety limit" };

/** The Crazy Eights view model. */
export function viewModel(ctx) {
  const o = ctx.obs;
  const facts = [
    ["Round", `${o.round} of ${o.rounds}`],
    ["Dealer", ctx.name(o.dealer)],
    ["Suit in force", o.suit_text],
    ["Stock", cardsWord(o.stock_count)],
  ];
  if (o.drawn_this_turn && o.to_act === o.seat) facts.push(["Drawn this turn", cardsWord(o.drawn_this_turn)]);
  if (o.last_drawn !== null && o.last_drawn !== undefined) facts.push(["You drew", ctx.catalogue.words(o.last_drawn)]);
  const seatLines = {};
  addSeatLines(seatLines, o.totals, (t) => `Penalty ${t}`);
  addSeatLines(seatLines, o.totals, (_, s) => (s === o.dealer ? "dealer" : null));
  const piles = [
    { title: "Discard pile", cards: [{ id: o.top }], caption: `${capital(o.suit)} in force · ${cardsWord(o.discard_count)} in the pile` },
    { title: "Stock", cards: o.stock_count ? [{ back: true, label: `stock: ${cardsWord(o.stock_count)}` }] : [], empty: "empty", caption: cardsWord(o.stock_count) },
  ];
  return { hand: o.hand, handCounts: o.hand_counts, facts, seatLines, piles, panels: [], scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sheet(ctx) {
  const o = ctx.obs;
  const seats = o.totals.map((_, s) => s);
  return {
    title: "Score sheet (penalty points; lowest total wins)",
    columns: ["Round", "End", ...seats.map((s) => ctx.plainName(s))],
    rows: o.sheet.map((r) => [String(r.round), r.went_out !== null ? `${ctx.plainName(r.went_out)} went out` : ENDS[r.end] || r.end, ...r.penalties.map(String)]),
    footer: ["Total", "", ...o.totals.map(String)],
  };
}

function prompt(ctx) {
  const legal = ctx.view.legal_actions;
  if (!legal.length) return null;
  const types = new Set(legal.map((e) => e.action.type));
  if (types.has("play_eight") && !types.has("play")) return "Play an eight and name the suit, or draw.";
  if (!types.has("play") && !types.has("play_eight")) return types.has("draw") ? "Nothing to play: draw a card." : "Nothing to play and nothing to draw: pass.";
  return "Play a highlighted card (an eight lets you name the suit), or draw.";
}
