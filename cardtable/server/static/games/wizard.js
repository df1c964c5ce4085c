// Wizard: bids, the dealer's trump choice after a turned-up wizard, tricks, the round-by-round sheet,
// and the round summary (bids, tricks, points, totals) shown after the round's last trick.

import { addSeatLines, playedPile, shortName } from "./generic.js";

const SUITS = ["red", "yellow", "green", "blue"];

/** The Wizard view model. */
export function viewModel(ctx) {
  const { t } = ctx;
  const o = ctx.obs;
  const facts = [
    [t("fact.round"), t("wizard.round_of", { round: o.round, rounds: o.rounds, cards: t("cards", { n: o.round }) })],
    [t("fact.dealer"), ctx.name(o.dealer)],
    [t("fact.phase"), t(`wizard.phase.${o.phase}`)],
    [t("fact.trump"), o.trump_text ? t(`suit.${o.trump_text}`) : t("wizard.no_trump")],
  ];
  if (o.phase === "bidding" || o.phase === "playing") facts.push([t("wizard.bids"), bidSummary(ctx)]);
  if (Number.isInteger(o.lead_suit)) facts.push([t("wizard.suit_led"), t(`suit.${SUITS[o.lead_suit]}`)]);
  if (o.forbidden_bid !== null && o.forbidden_bid !== undefined && o.to_act === o.seat && o.phase === "bidding") {
    facts.push([t("fact.note"), t("wizard.forbidden", { bid: o.forbidden_bid, round: o.round })]);
  }
  const seatLines = {};
  addSeatLines(seatLines, o.bids, (b, s) => (o.has_bid[s] ? (b === null ? t("wizard.bid_hidden") : t("seat.bid", { bid: b })) : t("wizard.no_bid_yet")));
  addSeatLines(seatLines, o.tricks, (n) => t("seat.tricks", { n }));
  addSeatLines(seatLines, o.totals, (n) => t("seat.score", { n }));
  addSeatLines(seatLines, o.hand_sizes, (_, s) => (s === o.dealer ? t("seat.dealer") : null));
  const piles = [];
  if (o.trump_card !== null && o.trump_card !== undefined) {
    piles.push({ title: t("wizard.trump_card"), cards: [{ id: o.trump_card }], caption: o.trump_text ? t(`suit.${o.trump_text}`) : null, class: "trump" });
  }
  piles.push({ title: t("pile.on_table"), class: "trick", cards: playedPile(ctx, o.trick), empty: o.leader !== null ? t("pile.leads", { name: ctx.name(o.leader) }) : t("pile.no_cards") });
  const panels = [];
  if (o.last_trick.length) {
    panels.push({ title: t("panel.last_trick"), cards: playedPile(ctx, o.last_trick, o.last_trick_winner), caption: t("trick.won_by", { name: ctx.name(o.last_trick_winner) }) });
  }
  return { hand: o.hand, handCounts: o.hand_sizes, facts, seatLines, piles, panels, scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

function bidSummary(ctx) {
  const o = ctx.obs;
  const made = o.bids.filter((b, s) => o.has_bid[s] && b !== null);
  const total = made.reduce((a, b) => a + b, 0);
  return ctx.t("wizard.bid_total", { total, n: o.round });
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Round by round: each player's total, with bid/taken and the round's points under it. */
function sheet(ctx) {
  const o = ctx.obs;
  const seats = o.totals.map((_, s) => s);
  return {
    title: ctx.t("sheet.title"),
    note: ctx.t("wizard.sheet_note"),
    columns: [{ text: "#", title: ctx.t("fact.round") }, ...seats.map((s) => ({ text: shortName(ctx.plainName(s)), title: ctx.plainName(s) }))],
    rows: o.score_sheet.map((r) => [String(r.round), ...seats.map((s) => ({ main: String(r.totals[s]), sub: `${r.bids[s]}/${r.tricks[s]} ${signed(r.points[s])}` }))]),
    footer: [ctx.t("sheet.total"), ...o.totals.map(String)],
  };
}

function prompt(ctx) {
  const o = ctx.obs;
  if (!ctx.view.legal_actions.length) return null;
  if (o.phase === "choosing_trump") return ctx.t("wizard.prompt_trump");
  if (o.phase === "bidding") return ctx.t("wizard.prompt_bid", { round: o.round });
  return null;
}

/** The board as the round ended (table.js endedView): a taken trick counts for its winner, the round's
 * score goes into the totals, no suit is led. */
export function endedEvent(obs, event) {
  if (event.type === "trick_won" && Array.isArray(obs.tricks)) {
    obs.tricks[event.winner] += 1;
    obs.lead_suit = null;
  } else if (event.type === "round_scored" && Array.isArray(event.totals)) {
    obs.totals = [...event.totals];
  }
}

/** The round summary: after round_scored (the last trick has been held in the middle before it). */
export function summaryFor(event, ctx) {
  if (event.type !== "round_scored") return null;
  const { t } = ctx;
  const seats = event.totals.map((_, s) => s);
  return {
    title: t("summary.round", { round: event.round }),
    blocks: [{ table: {
      columns: [t("result.player"), t("summary.bid"), t("summary.took"), t("summary.points"), t("summary.total")],
      rows: seats.map((s) => [ctx.plainName(s), String(event.bids[s]), String(event.tricks[s]), signed(event.points[s]), String(event.totals[s])]),
    } }],
  };
}

/** Bids and trump choices as labelled groups of buttons. */
export function groupButtons(buttons, ctx) {
  const bids = buttons.filter((e) => e.action.type === "bid");
  const trumps = buttons.filter((e) => e.action.type === "choose_trump");
  const rest = buttons.filter((e) => e.action.type !== "bid" && e.action.type !== "choose_trump");
  return [bids.length ? { title: ctx.t("wizard.your_bid"), entries: bids } : null, trumps.length ? { title: ctx.t("wizard.name_trump"), entries: trumps } : null, { entries: rest }].filter(Boolean);
}
