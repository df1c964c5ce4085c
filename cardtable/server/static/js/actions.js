// Turning the view's legal actions into controls: clickable cards, multi-card selections and buttons.
// Games are told apart only by the shape of their actions, so every game stays playable without a
// specific view: an action with one `card` field is a card click, one with a `cards` list is a
// selection ("select cards, then Discard"), anything else is a button named after the action.
//
// Names: the page writes each action's name itself, from its JSON (type and fields), with the catalogue's
// line action.<game>.<type> in the page's language ("Raise 2 more", "Subo 2 más"; Mus's terms such as
// paso, envido, quiero or órdago stay as the rules use them). The server's label (the engine's words) is
// shown only for an action the catalogue does not know (a third party's game).

import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { signalName, variantOf } from "./words.js";

// Actions whose name depends on their fields, as words.js's VARIANTS for events: the first variant whose
// fields hold these values gives the key a suffix (action.kaiser.bid_nt). Written as JSON, because the
// catalogue test (tests/browser/test_catalogues.py) reads it.
const ACTION_VARIANTS = {
  "kaiser": {"bid": {"nt": {"no_trump": true}}}
};

/** The catalogue key of an action's name (action.<game>.<type>, with its variant's suffix). */
export function actionKey(game, action) {
  const suffix = variantOf((ACTION_VARIANTS[game] || {})[action.type], action);
  return `action.${game}.${action.type}${suffix ? `_${suffix}` : ""}`;
}

/** An action's name in the page's language, or null when the catalogue has none for it; `card(id)` names a card. */
export function actionText(action, game, { card }) {
  const key = actionKey(game, action || {});
  if (!action || !i18n.has(key)) return null;
  const params = { ...action };
  if (Number.isInteger(action.card)) params.card = card(action.card);
  if (Array.isArray(action.cards)) params.cards = action.cards.map(card).join(", ");
  if (typeof action.suit === "string" && i18n.has(`suit.${action.suit}`)) params.suit = t(`suit.${action.suit}`);
  if (typeof action.signal === "string") params.signal = signalName(action.signal);
  params.n = [action.amount, action.tricks, action.points].find((v) => Number.isInteger(v)) ?? 0;
  return t(key, params);
}

/** A legal action's name on the page: its own (actionText), else the server's label, else its text form. */
export function actionName(entry, game, how) {
  return actionText(entry.action, game, how) ?? entry.label ?? entry.text;
}

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
