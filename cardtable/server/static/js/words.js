// Words on the page for what the engine says: event lines, card names, seat names, outcomes and refusals.
// The engine's event texts are its own (English; Spanish for Mus) and number seats from 0. The page writes
// every log line itself from the event's fields, with the catalogue's line event.<game>.<type> in the page's
// language; the engine's text (seats named) is shown only for an event the catalogue does not know (a game
// of a third party).

import * as i18n from "./i18n.js";
import { t } from "./i18n.js";

// Event fields that hold a seat, a card, or a list of cards.
const SEAT_FIELDS = ["seat", "dealer", "mano", "winner", "leader", "sender", "attacker", "defender", "fool", "bidder", "went_out"];
// Per-seat lists ("Rick 20, Summer -10"); points are signed.
const PER_SEAT_FIELDS = ["bids", "tricks", "points", "totals", "penalties"];
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

// Events whose line depends on their fields: the first variant whose fields all hold these values gives the
// key a suffix (event.kaiser.bid_made_nt); null stands for a missing field too, a list for any of its values
// (Mus's pares, juego and punto bonuses are scored in their own lance: "3 tantos for juego", not "for juego
// at Juego"). Written as JSON, because the catalogue test (tests/browser/test_catalogues.py) reads it to
// check that every variant has its line.
const VARIANTS = {
  "crazy_eights": {"round_ended": {"blocked": {"end": "blocked"}, "limit": {"end": "limit"}}},
  "durak": {"game_over": {"draw": {"fool": null}}},
  "kaiser": {
    "bid_made": {"pass": {"points": 0}, "nt": {"no_trump": true}},
    "contract_won": {"nt": {"no_trump": true}},
    "hand_scored": {"set": {"made": false}}
  },
  "mus": {
    "declared": {"no": {"holds": false}},
    "envite_made": {"raise": {"kind": "raise"}, "ordago": {"kind": "ordago"}},
    "lance_closed": {"accepted": {"status": "closed_accepted"}, "rejected": {"status": "closed_rejected"}, "ordago": {"status": "ordago_showdown"}},
    "lance_skipped": {"none": {"holder_pair": null}},
    "signal_seen": {"intercepted": {"intercepted": true}},
    "tantos_scored": {"bonus": {"reason": ["pares", "juego", "punto"]}}
  },
  "wizard": {"trump_turned": {"none": {"card": null}, "choose": {"dealer_chooses": true}, "no_trump": {"trump": "no trump"}}}
};

function matches(value, wanted) {
  if (wanted === null) return value === null || value === undefined;
  return Array.isArray(wanted) ? wanted.includes(value) : value === wanted;
}

/** The suffix of the first variant (`{suffix: {field: value}}`) whose fields `data` holds, or null. */
export function variantOf(variants, data) {
  for (const [suffix, fields] of Object.entries(variants || {})) {
    if (Object.entries(fields).every(([field, wanted]) => matches(data[field], wanted))) return suffix;
  }
  return null;
}

/** The catalogue key of an event's line (event.<game>.<type>, with its variant's suffix). */
export function eventKey(game, event) {
  const suffix = variantOf((VARIANTS[game] || {})[event.type], event);
  return `event.${game}.${event.type}${suffix ? `_${suffix}` : ""}`;
}

