// Kaiser: partnerships (seats 1+3 and 2+4, sitting opposite), bids with or without no trump, naming trump,
// tricks and points, and the hand summary shown after the hand's last trick.

import { addSeatLines, playedPile, shortName } from "./generic.js";

/** "Rick & Summer". */
export function teamName(ctx, team) {
  return team.map((s) => ctx.plainName(s)).join(" & ");
}

/** A suit in words; the engine's own words ("not yet named", "no trump") when it is not a suit. */
function suitWord(ctx, suit) {
  if (!suit || suit === "not yet named") return ctx.t("kaiser.not_named");
  if (suit === "no trump") return ctx.t("choice.no_trump");
  const key = `suit.${suit}`;
  return ctx.t(key) === key ? suit : ctx.t(key);
}

/** The Kaiser view model. */
export function viewModel(ctx) {
  const { t } = ctx;
  const o = ctx.obs;
  const facts = [
    [t("kaiser.hand"), String(o.hand_number)],
    [t("fact.dealer"), ctx.name(o.dealer)],
    [t("fact.phase"), t(`kaiser.phase.${o.phase}`)],
    [t("fact.trump"), suitWord(ctx, o.trump)],
    [t("kaiser.contract"), o.contract ? contractFact(ctx, o.contract) : o.high_bid ? t("kaiser.high_bid", { bid: bidWords(ctx, o.high_bid), name: ctx.plainName(o.high_bid.seat) }) : t("kaiser.none_yet")],
    [t("kaiser.game_to"), t("kaiser.points", { n: o.target })],
  ];
  const seatLines = {};
  const lastBid = {};
  for (const b of o.bids) lastBid[b.seat] = b.points ? t("seat.bid", { bid: bidWords(ctx, b) }) : t("kaiser.passed");
  addSeatLines(seatLines, o.hand_sizes, (_, s) => (lastBid[s] ? lastBid[s] : null));
  addSeatLines(seatLines, o.hand_sizes, (_, s) => (o.contract && o.contract.bidder === s ? t("kaiser.declarer") : s === o.dealer ? t("seat.dealer") : null));
  const teamOf = (s) => o.teams.findIndex((team) => team.includes(s));
  addSeatLines(seatLines, o.hand_sizes, (_, s) => t("kaiser.team", { n: teamOf(s) + 1 }));
  const piles = [{ title: t("pile.on_table"), class: "trick", cards: playedPile(ctx, o.trick), empty: o.leader !== null && o.leader !== undefined ? t("pile.leads", { name: ctx.name(o.leader) }) : t("pile.no_cards") }];
  const panels = [{
    title: t("kaiser.this_hand"),
    lines: o.teams.map((team, i) => t("kaiser.team_line", { n: i + 1, names: teamName(ctx, team), tricks: o.tricks_taken[i], points: o.points_taken[i], total: o.totals[i] })),
  }];
  if (o.bids.length) panels.push({ title: t("kaiser.bidding"), lines: o.bids.map((b) => `${ctx.name(b.seat)}: ${b.points ? t("kaiser.bid_words", { bid: bidWords(ctx, b) }) : t("kaiser.pass")}`) });
  if (o.last_trick.length) {
    panels.push({ title: t("panel.last_trick"), cards: playedPile(ctx, o.last_trick, o.last_trick_winner), caption: t("trick.won_by", { name: ctx.name(o.last_trick_winner) }) });
  }
  return { hand: o.hand, handCounts: o.hand_sizes, facts, seatLines, piles, panels, scoreSheet: sheet(ctx), prompt: prompt(ctx) };
}

/** A bid in the page's language: "7", "7 NT". */
function bidWords(ctx, b) {
  return `${b.points}${b.no_trump ? ` ${ctx.t("kaiser.nt")}` : ""}`;
}

/** The contract in force: who bid what, and the trump (named, not yet named, or no trump). */
function contractFact(ctx, c) {
  const name = ctx.plainName(c.bidder);
  if (c.no_trump) return ctx.t("kaiser.contract_nt", { name, points: c.points });
  return c.trump ? ctx.t("kaiser.contract_suit", { name, points: c.points, suit: suitWord(ctx, c.trump) })
    : ctx.t("kaiser.contract_open", { name, points: c.points });
}

function contractWords(ctx, r) {
  return `${shortName(ctx.plainName(r.bidder))} ${r.bid}${r.no_trump ? ` ${ctx.t("kaiser.nt")}` : ""} ${r.made ? "✓" : "✗"}`;
}

