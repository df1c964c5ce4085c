// Wizard: bids, the dealer's trump choice after a turned-up wizard, tricks, and the round-by-round sheet.

import { addSeatLines, cardsWord, playedPile } from "./generic.js";

const PHASES = { choosing_trump: "The dealer names trump", bidding: "Bidding", playing: "Playing tricks", finished: "Game over" };
const SUITS = ["red", "yellow", "green", "blue"];

/** The Wizard view model. */
export function viewModel(ctx) {
  const o = ctx.obs;
  const facts = [
    ["Round", `${o.round} of ${o.rounds} (${cardsWord(o.round)} each)`],
    ["Dealer", ctx.name(o.dealer)],
    ["Phase", PHASES[o.phase] || o.phase],
    ["Trump", o.trump_text || "none"],
  ];
  if (o.phase === "bidding" || o.phase === "playing") facts.push(["Bids", bidSummary(o)]);
  if (Number.isInteger(o.lead_suit)) facts.push(["Suit led", SUITS[o.lead_suit] || String(o.lead_suit)]);
  if (o.forbidden_bid !== null && o.forbidden_bid !== undefined && o.to_act === o.seat && o.phase === "bidding") {
    facts.push(["Note", `you may not bid ${o.forbidden_bid}: the bids may not add up to ${o.round}`]);
  }
  const seatLines = {};
  addSeatLines(seatLines, o.bids, (b, s) => (o.has_bid[s] ? (b === null ? "Bid hidden" : `Bid ${b}`) : "No bid yet"));
  addSeatLines(seatLines, o.tricks, (t) => `Tricks ${t}`);
  addSeatLines(seatLines, o.totals, (t) => `Score ${t}`);
  addSeatLines(seatLines, o.hand_sizes, (_, s) => (s === o.dealer ? "dealer" : null));
  const piles = [];
  if (o.trump_card !== null && o.trump_card !== undefined) {
    piles.push({ title: "Trump card", cards: [{ id: o.trump_card }], caption: o.trump_text, class: "trump" });
  }
  piles.push({ title: "On the table", cards: playedPile(ctx, o.trick), empty: o.leader !== null ? `${ctx.name(o.leader)} leads` : "No cards yet",
    caption: o.trick.length && o.leader !== null ? `${ctx.name(o.leader)} led` : null });
  const panels = [];
  if (o.last_trick.length) {
    panels.push({ title: "Last trick", cards: playedPile(ctx, o.last_trick, o.last_trick_winner), caption: `Won by ${ctx.name(o.last_trick_winner)}` });
  }
  return { hand: o.hand, handCounts: o.hand_sizes, facts, seatLines, piles, panels, scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

function bidSummary(o) {
  const made = o.bids.filter((b, s) => o.has_bid[s] && b !== null);
  const total = made.reduce((a, b) => a + b, 0);
  return `${total} bid for ${o.round} trick${o.round === 1 ? "" : "s"}`;
}

function sheet(ctx) {
  const o = ctx.obs;
  const seats = o.totals.map((_, s) => s);
  return {
    title: "Score sheet (bid / taken: points → total)",
    columns: ["Round", ...seats.map((s) => ctx.plainName(s))],
    rows: o.score_sheet.map((r) => [String(r.round), ...seats.map((s) => `${r.bids[s]}/${r.tricks[s]}: ${r.points[s] > 0 ? "+" : ""}${r.points[s]} → ${r.totals[s]}`)]),
    footer: ["Total", ...o.totals.map(String)],
  };
}

function prompt(ctx) {
  const o = ctx.obs;
  if (!ctx.view.legal_actions.length) return null;
  if (o.phase === "choosing_trump") return "A wizard was turned up: you are the dealer, name the trump suit.";
  if (o.phase === "bidding") return `How many tricks will you take this round (0–${o.round})?`;
  return null;
}

/** Bids and trump choices as labelled groups of buttons. */
export function groupButtons(buttons) {
  const bids = buttons.filter((e) => e.action.type === "bid");
  const trumps = buttons.filter((e) => e.action.type === "choose_trump");
  const rest = buttons.filter((e) => e.action.type !== "bid" && e.action.type !== "choose_trump");
  return [bids.length ? { title: "Your bid", entries: bids } : null, trumps.length ? { title: "Name the trump suit", entries: trumps } : null, { entries: rest }].filter(Boolean);
}
