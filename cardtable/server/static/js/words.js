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

// Events whose line depends on a field: the key gets a suffix (event.kaiser.bid_made_nt, …).
const VARIANTS = {
  durak: { game_over: (e) => (e.fool === null || e.fool === undefined ? "draw" : null) },
  wizard: { trump_turned: (e) => (e.card === null || e.card === undefined ? "none" : e.dealer_chooses ? "choose" : null) },
  kaiser: {
    bid_made: (e) => (!e.points ? "pass" : e.no_trump ? "nt" : null),
    contract_won: (e) => (e.no_trump ? "nt" : null),
    hand_scored: (e) => (e.made ? "made" : "set"),
  },
  crazy_eights: { round_ended: (e) => (e.end === "out" ? "out" : "blocked") },
};

/** The page's own line for an event, or null when the catalogue has none in this language. */
export function eventText(entry, game, { name, card }) {
  const event = entry.event || {};
  let key = `event.${game}.${event.type}`;
  const variant = (VARIANTS[game] || {})[event.type];
  const suffix = variant ? variant(event) : null;
  if (suffix) key += `_${suffix}`;
  if (!i18n.has(key, true)) return null;
  const params = { ...event };
  for (const field of SEAT_FIELDS) if (Number.isInteger(event[field])) params[field] = name(event[field]);
  for (const field of ["card", "starter"]) if (Number.isInteger(event[field])) params[field] = card(event[field]);
  for (const field of ["suit", "trump"]) if (typeof event[field] === "string" && i18n.has(`suit.${event[field]}`)) params[field] = t(`suit.${event[field]}`);
  if (Array.isArray(event.winners)) params.winners = event.winners.map(name).join(` ${t("list.and")} `);
  if (typeof event.reason === "string") params.reason = reasonText(game, event.reason, name) ?? event.reason;
  params.nt = event.no_trump ? ` ${t("kaiser.nt")}` : "";
  for (const field of ["cards", "discarded", "drawn"]) {
    if (Array.isArray(event[field])) params[field] = event[field].map(card).join(", ");
  }
  if (Array.isArray(event.speakers)) params.speakers = event.speakers.map(name).join(", ");
  if (Array.isArray(event.hands)) params.hands = event.hands.map((hand, s) => `${name(s)}: ${hand.map(card).join(", ")}`).join("; ");
  if (Number.isInteger(event.pair)) params.pair = PAIR_LETTERS[event.pair] || event.pair;
  params.n = event.count ?? event.tantos ?? event.total ?? event.cards_each ?? 0;
  return t(key, params);
}

/** Card names in the page's language where the catalogue has the words (Durak in Russian), else as served. */
export function translateCards(cards, game) {
  if (i18n.lang() === "en" || !i18n.has("card.words", true)) return cards;
  return cards.map((c) => {
    const wizard = wizardCard(c.words);
    if (wizard) return { ...c, words: wizard };
    const rank = `card.rank.${c.rank}`;
    const suit = `card.suit_of.${c.suit}`;
    if (!c.suit || !i18n.has(rank, true) || !i18n.has(suit, true)) return c;
    return { ...c, words: t("card.words", { rank: t(rank), suit: t(suit) }) };
  });
}

// Names the server writes in English: computer players ("Computer 2 (search)") and seats handed back to
// the computer ("Rick (now careful bot)").

/** A bot's short name in the page's language ("search" → "búsqueda"), else as served. */
export function botWord(bot) {
  return bot && i18n.has(`bot.${bot}`) ? t(`bot.${bot}`) : String(bot ?? "");
}

/** A bot's description for the lobby: the catalogue's (per game, then generic), else the server's label. */
export function botLabel(game, bot, fallback) {
  for (const key of [`bot.label.${game}.${bot}`, `bot.label.${bot}`]) if (i18n.has(key)) return t(key);
  return fallback || bot;
}

/** A seat's name as the page shows it: server-made names in the page's language, people's names as typed. */
export function displayName(name) {
  const text = String(name ?? "");
  let m = /^Computer (\d+) \((\w+)\)$/.exec(text);
  if (m) return t("seat.computer_name", { n: m[1], bot: botWord(m[2]) });
  m = /^(.*) \(now (\w+) bot\)$/.exec(text);
  if (m) return t("seat.now_computer", { name: m[1], bot: botWord(m[2]) });
  return text;
}

// Outcome reasons, stop reasons and refusals: the engine's and the server's English lines, rewritten from
// their parts in the page's language (the English line is kept when no pattern knows it).

