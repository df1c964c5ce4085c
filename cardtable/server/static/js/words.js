// Words on the page for what the engine says: event lines, card names, seat names.
// The engine's event texts number seats from 0 ("Seat 2 plays…", "reparte 2, es mano 3"); people read
// names. Where the catalogue has a line for an event (event.<game>.<type>) in the page's language, the
// page writes it from the event's fields; otherwise the engine's text is shown with seats named.

import * as i18n from "./i18n.js";
import { t } from "./i18n.js";

// Event fields that hold a seat, a card, or a list of cards.
const SEAT_FIELDS = ["seat", "dealer", "mano", "winner", "leader", "sender", "attacker", "defender", "fool", "bidder", "went_out"];
const ENGINE_LANGUAGE = { mus: "es" };
const PAIR_LETTERS = ["A", "B"];

/** The language of a game's engine texts ("es" for Mus, else "en"). */
export function engineLanguage(game) {
  return ENGINE_LANGUAGE[game] || "en";
}

/** Engine text with seat numbers replaced by names; `nameOf(seat)` returns null for no such seat. */
export function withNames(text, nameOf) {
  const name = (n, whole) => nameOf(Number(n)) ?? whole;
  return String(text)
    .replace(/\b[Ss]eats (\d+) and (\d+)\b/g, (whole, a, b) => `${name(a, a)} ${t("list.and")} ${name(b, b)}`)
    .replace(/\breparte el asiento (\d+)\b/g, (whole, n) => `reparte ${name(n, n)}`)
    .replace(/\b(?:[Ss]eat|[Aa]siento) (\d+)\b/g, (whole, n) => name(n, whole))
    .replace(/\b(reparte|es mano|la seña de) (\d+)\b/g, (whole, word, n) => `${word} ${name(n, n)}`)
    .replace(/\bhablan ([\d, ]*\d)/g, (whole, list) => `hablan ${list.split(/,\s*/).map((n) => name(n, n)).join(", ")}`);
}

/** The page's own line for an event, or null when the catalogue has none in this language. */
export function eventText(entry, game, { name, card }) {
  const event = entry.event || {};
  let key = `event.${game}.${event.type}`;
  if (event.type === "game_over" && (event.fool === null || event.fool === undefined)) key += "_draw";
  if (!i18n.has(key, true)) return null;
  const params = { ...event };
  for (const field of SEAT_FIELDS) if (Number.isInteger(event[field])) params[field] = name(event[field]);
  if (Number.isInteger(event.card)) params.card = card(event.card);
  for (const field of ["cards", "discarded", "drawn"]) {
    if (Array.isArray(event[field])) params[field] = event[field].map(card).join(", ");
  }
  if (Array.isArray(event.speakers)) params.speakers = event.speakers.map(name).join(", ");
  if (Array.isArray(event.hands)) params.hands = event.hands.map((hand, s) => `${name(s)}: ${hand.map(card).join(", ")}`).join("; ");
  if (Number.isInteger(event.pair)) params.pair = PAIR_LETTERS[event.pair] || event.pair;
  params.n = event.count ?? event.tantos ?? event.total ?? 0;
  return t(key, params);
}

/** Card names in the page's language where the catalogue has the words (Durak in Russian), else as served. */
export function translateCards(cards, game) {
  if (i18n.lang() === "en" || !i18n.has("card.words", true)) return cards;
  return cards.map((c) => {
    const rank = `card.rank.${c.rank}`;
    const suit = `card.suit_of.${c.suit}`;
    if (!c.suit || !i18n.has(rank, true) || !i18n.has(suit, true)) return c;
    return { ...c, words: t("card.words", { rank: t(rank), suit: t(suit) }) };
  });
}
