// Durak: the trump and the stock, the bout (attack cards with the cards that beat them), attack, beat,
// stop, take. Prompts offer only what is legal now ("attack again" only when a card may be added).

import { addSeatLines, cardsWord } from "./generic.js";

/** The Durak view model. */
export function viewModel(ctx) {
  const { t } = ctx;
  const o = ctx.obs;
  const trumpWords = ctx.catalogue.words(o.trump_card);
  const facts = [
    [t("fact.trump"), t("durak.trump_fact", { suit: t(`suit.${o.trump_suit}`), card: trumpWords })],
    [t("durak.stock"), cardsWord(o.deck_count, ctx)],
    [t("durak.bout"), String(o.bout_number)],
    [t("durak.attacker"), o.attacker === null ? "—" : ctx.name(o.attacker)],
    [t("durak.defender"), o.defender === null ? "—" : ctx.name(o.defender)],
    [t("durak.out_of_game"), cardsWord(o.discards, ctx)],
  ];
  const seatLines = {};
  addSeatLines(seatLines, o.in_game, (inGame, s) => (!inGame ? t("durak.out") : s === o.attacker ? t("durak.attacking") : s === o.defender ? t("durak.defending") : null));
  if (o.fool !== null && o.fool !== undefined) addSeatLines(seatLines, o.in_game, (_, s) => (s === o.fool ? t("durak.fool") : null));
  const pairs = [];
  for (let i = 0; i < o.bout.length; i += 2) {
    const group = [{ id: o.bout[i], note: t("durak.attack_note") }];
    if (i + 1 < o.bout.length) group.push({ id: o.bout[i + 1], note: t("durak.beaten_note") });
    pairs.push({ group });
  }
  const piles = [
    { title: t("durak.the_bout"), cards: pairs, empty: o.attacker !== null ? t("durak.leads_attack", { name: ctx.name(o.attacker) }) : t("pile.no_cards"),
      caption: o.bout.length % 2 ? t("durak.must_beat", { name: ctx.name(o.defender), card: ctx.catalogue.words(o.bout[o.bout.length - 1]) }) : null },
    { title: t("durak.trump_and_stock"), cards: [{ id: o.trump_card }, ...(o.deck_count > 1 ? [{ back: true, label: t("durak.stock_label", { cards: cardsWord(o.deck_count, ctx) }) }] : [])],
      caption: o.deck_count ? t("durak.left", { cards: cardsWord(o.deck_count, ctx) }) : t("durak.stock_empty") },
  ];
  return { hand: o.hand, handCounts: o.hand_counts, facts, seatLines, piles, panels: [], scoreSheet: null, prompt: prompt(ctx) };
}

function prompt(ctx) {
  const legal = ctx.view.legal_actions;
  if (!legal.length) return null;
  const types = new Set(legal.map((e) => e.action.type));
  if (types.has("beat")) return ctx.t("durak.prompt_defend");
  if (types.has("take")) return ctx.t("durak.prompt_take");
  if (types.has("stop") && types.has("attack")) return ctx.t("durak.prompt_again");
  if (types.has("stop")) return ctx.t("durak.prompt_stop");
  return ctx.t("durak.prompt_attack");
}