const TEAM = /seats (\d+) and (\d+)/;
const REASONS = {
  wizard: [[/^highest total after (\d+) rounds$/, "reason.wizard.highest", ["n"]]],
  crazy_eights: [[/^lowest penalty total wins .*: (.+) with (-?\d+) after (\d+) round\(s\)$/, "reason.crazy_eights.lowest", ["names", "points", "n"]]],
  durak: [
    [/^seat (\d+) is the fool$/, "reason.durak.fool", ["seat"]],
    [/^draw: nobody holds cards$/, "reason.durak.draw", []],
    [/^draw: bout limit (\d+) reached$/, "reason.durak.bout_limit", ["n"]],
  ],
  kaiser: [
    [/^both sides reached (\d+); the bidders, (seats \d+ and \d+), win$/, "reason.kaiser.both", ["target", "team"]],
    [/^(seats \d+ and \d+) reached (\d+)$/, "reason.kaiser.reached", ["team", "target"]],
    [/^(seats \d+ and \d+) fell to (-?\d+); (seats \d+ and \d+) win$/, "reason.kaiser.fell", ["team", "target", "other"]],
    [/^the (\d+)-hand limit with the scores level$/, "reason.kaiser.level", ["n"]],
    [/^the (\d+)-hand limit; (seats \d+ and \d+) are ahead$/, "reason.kaiser.limit", ["n", "team"]],
  ],
  mus: [[/^pair ([AB]) reached (\d+) \((.+) a (\w+)\)$/, "reason.mus.reached", ["pair", "target", "how", "lance"]]],
};
const STOPS = [
  [/^the computer player at seat (\d+) failed: (.*)$/s, "stop.bot_failed", ["seat", "detail"]],
  [/^the rules engine failed on seat (\d+)'s action: (.*)$/s, "stop.engine_failed", ["seat", "detail"]],
  [/^the rules engine could not deal: (.*)$/s, "stop.deal_failed", ["detail"]],
  [/^cannot be resumed: (.*)$/s, "stop.cannot_resume", ["detail"]],
];

function fillParts(match, names, nameOf) {
  const params = {};
  names.forEach((field, i) => {
    const value = match[i + 1];
    if (field === "seat") params.seat = nameOf(Number(value)) ?? value;
    else if (field === "team" || field === "other") {
      const m = TEAM.exec(value);
      params[field] = m ? `${nameOf(Number(m[1])) ?? m[1]} ${t("list.and")} ${nameOf(Number(m[2])) ?? m[2]}` : value;
    } else if (field === "names") params.names = withNames(value, nameOf);
    else if (field === "how") params.how = i18n.has(`mus.reason.${value}`) ? t(`mus.reason.${value}`) : value;
    else if (field === "lance") params.lance = i18n.has(`mus.lance.${value}`) ? t(`mus.lance.${value}`) : value;
    else if (field === "pair") params.pair = t("mus.pair", { letter: value });
    else params[field] = value;
  });
  params.n = params.n ?? 0;
  return params;
}

function rewrite(text, rules, nameOf) {
  for (const [pattern, key, names] of rules) {
    const m = pattern.exec(String(text));
    if (m && i18n.has(key)) return t(key, fillParts(m, names, nameOf));
  }
  return null;
}

/** Why the game ended, in the page's language (null: no pattern knows the engine's line). */
export function reasonText(game, reason, nameOf) {
  return rewrite(reason, REASONS[game] || [], nameOf);
}

/** Why a table stopped, in the page's language (else the server's line with seats named). */
export function stopText(reason, nameOf) {
  return rewrite(reason, STOPS, nameOf) ?? withNames(reason, nameOf);
}

/** A refusal (`{code, params, message}` from the server) in the page's language. */
export function errorText(error, nameOf) {
  const code = error && error.code;
  const english = (error && (error.message ?? error.detail)) || "";
  if (!code || !i18n.has(`error.${code}`)) return english;
  const params = { ...(error.params || {}) };
  if (Number.isInteger(params.seat)) params.seat = nameOf(params.seat) ?? t("seat.numbered", { n: params.seat + 1 });
  for (const field of ["status", "wanted"]) if (params[field] && i18n.has(`status.${params[field]}`)) params[field] = t(`status.${params[field]}`);
  if (params.reason) params.reason = stopText(params.reason, nameOf);
  params.n = params.n ?? 0;
  return t(`error.${code}`, params);
}

/** A Wizard card's name in the page's language ("7 of red" → "7 rojo", "wizard 2" → "mago 2"), or null. */
function wizardCard(words) {
  let m = /^(\d+) of (red|yellow|green|blue)$/.exec(words);
  if (m && i18n.has("card.wizard.number", true)) return t("card.wizard.number", { n: m[1], colour: t(`card.colour.${m[2]}`) });
  m = /^(wizard|jester) (\d)$/.exec(words);
  if (m && i18n.has(`card.wizard.${m[1]}`, true)) return t(`card.wizard.${m[1]}`, { n: m[2] });
  return null;
}
