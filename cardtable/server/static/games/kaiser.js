// Kaiser: partnerships (seats 1+3 and 2+4), bids with or without no trump, naming trump, tricks and points.

import { addSeatLines, playedPile } from "./generic.js";

const PHASES = { bidding: "Bidding", trump: "The bidder names trump", play: "Playing tricks", over: "Game over" };

/** "Rick and Summer". */
export function teamName(ctx, team) {
  return team.map((s) => ctx.plainName(s)).join(" & ");
}

/** The Kaiser view model. */
export function viewModel(ctx) {
  const o = ctx.obs;
  const facts = [
    ["Hand", String(o.hand_number)],
    ["Dealer", ctx.name(o.dealer)],
    ["Phase", PHASES[o.phase] || o.phase],
    ["Trump", o.trump || "not named yet"],
    ["Contract", o.contract ? ctx.withNames(o.contract.words) : o.high_bid ? `high bid: ${o.high_bid.words} by ${ctx.plainName(o.high_bid.seat)}` : "none yet"],
    ["Game to", `${o.target} points`],
  ];
  const seatLines = {};
  const lastBid = {};
  for (const b of o.bids) lastBid[b.seat] = b.points ? `Bid ${b.words}` : "Passed";
  addSeatLines(seatLines, o.hand_sizes, (_, s) => (lastBid[s] ? lastBid[s] : null));
  addSeatLines(seatLines, o.hand_sizes, (_, s) => (o.contract && o.contract.bidder === s ? "declarer" : s === o.dealer ? "dealer" : null));
  const teamOf = (s) => o.teams.findIndex((t) => t.includes(s));
  addSeatLines(seatLines, o.hand_sizes, (_, s) => `Team ${teamOf(s) + 1}`);
  const piles = [{ title: "On the table", cards: playedPile(ctx, o.trick), empty: o.leader !== null && o.leader !== undefined ? `${ctx.name(o.leader)} leads` : "No cards yet" }];
  const panels = [{
    title: "This hand",
    lines: o.teams.map((t, i) => `Team ${i + 1} (${teamName(ctx, t)}): ${o.tricks_taken[i]} tricks, ${o.points_taken[i]} points taken; game score ${o.totals[i]}`),
  }];
  if (o.bids.length) panels.push({ title: "Bidding", lines: o.bids.map((b) => `${ctx.name(b.seat)}: ${b.points ? `bid ${b.words}` : "pass"}`) });
  if (o.last_trick.length) {
    panels.push({ title: "Last trick", cards: playedPile(ctx, o.last_trick, o.last_trick_winner), caption: `Won by ${ctx.name(o.last_trick_winner)}` });
  }
  return { hand: o.hand, handCounts: o.hand_sizes, facts, seatLines, piles, panels, scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

function sheet(ctx) {
  const o = ctx.obs;
  const t1 = `Team 1 (${teamName(ctx, o.teams[0])})`;
  const t2 = `Team 2 (${teamName(ctx, o.teams[1])})`;
  return {
    title: "Score sheet",
    columns: ["Hand", "Contract", "Taken", t1, t2],
    rows: o.score_sheet.map((r) => [
      String(r.hand),
      `${ctx.plainName(r.bidder)}: ${r.bid}${r.no_trump ? " no trump" : ` in ${r.trump}`} ${r.made ? "made" : "set"}`,
      `${r.taken[0]} / ${r.taken[1]}`,
      `${signed(r.change[0])} → ${r.totals[0]}`,
      `${signed(r.change[1])} → ${r.totals[1]}`,
    ]),
    footer: ["Total", "", "", String(o.totals[0]), String(o.totals[1])],
  };
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function prompt(ctx) {
  const o = ctx.obs;
  if (!ctx.view.legal_actions.length) return null;
  const types = new Set(ctx.view.legal_actions.map((e) => e.action.type));
  if (types.has("name_trump")) return "You won the bidding: name the trump suit.";
  if (types.has("bid") || types.has("pass")) return `Bid for your team (at least ${o.floor}), or pass.`;
  return null;
}

/** Bids in two rows (suit bids, no-trump bids), then trump choices. */
export function groupButtons(buttons) {
  const of = (f) => buttons.filter(f);
  const suit = of((e) => e.action.type === "bid" && !e.action.no_trump);
  const nt = of((e) => e.action.type === "bid" && e.action.no_trump);
  const pass = of((e) => e.action.type === "pass");
  const trump = of((e) => e.action.type === "name_trump");
  const rest = of((e) => !["bid", "pass", "name_trump"].includes(e.action.type));
  return [
    pass.length ? { entries: pass } : null,
    suit.length ? { title: "Bid (trump named later)", entries: suit } : null,
    nt.length ? { title: "Bid no trump", entries: nt } : null,
    trump.length ? { title: "Name trump", entries: trump } : null,
    { entries: rest },
  ].filter(Boolean);
}

/** The result per team. */
export function resultRows(ctx) {
  const o = ctx.obs;
  const out = ctx.view.outcome;
  return o.teams.map((t, i) => [`Team ${i + 1}: ${teamName(ctx, t)}`, String(o.totals[i] ?? out.scores[t[0]])]);
}
