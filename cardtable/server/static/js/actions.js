// Turning the view's legal actions into controls: clickable cards, multi-card selections and buttons.
// Games are told apart only by the shape of their actions, so every game stays playable without a
// specific view: an action with one `card` field is a card click, one with a `cards` list is a
// selection ("select cards, then Discard"), anything else is a button labelled with the action's label.

/** The card ids an action mentions in a `cards` list, or null. */
export function listCards(action) {
  return Array.isArray(action.cards) && action.cards.every(Number.isInteger) ? action.cards : null;
}

/** The single card an action plays (its `card` field), or null. */
export function singleCard(action) {
  return Number.isInteger(action.card) && typeof action.card !== "boolean" ? action.card : null;
}

/** "discard" -> "Discard"; "attack_many" -> "Attack many". */
export function typeWords(type) {
  const s = String(type).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Sort legal actions into {byCard: Map(card -> [entry]), selections: Map(type -> [entry]), buttons: [entry]}.
 * `isCardAction(entry)` lets a game view keep a card-carrying action as a button (e.g. a choice).
 */
export function classify(legal, isCardAction = () => true) {
  const byCard = new Map();
  const selections = new Map();
  const buttons = [];
  for (const entry of legal) {
    const action = entry.action;
    const card = singleCard(action);
    const cards = listCards(action);
    if (card !== null && isCardAction(entry)) {
      if (!byCard.has(card)) byCard.set(card, []);
      byCard.get(card).push(entry);
    } else if (cards !== null && isCardAction(entry)) {
      if (!selections.has(action.type)) selections.set(action.type, []);
      selections.get(action.type).push(entry);
    } else {
      buttons.push(entry);
    }
  }
  return { byCard, selections, buttons };
}

/** The selection action whose card set equals `selected`, or null. */
export function matchSelection(entries, selected) {
  const want = [...selected].sort((a, b) => a - b).join(",");
  for (const entry of entries) {
    const have = [...listCards(entry.action)].sort((a, b) => a - b).join(",");
    if (have === want) return entry;
  }
  return null;
}

/** Every card that appears in at least one selection action (the cards one may select). */
export function selectableCards(selections) {
  const out = new Set();
  for (const entries of selections.values()) {
    for (const entry of entries) for (const c of listCards(entry.action)) out.add(c);
  }
  return out;
}