/** The key of a Mus scoring reason ("órdago" → mus.reason.ordago). */
export function musReasonKey(reason) {
  return `mus.reason.${String(reason).normalize("NFD").replace(/[\u0300-\u036f]/g, "")}`;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The page's own line for an event, or null when the catalogue has none for it. */
export function eventText(entry, game, { name, card }) {
  const event = entry.event || {};
  const key = eventKey(game, event);
  if (!i18n.has(key)) return null;
  const params = { ...event };
  for (const field of SEAT_FIELDS) if (Number.isInteger(event[field])) params[field] = name(event[field]);
  for (const field of ["card", "starter"]) if (Number.isInteger(event[field])) params[field] = card(event[field]);
  for (const field of ["suit", "trump"]) if (typeof event[field] === "string" && i18n.has(`suit.${event[field]}`)) params[field] = t(`suit.${event[field]}`);
  for (const field of ["cards", "discarded", "drawn"]) if (Array.isArray(event[field])) params[field] = event[field].map(card).join(", ");
  // Kaiser's lists are per team, not per seat.
  for (const field of game === "kaiser" ? [] : PER_SEAT_FIELDS) {
    if (Array.isArray(event[field])) params[field] = event[field].map((v, s) => `${name(s)} ${field === "points" ? signed(v) : v}`).join(", ");
  }
  if (Array.isArray(event.winners)) params.winners = event.winners.map(name).join(` ${t("list.and")} `);
  if (Array.isArray(event.speakers)) params.speakers = event.speakers.map(name).join(", ");
  if (Array.isArray(event.hands)) params.hands = event.hands.map((hand, s) => `${name(s)}: ${hand.map(card).join(", ")}`).join("; ");
  if (game === "mus") Object.assign(params, musParams(event, name));
  else if (typeof event.reason === "string") params.reason = reasonText(game, event.reason, name) ?? event.reason;
  params.nt = event.no_trump ? ` ${t("kaiser.nt")}` : "";
  params.n = [event.count, event.tantos, event.tantos_left, event.total, event.cards_each, event.cards, event.winners?.length]
    .find((v) => Number.isInteger(v)) ?? 0;
  return t(key, params);
}

/** Mus fields in words: pairs, lances, answers, reasons and scores ("45–26"). */
function musParams(event, name) {
  const params = {};
  for (const field of ["pair", "holder_pair"]) if (Number.isInteger(event[field])) params[field] = t("mus.pair", { letter: PAIR_LETTERS[event[field]] });
  if (typeof event.lance === "string") params.lance = t(`mus.lance.${event.lance}`);
  if (typeof event.answer === "string") params.answer = t(`mus.envite.${event.answer}`);
  if (typeof event.reason === "string" && event.type === "tantos_scored") params.reason = t(musReasonKey(event.reason));
  if (typeof event.signal === "string") params.signal = signalName(event.signal);
  for (const field of ["tanteo", "games"]) if (Array.isArray(event[field])) params[field] = event[field].join("–");
  return params;
}

/** A Mus seña by its name in the rules ("envidar_mas" → "envidar más"); an unknown one from its id. */
export function signalName(signal) {
  const key = `mus.signal.${signal}`;
  return i18n.has(key) ? t(key) : String(signal).replace(/_/g, " ");
}

const WIZARD_COLOURS = new Set(["red", "yellow", "green", "blue"]);

/** Card names in the page's language, from each card's rank and suit (the server's words for a card the
 * catalogue has no words for). */
export function translateCards(cards) {
  return cards.map((c) => {
    const words = cardWords(c);
    return words ? { ...c, words } : c;
  });
}

function cardWords(c) {
  const number = String(c.text).slice(1);
  if (!c.suit) return i18n.has(`card.wizard.${c.rank}`) ? t(`card.wizard.${c.rank}`, { n: number }) : null;
  if (WIZARD_COLOURS.has(c.suit)) return t("card.wizard.number", { n: number, colour: t(`card.colour.${c.suit}`) });
  const rank = `card.rank.${c.rank}`;
  const suit = `card.suit_of.${c.suit}`;
  return i18n.has(rank) && i18n.has(suit) ? t("card.words", { rank: t(rank), suit: t(suit) }) : null;
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

/** What a bot account's seat shows besides its name: away (the computer plays for it), forfeited, the
 * decisions it lost this game ("2 lost decisions") and the turns the computer played while it was away. */
export function botSeatTags(seat) {
  const tags = [];
  if (seat.forfeited) tags.push(t("seat.bot_forfeited"));
  else if (seat.away) tags.push(t("seat.bot_away"));
  const failures = seat.failures || {};
  const lost = Object.entries(failures).reduce((sum, [kind, n]) => sum + (kind !== "away" && Number.isInteger(n) ? n : 0), 0);
  if (lost > 0) tags.push(t("seat.lost_decisions", { n: lost }));
  if (Number.isInteger(failures.away) && failures.away > 0) tags.push(t("seat.away_decisions", { n: failures.away }));
  return tags;
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
  mus: [
    // A lance's own bonus (juego a juego) is said once.
    [/^pair ([AB]) reached (\d+) \((pares|juego|punto) a \3\)$/, "reason.mus.reached_bonus", ["pair", "target", "how"]],
    [/^pair ([AB]) reached (\d+) \((.+) a (\w+)\)$/, "reason.mus.reached", ["pair", "target", "how", "lance"]],
  ],
};
const STOPS = [
  [/^the computer player at seat (\d+) failed: (.*)$/s, "stop.bot_failed", ["seat", "detail"]],
  [/^the rules engine failed on seat (\d+)'s action: (.*)$/s, "stop.engine_failed", ["seat", "detail"]],
  [/^the rules engine could not deal: (.*)$/s, "stop.deal_failed", ["detail"]],
  [/^cannot be resumed: (.*)$/s, "stop.cannot_resume", ["detail"]],
];

function fillParts(match, names, nameOf, card = (text) => text) {
  const params = {};
  names.forEach((field, i) => {
    const value = match[i + 1];
    if (field === "seat" || field === "turn") params[field] = nameOf(Number(value)) ?? value;
    else if (field === "team" || field === "other") {
      const m = TEAM.exec(value);
      params[field] = m ? `${nameOf(Number(m[1])) ?? m[1]} ${t("list.and")} ${nameOf(Number(m[2])) ?? m[2]}` : value;
    } else if (field === "names") params.names = withNames(value, nameOf);
    else if (field === "how") params.how = i18n.has(musReasonKey(value)) ? t(musReasonKey(value)) : value;
    else if (field === "lance") params.lance = i18n.has(`mus.lance.${value}`) ? t(`mus.lance.${value}`) : value;
    else if (field === "pair") params.pair = t("mus.pair", { letter: value });
    else if (field === "signal") params.signal = signalName(value.replace(/ /g, "_"));
    else if (field === "phase") params.phase = i18n.has(`mus.phase.${value}`) ? t(`mus.phase.${value}`) : value;
    else if (field === "cards") params.cards = value.split(",").map((text) => card(text.trim())).join(", ");
    else params[field] = value;
  });
  params.n = params.n ?? 0;
  return params;
}

function rewrite(text, rules, nameOf, card) {
  for (const [pattern, key, names] of rules) {
    const m = pattern.exec(String(text));
    if (m && i18n.has(key)) return t(key, fillParts(m, names, nameOf, card));
  }
  return null;
}

/** Why the game ended, in the page's language (null: no pattern knows the engine's line). */
export function reasonText(game, reason, nameOf) {
  return rewrite(reason, [...RESIGNED, ...(REASONS[game] || [])], nameOf);
}

// A game a side resigned (cardtable/server/resignations.py), in any game.
const RESIGNED = [
  [/^seat (\d+) resigned$/, "reason.resigned", ["seat"]],
  [/^(seats \d+ and \d+) resigned$/, "reason.resigned_pair", ["team"]],
];

/** Why a table stopped, in the page's language (else the server's line with seats named). */
export function stopText(reason, nameOf) {
  return rewrite(reason, STOPS, nameOf) ?? withNames(reason, nameOf);
}

// Refused moves: the engine says why in English (Mus keeps its terms and cites the FEM article), after
// "illegal action <text>: ". A reason the catalogue knows is said in the page's language; another one is
// shown only on an English page, and a Spanish or Russian page says just that the move is not allowed.
const ILLEGAL = {
  // Every game (cardtable.core.game).
  "": [
    [/^the game is over$/, "illegal.game_over", []],
    [/^it is seat (\d+)'s turn, not seat (\d+)'s$/, "illegal.not_your_turn", ["turn", "seat"]],
    [/^not among the legal actions now$/, "illegal.not_legal", []],
  ],
  // cardtable/games/mus/game.py, MusGame._explain*.
  mus: [
    [/^the mus must be cut after (\d+) rounds$/, "illegal.mus.max_rounds", ["n"]],
    [/^first give mus or cut it \(FEM IV\.4\)$/, "illegal.mus.mus_or_cut", []],
    [/^señas are disabled \(signals\.enabled = false\)$/, "illegal.mus.signals_off", []],
    [/^each seña once per hand$/, "illegal.mus.signal_used", []],
    [/^the seña (\w+) is not allowed in (\w+) \(FEM VIII\.3, VIII\.6\)$/, "illegal.mus.signal_when", ["signal", "phase"]],
    [/^your cards are not (.+): no lying with señas \(FEM VIII\.4-5\)$/, "illegal.mus.signal_false", ["signal"]],
    [/^the mus may be cut during the discards only 'a falta de tanto' \(FEM IV\.7\)$/, "illegal.mus.cut_a_falta", []],
    [/^everybody gave mus: discard 1 to 4 cards \(FEM III\.11\)$/, "illegal.mus.discard_now", []],
    [/^you do not hold (.+)$/, "illegal.mus.not_held", ["cards"]],
    [/^discard (\d+) to 4 distinct cards, in ascending id order$/, "illegal.mus.discard_count", ["n"]],
    [/^the mus is over: the lances are being played$/, "illegal.mus.lances", []],
    [/^there is no envite to answer or raise: pass, bet or órdago$/, "illegal.mus.no_envite", []],
    [/^envites go from (\d+) to (\d+) now \(or órdago\)$/, "illegal.mus.bet_range", ["low", "high"]],
    [/^the postre holding 33 may only accept an órdago a juego with 'quiero y no pierdo' \(FEM VI\.9\)$/, "illegal.mus.no_lose_only", []],
    [/^'quiero y no pierdo' is only for the postre holding 33 against an órdago a juego \(FEM VI\.10\)$/, "illegal.mus.no_lose_not", []],
    [/^an envite is pending: accept, reject, raise or órdago \(FEM VI\.2\)$/, "illegal.mus.envite_pending", []],
    [/^an órdago is pending: accept or reject it \(FEM IV\.6\)$/, "illegal.mus.ordago_pending", []],
    [/^raises go from (\d+) to (\d+) now \((\d+) in play\)$/, "illegal.mus.raise_range", ["low", "high", "total"]],
  ],
};
const ILLEGAL_HEAD = "illegal action ";

/** Why a move was refused, in the page's language; null when the page cannot say it in its language. */
export function illegalReason(detail, game, nameOf, card) {
  const text = String(detail ?? "");
  // The reason follows the action's text and ": "; the first split whose rest is a known reason wins.
  const tails = [];
  if (text.startsWith(ILLEGAL_HEAD)) {
    for (let i = text.indexOf(": ", ILLEGAL_HEAD.length); i >= 0; i = text.indexOf(": ", i + 1)) tails.push(text.slice(i + 2));
  }
  if (!tails.length) tails.push(text);
  const rules = [...(ILLEGAL[game] || []), ...ILLEGAL[""]];
  for (const tail of tails) {
    const known = rewrite(tail, rules, nameOf, card);
    if (known) return known;
  }
  return i18n.lang() === "en" && tails[0] ? tails[0] : null;
}

/** A refusal (`{code, params, message}` from the server) in the page's language; `how.game` and `how.card`
 * (a card's text form → its words) let a refused move's reason be said too. */
export function errorText(error, nameOf, how = {}) {
  const code = error && error.code;
  const english = (error && (error.message ?? error.detail)) || "";
  if (code === "illegal") {
    const reason = illegalReason((error.params || {}).detail ?? english, how.game, nameOf, how.card);
    return reason ? t("error.illegal", { reason }) : t("error.illegal_plain");
  }
  if (!code || !i18n.has(`error.${code}`)) return english;
  const params = { ...(error.params || {}) };
  if (Number.isInteger(params.seat)) params.seat = nameOf(params.seat) ?? t("seat.numbered", { n: params.seat + 1 });
  for (const field of ["status", "wanted"]) if (params[field] && i18n.has(`status.${params[field]}`)) params[field] = t(`status.${params[field]}`);
  if (params.reason) params.reason = stopText(params.reason, nameOf);
  params.n = params.n ?? 0;
  return t(`error.${code}`, params);
}
