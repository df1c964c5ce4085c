// Durak: the trump and the stock, the bout (attack cards with the cards that beat them), attack, beat, stop, take.

import { addSeatLines, cardsWord } from "./generic.js";

/** The Durak view model. */
export function viewModel(ctx) {
  const o = ctx.obs;
  const trumpWords = ctx.catalogue.words(o.trump_card);
  const facts = [
    ["Trump", `${o.trump_suit} (the ${trumpWords} was turned up)`],
    ["Stock", cardsWord(o.deck_count)],
    ["Bout", String(o.bout_number)],
    ["Attacker", o.attacker === null ? "—" : ctx.name(o.attacker)],
    ["Defender", o.defender === null ? "—" : ctx.name(o.defender)],
    ["Out of the game", cardsWord(o.discards)],
  ];
  const seatLines = {};
  addSeatLines(seatLines, o.in_game, (inGame, s) => (!inGame ? "out: no cards left" : s === o.attacker ? "attacking" : s === o.defender ? "defending" : null));
  if (o.fool !== null && o.fool !== undefined) addSeatLines(seatLines, o.in_game, (_, s) => (s === o.fool ? "the fool (durak)" : null));
  const pairs = [];
  for (let i = 0; i < o.bout.length; i += 2) {
    const group = [{ id: o.bout[i], note: "attack" }];
    if (i + 1 < o.bout.length) group.push({ id: o.bout[i + 1], note: "beaten with" });
    pairs.push({ group });
  }
  const piles = [
    { title: "The bout", cards: pairs, empty: o.attacker !== null ? `${ctx.name(o.attacker)} leads the attack` : "No cards yet",
      caption: o.bout.length % 2 ? `${ctx.name(o.defender)} must beat the ${ctx.catalogue.words(o.bout[o.bout.length - 1])} or take` : null },
    { title: "Trump card and stock", cards: [{ id: o.trump_card }, ...(o.deck_count > 1 ? [{ back: true, label: `stock: ${cardsWord(o.deck_count)}` }] : [])],
      caption: o.deck_count ? `${cardsWord(o.deck_count)} left (the trump card is the last)` : "The stock is empty" },
  ];
  return { hand: o.hand, handCounts: o.hand_counts, facts, seatLines, piles, panels: [], scoreSheet: null, prompt: prompt(ctx) };
}

function prompt(ctx) {
  const legal = ctx.view.legal_actions;
  if (!legal.length) return null;
  const types = new Set(legal.map((e) => e.action.type));
  if (types.has("beat") || types.has("take")) return "You defend: beat the last attack card with a highlighted card, or take the cards.";
  if (types.has("stop")) return "Attack again with a card of a rank on the table, or stop.";
  return "You attack: lead any card.";
}