/** Hand by hand: contract, and each team's change and running total; totals always in the footer. */
function sheet(ctx) {
  const o = ctx.obs;
  const team = (i) => ({ text: ctx.t("kaiser.team", { n: i + 1 }), title: `${ctx.t("kaiser.team", { n: i + 1 })}: ${teamName(ctx, o.teams[i])}` });
  return {
    title: ctx.t("sheet.title"),
    columns: [{ text: "#", title: ctx.t("kaiser.hand") }, { text: ctx.t("kaiser.contract"), title: ctx.t("kaiser.contract") }, team(0), team(1)],
    rows: o.score_sheet.map((r) => [
      String(r.hand),
      contractWords(ctx, r),
      { main: String(r.totals[0]), sub: signed(r.change[0]) },
      { main: String(r.totals[1]), sub: signed(r.change[1]) },
    ]),
    footer: [ctx.t("sheet.total"), "", String(o.totals[0]), String(o.totals[1])],
  };
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function prompt(ctx) {
  const o = ctx.obs;
  if (!ctx.view.legal_actions.length) return null;
  const types = new Set(ctx.view.legal_actions.map((e) => e.action.type));
  if (types.has("name_trump")) return ctx.t("kaiser.prompt_trump");
  if (types.has("bid") || types.has("pass")) return ctx.t("kaiser.prompt_bid", { floor: o.floor });
  return null;
}

/** The board as the hand ended (table.js endedView): a taken trick counts for its team with its points, the
 * hand's score goes into the totals. */
export function endedEvent(obs, event) {
  const teams = obs.teams || [[0, 2], [1, 3]];
  if (event.type === "trick_taken" && Array.isArray(obs.tricks_taken)) {
    const i = teams.findIndex((team) => team.includes(event.seat));
    if (i >= 0) {
      obs.tricks_taken[i] += 1;
      if (Array.isArray(obs.points_taken)) obs.points_taken[i] += event.points;
    }
  } else if (event.type === "hand_scored" && Array.isArray(event.totals)) {
    obs.totals = [...event.totals];
  }
}

/** The hand summary, after hand_scored: the contract, what each team took, the change and the totals. */
export function summaryFor(event, ctx) {
  if (event.type !== "hand_scored") return null;
  const { t } = ctx;
  const o = ctx.obs;
  const teams = o.teams || [[0, 2], [1, 3]];
  return {
    title: t("summary.hand", { hand: event.hand }),
    blocks: [
      { text: t(event.made ? "kaiser.summary_made" : "kaiser.summary_set", { name: ctx.plainName(event.bidder), bid: event.bid, nt: event.no_trump ? ` ${t("kaiser.nt")}` : "" }) },
      { table: {
        columns: [t("kaiser.team_col"), t("summary.took"), t("summary.points"), t("summary.total")],
        rows: teams.map((team, i) => [`${t("kaiser.team", { n: i + 1 })}: ${teamName(ctx, team)}`, String(event.taken[i]), signed(event.change[i]), String(event.totals[i])]),
      } },
    ],
  };
}

/** Bids in two rows (suit bids, no-trump bids), then trump choices. */
export function groupButtons(buttons, ctx) {
  const of = (f) => buttons.filter(f);
  const suit = of((e) => e.action.type === "bid" && !e.action.no_trump);
  const nt = of((e) => e.action.type === "bid" && e.action.no_trump);
  const pass = of((e) => e.action.type === "pass");
  const trump = of((e) => e.action.type === "name_trump");
  const rest = of((e) => !["bid", "pass", "name_trump"].includes(e.action.type));
  return [
    pass.length ? { entries: pass } : null,
    suit.length ? { title: ctx.t("kaiser.group_bid"), entries: suit } : null,
    nt.length ? { title: ctx.t("kaiser.group_nt"), entries: nt } : null,
    trump.length ? { title: ctx.t("kaiser.group_trump"), entries: trump } : null,
    { entries: rest },
  ].filter(Boolean);
}

/** The result per team. */
export function resultRows(ctx) {
  const o = ctx.obs;
  const out = ctx.view.outcome;
  return o.teams.map((team, i) => [`${ctx.t("kaiser.team", { n: i + 1 })}: ${teamName(ctx, team)}`, String(o.totals[i] ?? out.scores[team[0]])]);
}
